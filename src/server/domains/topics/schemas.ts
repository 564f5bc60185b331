import { Type } from 'typebox';
import { Id, IdOrZero, Int, Timestamp } from '../../http/input.js';
import { ReplyAnswerSchema } from '../../../shared/schemas/post.js';
import { TopicObjectSchema, TopicSlimSchema } from '../../../shared/schemas/topic.js';

/** A topic in lists and API answers: NodeBB's TopicObject (src/shared/schemas/topic.ts). */
export const TopicSummarySchema = TopicObjectSchema;
/** GET /api/v3/topics/{tid}: NodeBB's TopicObjectSlim. */
export { TopicSlimSchema };

/** A new topic (POST /api/v3/topics): the TopicObject with its main post as NodeBB's PostObject. */
export const CreatedTopicSchema = Type.Object({ ...TopicObjectSchema.properties, mainPost: ReplyAnswerSchema });

export const TidParams = Type.Object({ tid: Id() });

/** Lengths and tag rules are checked by the service, so each failure gets its own key. */
export const CreateBody = Type.Object({
  cid: Int(),
  title: Type.String(),
  content: Type.String(),
  tags: Type.Optional(Type.Array(Type.String(), { maxItems: 100 })),
  /** A future publication time (ms; needs topics:schedule). */
  timestamp: Type.Optional(Timestamp()),
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

/** ?page= of GET /api/topic/pagination/{tid} (checked by pageNumber: a non-number is a 400). */
export const PageQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 20 })) });
