import { Type } from 'typebox';
import { Id, IdOrZero, Str, Timestamp } from '../../http/input.js';

const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);

export const FlagParams = Type.Object({ flagId: Id() });
export const NoteParams = Type.Object({ flagId: Id(), datetime: Timestamp() });

/** POST /api/v3/flags: NodeBB's type, id and reason; `roomId` names a chat message's room (type 'message'). */
export const ReportBody = Type.Object({
  type: Type.Union([Type.Literal('post'), Type.Literal('user'), Type.Literal('message')]),
  id: Id(),
  reason: Str({ minLength: 1, maxLength: 1000 }),
  roomId: Type.Optional(Id()),
});

/** PUT /api/v3/flags/{flagId}: a new state and/or assignee (0: nobody); `datetime` dates the history entry. */
export const UpdateBody = Type.Object({
  datetime: Type.Optional(Timestamp()),
  state: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('wip'), Type.Literal('resolved'), Type.Literal('rejected')])),
  assignee: Type.Optional(IdOrZero()),
});

/** POST /api/v3/flags/{flagId}/notes. */
export const NoteBody = Type.Object({ note: Str({ minLength: 1, maxLength: 5000 }), datetime: Type.Optional(Timestamp()) });

/** A member as a flag shows them. */
export const FlagUserSchema = Type.Object({
  uid: Type.Number(),
  username: Type.String(),
  userslug: Type.String(),
  displayname: Type.String(),
  picture: Nullable(Type.String()),
  reputation: Type.Optional(Type.Number()),
  isLocal: Type.Boolean(),
  'icon:text': Type.String(),
  'icon:bgColor': Type.String(),
});

const HistoryEntrySchema = Type.Object({
  uid: Type.Number(),
  fields: Type.Record(Type.String(), Type.Unknown()),
  meta: Type.Array(Type.Object({ key: Type.String(), value: Type.Optional(Type.String()), labelClass: Type.Optional(Type.String()) })),
  datetime: Type.Number(),
  datetimeISO: Type.String(),
  user: FlagUserSchema,
});
const NoteSchema = Type.Object({ uid: Type.Number(), content: Type.String(), datetime: Type.Number(), datetimeISO: Type.String(), user: FlagUserSchema });

/** NodeBB's FlagHistoryObject. */
export const HistorySchema = Type.Object({ history: Type.Array(HistoryEntrySchema) });
/** NodeBB's FlagNotesObject with the history. */
export const NotesSchema = Type.Object({ notes: Type.Array(NoteSchema), history: Type.Array(HistoryEntrySchema) });

/** NodeBB's FlagObject. */
export const FlagObjectSchema = Type.Object({
  state: Type.String(),
  flagId: Type.Number(),
  type: Type.String(),
  targetId: Type.Number(),
  targetUid: Type.Number(),
  datetime: Type.Number(),
  datetimeISO: Type.String(),
  target_readable: Type.String(),
  target: Type.Record(Type.String(), Type.Unknown()),
  assignee: Nullable(Type.Number()),
  reports: Type.Array(Type.Object({ value: Type.String(), timestamp: Type.Number(), timestampISO: Type.String(), reporter: FlagUserSchema })),
  history: Type.Array(HistoryEntrySchema),
  notes: Type.Array(NoteSchema),
});

/** POST /api/v3/flags: the flag for moderators, an empty object for members (NodeBB). */
export const ReportAnswerSchema = Type.Union([FlagObjectSchema, Type.Object({})]);
