import { Type, type Static } from 'typebox';
import { CategoryRefSchema } from './category.js';
import { TopicTagSchema } from './tag.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(s: T) => Type.Union([s, Type.Null()]);

/**
 * NodeBB's TopicObjectSlim (components/schemas/TopicObject.yaml): what GET /api/v3/topics/{tid}
 * answers. NodeBB gives no `required` list, so every field is required; flags are 0/1 numbers.
 * Palaver has no scheduled topics, generated titles, thumbnails or pin expiry: those carry
 * NodeBB's values for a topic without them (docs/api.md).
 */
export const TopicSlimSchema = Type.Object({
  tid: Type.Number(),
  uid: Type.Number(),
  cid: Type.Number(),
  /** HTML-escaped; `titleRaw` is the title as written. */
  title: Type.String(),
  generatedTitle: Type.Number(),
  /** `tid/slug`, as NodeBB's links use it. */
  slug: Type.String(),
  mainPid: Type.Number(),
  postcount: Type.Number(),
  viewcount: Type.Number(),
  /** Distinct authors of the topic's visible posts. */
  postercount: Type.Number(),
  followercount: Type.Number(),
  scheduled: Type.Boolean(),
  deleted: Type.Number(),
  deleterUid: Type.Number(),
  titleRaw: Type.String(),
  locked: Type.Number(),
  pinned: Type.Number(),
  timestamp: Type.Number(),
  timestampISO: Type.String(),
  lastposttime: Type.Number(),
  lastposttimeISO: Type.String(),
  pinExpiry: Type.Number(),
  pinExpiryISO: Type.String(),
  upvotes: Type.Number(),
  downvotes: Type.Number(),
  votes: Type.Number(),
  teaserPid: Nullable(Type.Number()),
  thumbs: Type.Array(Type.Object({ id: Type.Union([Type.Number(), Type.String()]), name: Type.String(), path: Type.String(), url: Type.String() })),
  numThumbs: Type.Number(),
});
export type TopicSlim = Static<typeof TopicSlimSchema>;

/** The topic fields a row alone gives (lists, the topic page and live events add the rest). */
export type TopicFields = Omit<TopicSlim, 'postercount' | 'followercount'>;

/** The author of a topic as NodeBB's TopicObject lists it. */
export const TopicUserSchema = Type.Object({
  uid: Type.Number(),
  /** Federation: every Palaver member is local. */
  isLocal: Type.Boolean(),
  username: Type.String(),
  displayname: Type.String(),
  fullname: Type.String(),
  userslug: Type.String(),
  reputation: Type.Number(),
  postcount: Type.Number(),
  picture: Nullable(Type.String()),
  status: Type.String(),
  'icon:text': Type.String(),
  'icon:bgColor': Type.String(),
  banned: Type.Boolean(),
  banned_until: Type.Number(),
  banned_until_readable: Type.String(),
});
export type TopicUser = Static<typeof TopicUserSchema>;

/** A teaser author as NodeBB's TeaserObject lists it. */
export const TeaserUserSchema = Type.Object({
  uid: Type.Number(),
  username: Type.String(),
  displayname: Type.String(),
  isLocal: Type.Boolean(),
  userslug: Type.String(),
  picture: Nullable(Type.String()),
  'icon:text': Type.String(),
  'icon:bgColor': Type.String(),
});

/** NodeBB's TeaserObject: a topic's or category's latest post. */
export const TeaserSchema = Type.Object({
  pid: Type.Number(),
  /** The post's permalink, `/post/{pid}` under the forum's path. */
  url: Type.String(),
  uid: Type.Number(),
  timestamp: Type.Number(),
  tid: Type.Number(),
  content: Type.String(),
  /** Federation: a local post has no source content. */
  sourceContent: Nullable(Type.String()),
  timestampISO: Type.String(),
  user: TeaserUserSchema,
  index: Type.Number(),
});
export type Teaser = Static<typeof TeaserSchema>;

/** NodeBB's TopicObject: a topic in lists (category, recent, tag…) and what POST /api/v3/topics answers. */
export const TopicObjectSchema = Type.Object({
  ...TopicSlimSchema.properties,
  category: CategoryRefSchema,
  user: TopicUserSchema,
  teaser: Nullable(TeaserSchema),
  tags: Type.Array(TopicTagSchema),
  /** The viewer wrote the topic. */
  isOwner: Type.Boolean(),
  ignored: Type.Boolean(),
  followed: Type.Boolean(),
  unread: Type.Boolean(),
  /** The viewer's reading position; Palaver keeps read times, not positions. */
  bookmark: Nullable(Type.Number()),
  unreplied: Type.Boolean(),
  icons: Type.Array(Type.String()),
});
export type TopicObject = Static<typeof TopicObjectSchema>;
