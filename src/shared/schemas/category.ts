import { Type, type Static } from 'typebox';

/**
 * NodeBB's CategoryObject (components/schemas/CategoryObject.yaml) as a TypeBox schema. The
 * server's response schemas and the shared `CategoryObject` type both come from here, so the
 * serialiser, `/api/v3/openapi.json` and the client cannot disagree. Every listed field is
 * required (NodeBB's rule when a schema has no `required` list); `backgroundImage` is in the
 * optional part of NodeBB's schema.
 */
export const CategoryObjectSchema = Type.Object({
  cid: Type.Number(),
  name: Type.String(),
  /** Federation: a local category's nickname is its name. */
  nickname: Type.String(),
  handle: Type.String(),
  description: Type.String(),
  descriptionParsed: Type.String(),
  icon: Type.String(),
  bgColor: Type.String(),
  color: Type.String(),
  slug: Type.String(),
  parentCid: Type.Number(),
  topic_count: Type.Number(),
  post_count: Type.Number(),
  /** 0 or 1, as NodeBB stores it. */
  disabled: Type.Number(),
  order: Type.Number(),
  link: Type.String(),
  numRecentReplies: Type.Number(),
  class: Type.String(),
  imageClass: Type.Union([Type.Literal('auto'), Type.Literal('cover'), Type.Literal('contain')]),
  isSection: Type.Number(),
  minTags: Type.Number(),
  maxTags: Type.Number(),
  postQueue: Type.Number(),
  totalPostCount: Type.Number(),
  totalTopicCount: Type.Number(),
  subCategoriesPerPage: Type.Number(),
  backgroundImage: Type.Optional(Type.String()),
});

/**
 * The category a topic carries in lists (TopicObject's `category`): no handle, the image
 * fields null/NodeBB's default since Palaver has no category images, `disabled` 0/1.
 */
export const CategoryRefSchema = Type.Object({
  cid: Type.Number(),
  name: Type.String(),
  slug: Type.String(),
  icon: Type.String(),
  backgroundImage: Type.Union([Type.String(), Type.Null()]),
  imageClass: Type.Union([Type.String(), Type.Null()]),
  bgColor: Type.String(),
  color: Type.String(),
  disabled: Type.Number(),
});

/** The category reference topic lists carry. */
export type CategoryRef = Static<typeof CategoryRefSchema>;

/** A category as NodeBB's v3 API answers it. */
export type CategoryObject = Static<typeof CategoryObjectSchema>;

/** What POST and PUT /api/v3/categories answer: the category plus its tag whitelist and unread class. */
export const CategoryWriteSchema = Type.Object({
  ...CategoryObjectSchema.properties,
  tagWhitelist: Type.Array(Type.String()),
  'unread-class': Type.String(),
});

/** The answer of POST and PUT /api/v3/categories. */
export type CategoryWrite = Static<typeof CategoryWriteSchema>;
