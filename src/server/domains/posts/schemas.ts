import { Type } from 'typebox';
import { Id, Int } from '../../http/input.js';

/** NodeBB's post shapes (PostObject, GET /posts/{pid}) live in src/shared/schemas/post.ts; page data posts are the shared PostView. */
export { EditAnswerSchema, PostObjectSchema, PostSummarySchema, ReplyAnswerSchema } from '../../../shared/schemas/post.js';

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
  // NodeBB lists each revision's time and editor; a revision's content is NodeBB's GET /posts/{pid}/diffs/{since}.
  // title: the topic's title in that version, for the main post (its history shows title changes).
  revisions: Type.Array(Type.Object({ timestamp: Type.String(), uid: Type.Number(), username: Type.String(), title: Type.Optional(Type.String()) })),
  editable: Type.Boolean(),
  deletable: Type.Boolean(),
});
