import { Type } from 'typebox';
import { Id, Int } from '../../http/input.js';
import { UserSummarySchema } from '../users/schemas.js';

/** A post as page data and API answers show it (shared PostView). */
export const PostViewSchema = Type.Object({
  pid: Type.Number(),
  tid: Type.Number(),
  uid: Type.Number(),
  toPid: Type.Number(),
  index: Type.Number(),
  content: Type.String(),
  timestamp: Type.Number(),
  timestampISO: Type.String(),
  edited: Type.Number(),
  editedISO: Type.String(),
  editor: Type.Union([UserSummarySchema, Type.Null()]),
  deleted: Type.Boolean(),
  upvotes: Type.Number(),
  downvotes: Type.Number(),
  votes: Type.Number(),
  bookmarks: Type.Number(),
  bookmarked: Type.Boolean(),
  upvoted: Type.Boolean(),
  downvoted: Type.Boolean(),
  selfPost: Type.Boolean(),
  display_edit_tools: Type.Boolean(),
  display_delete_tools: Type.Boolean(),
  user: UserSummarySchema,
});

/** A teaser: a topic's or category's latest post. */
export const TeaserSchema = Type.Object({
  pid: Type.Number(),
  tid: Type.Number(),
  index: Type.Number(),
  content: Type.String(),
  timestamp: Type.Number(),
  timestampISO: Type.String(),
  user: UserSummarySchema,
});

export const PidParams = Type.Object({ pid: Id() });

/** Post bodies: lengths are checked by the service, so each gets its own error key. */
export const EditBody = Type.Object({
  content: Type.String(),
  title: Type.Optional(Type.String()),
  tags: Type.Optional(Type.Array(Type.String(), { maxItems: 100 })),
});
// NodeBB: any positive number upvotes, any negative downvotes, 0 withdraws.
export const VoteBody = Type.Object({ delta: Int() });
export const PreviewBody = Type.Object({ content: Type.String({ maxLength: 100000 }) });

/** The edit history of a post. */
export const DiffsSchema = Type.Object({
  uid: Type.Number(),
  pid: Type.Number(),
  timestamps: Type.Array(Type.String()),
  revisions: Type.Array(
    Type.Object({ timestamp: Type.String(), uid: Type.Number(), username: Type.String(), content: Type.String(), title: Type.String() }),
  ),
  editable: Type.Boolean(),
  deletable: Type.Boolean(),
});
