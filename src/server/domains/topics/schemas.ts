import { Type } from 'typebox';
import { Id, IdOrZero, Int } from '../../http/input.js';
import { CategoryRefSchema } from '../categories/schemas.js';
import { PostViewSchema, TeaserSchema } from '../posts/schemas.js';
import { TagRefSchema } from '../tags/schemas.js';
import { UserSummarySchema } from '../users/schemas.js';

/** A topic as lists and the API show it (shared TopicSummary). */
export const TopicSummarySchema = Type.Object({
  tid: Type.Number(),
  cid: Type.Number(),
  uid: Type.Number(),
  title: Type.String(),
  titleRaw: Type.String(),
  slug: Type.String(),
  mainPid: Type.Number(),
  timestamp: Type.Number(),
  timestampISO: Type.String(),
  lastposttime: Type.Number(),
  lastposttimeISO: Type.String(),
  postcount: Type.Number(),
  viewcount: Type.Number(),
  votes: Type.Number(),
  upvotes: Type.Number(),
  downvotes: Type.Number(),
  locked: Type.Boolean(),
  pinned: Type.Boolean(),
  deleted: Type.Boolean(),
  unread: Type.Boolean(),
  user: UserSummarySchema,
  category: CategoryRefSchema,
  teaser: Type.Union([TeaserSchema, Type.Null()]),
  tags: Type.Array(TagRefSchema),
});

/** A new topic, with its main post. */
export const CreatedTopicSchema = Type.Intersect([TopicSummarySchema, Type.Object({ mainPost: PostViewSchema })]);

export const TidParams = Type.Object({ tid: Id() });

/** Lengths and tag rules are checked by the service, so each failure gets its own key. */
export const CreateBody = Type.Object({
  cid: Int(),
  title: Type.String(),
  content: Type.String(),
  tags: Type.Optional(Type.Array(Type.String(), { maxItems: 100 })),
});
export const ReplyBody = Type.Object({ content: Type.String(), toPid: Type.Optional(IdOrZero()) });
export const TagsBody = Type.Object({ tags: Type.Array(Type.String(), { maxItems: 100 }) });
export const OptionalTagsBody = Type.Optional(Type.Object({ tags: Type.Optional(Type.Array(Type.String(), { maxItems: 100 })) }));
/** Writes that carry nothing (lock, pin, follow…) still declare their body. */
export const NoBody = Type.Optional(Type.Object({}));

/** Route hook: a write sent with no body at all validates as an empty one. */
export async function defaultBody(req: { body: unknown }): Promise<void> {
  req.body ??= {};
}
