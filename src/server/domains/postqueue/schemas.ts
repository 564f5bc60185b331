import { Type } from 'typebox';
import { Id, Str } from '../../http/input.js';

export const QueueParams = Type.Object({ id: Id() });
/** A moderator's change to a queued post; lengths are checked by the service (each failure its own key). */
export const QueueEditBody = Type.Object({
  content: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  cid: Type.Optional(Id()),
});
/** The reason given to the author (reject) or the moderator's message (notify). */
export const QueueMessageBody = Type.Optional(Type.Object({ message: Type.Optional(Str({ maxLength: 2000 })) }));
export const QueueNotifyBody = Type.Object({ message: Str({ minLength: 1, maxLength: 2000 }) });
/** POST /api/v3/posts/queue/{id}: what the accepted post became. */
export const AcceptedSchema = Type.Object({ type: Type.String(), pid: Type.Number(), tid: Type.Number() });
/** A submission held in the queue (NodeBB's answer to a queued topic or reply). */
export const QueuedAnswerSchema = Type.Object({ queued: Type.Boolean(), id: Type.String(), type: Type.String(), message: Type.String() });
