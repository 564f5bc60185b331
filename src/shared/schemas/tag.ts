import { Type, type Static } from 'typebox';

/**
 * A tag as NodeBB's TopicObject lists it (components/schemas/TopicObject.yaml, `tags` items):
 * every field required, no others. Palaver has no tag colours, so `color` and `bgColor` are empty.
 */
export const TopicTagSchema = Type.Object({
  value: Type.String(),
  valueEscaped: Type.String(),
  color: Type.String(),
  bgColor: Type.String(),
  /** How many topics carry the tag. */
  score: Type.Number(),
});

/** A tag on a topic, and a tag as GET /api/v3/tags/{tag} answers it. */
export type TagRef = Static<typeof TopicTagSchema>;
