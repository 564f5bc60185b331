import { Type } from 'typebox';
import { Id, Str, Timestamp } from '../../../http/input.js';
import { UserSummarySchema } from '../../users/schemas.js';

/** NodeBB's topic event (GET /api/v3/topics/{tid}/events). */
export const TopicEventSchema = Type.Object({
  type: Type.String(),
  id: Type.Number(),
  timestamp: Type.Number(),
  timestampISO: Type.String(),
  icon: Type.String(),
  text: Type.String(),
  uid: Type.Number(),
  user: Type.Object({
    uid: Type.Number(),
    username: Type.String(),
    displayname: Type.String(),
    userslug: Type.String(),
    picture: Type.Union([Type.String(), Type.Null()]),
    'icon:text': Type.String(),
    'icon:bgColor': Type.String(),
  }),
});

export const EventParams = Type.Object({ tid: Id(), eventId: Id() });
/** PUT /topics/{tid}/pin: NodeBB's optional expiry (ms). */
export const PinBody = Type.Optional(Type.Object({ expiry: Type.Optional(Timestamp()) }));
export const MoveBody = Type.Object({ cid: Id() });
export const MergeBody = Type.Object({ tids: Type.Array(Id(), { minItems: 1, maxItems: 50 }), mainTid: Type.Optional(Id()), newTitle: Type.Optional(Str({ maxLength: 1024 })) });
export const ForkBody = Type.Object({ title: Str({ maxLength: 1024 }), pids: Type.Array(Id(), { minItems: 1, maxItems: 500 }), cid: Type.Optional(Id()) });
export const EditorsBody = Type.Object({ uids: Type.Array(Id(), { maxItems: 50 }) });
export const EditorsSchema = Type.Object({ editors: Type.Array(UserSummarySchema) });
/** A topic a tool names or made: enough to link to it. */
export const TopicRefSchema = Type.Object({ tid: Type.Number(), cid: Type.Number(), title: Type.String(), slug: Type.String() });
export const TopicSearchQuery = Type.Object({ term: Str({ maxLength: 255 }), exclude: Type.Optional(Id()) });
