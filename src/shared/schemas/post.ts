import { Type, type Static } from 'typebox';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(s: T) => Type.Union([s, Type.Null()]);

/** A post's author as NodeBB's PostObject lists it (every field, no others). */
export const PostUserSchema = Type.Object({
  uid: Type.Number(),
  /** Federation: every Palaver member is local. */
  isLocal: Type.Boolean(),
  username: Type.String(),
  displayname: Type.String(),
  userslug: Type.String(),
  picture: Nullable(Type.String()),
  status: Type.String(),
  'icon:text': Type.String(),
  'icon:bgColor': Type.String(),
});

/** The topic of a post as NodeBB's PostObject lists it (NodeBB requires uid, tid, cid, title and slug). */
export const PostTopicSchema = Type.Object({
  uid: Type.Number(),
  tid: Type.Number(),
  cid: Type.Number(),
  title: Type.String(),
  titleRaw: Type.String(),
  slug: Type.String(),
  deleted: Type.Number(),
  scheduled: Type.Boolean(),
  timestamp: Type.Number(),
  timestampISO: Type.String(),
  postcount: Type.Number(),
  mainPid: Type.Number(),
  teaserPid: Nullable(Type.Number()),
  isMainPost: Type.Boolean(),
});

/** The category of a post as NodeBB's PostObject lists it. */
export const PostCategorySchema = Type.Object({
  cid: Type.Number(),
  name: Type.String(),
  icon: Type.String(),
  slug: Type.String(),
  parentCid: Type.Number(),
  bgColor: Type.String(),
  color: Type.String(),
  backgroundImage: Nullable(Type.String()),
  imageClass: Nullable(Type.String()),
});

/**
 * NodeBB's PostObject (components/schemas/PostObject.yaml): what a reply (POST
 * /api/v3/topics/{tid}, with `index`) and an edit (PUT /api/v3/posts/{pid}, with `edited` and
 * `deleterUid`) answer. NodeBB documents `deleted` as a boolean here (a number elsewhere).
 */
export const PostObjectSchema = Type.Object({
  pid: Type.Number(),
  tid: Type.Number(),
  /** The post this one replies to, or null. */
  toPid: Nullable(Type.Number()),
  /** The post's permalink, `/post/{pid}` under the forum's path. */
  url: Type.String(),
  content: Type.String(),
  /** Federation: a local post has no source content. */
  sourceContent: Nullable(Type.String()),
  uid: Type.Number(),
  timestamp: Type.Number(),
  deleted: Type.Boolean(),
  upvotes: Type.Number(),
  downvotes: Type.Number(),
  votes: Type.Number(),
  timestampISO: Type.String(),
  user: PostUserSchema,
  topic: PostTopicSchema,
  category: PostCategorySchema,
  isMainPost: Type.Boolean(),
  /** How many visible posts reply to this one. */
  replies: Type.Number(),
});
export type PostObject = Static<typeof PostObjectSchema>;

/** POST /api/v3/topics/{tid}: the reply and its 0-based position in the topic. */
export const ReplyAnswerSchema = Type.Object({ ...PostObjectSchema.properties, index: Type.Number() });
/** PUT /api/v3/posts/{pid}: the edited post with its edit time and deleter. */
export const EditAnswerSchema = Type.Object({ ...PostObjectSchema.properties, edited: Type.Number(), deleterUid: Type.Number() });

/** GET /api/v3/posts/{pid}: a post's own fields as NodeBB answers them (flags 0/1, no author object). */
export const PostSummarySchema = Type.Object({
  pid: Type.Number(),
  uid: Type.Number(),
  tid: Type.Number(),
  content: Type.String(),
  timestamp: Type.Number(),
  /** The post's flag still to handle, to those who may see it (moderators of its category); else 0. */
  flagId: Type.Number(),
  deleted: Type.Number(),
  upvotes: Type.Number(),
  downvotes: Type.Number(),
  deleterUid: Type.Number(),
  edited: Type.Number(),
  replies: Type.Number(),
  bookmarks: Type.Number(),
  votes: Type.Number(),
  timestampISO: Type.String(),
  editedISO: Type.String(),
  upvoted: Type.Boolean(),
  downvoted: Type.Boolean(),
  attachments: Type.Array(Type.String()),
  sourceContent: Nullable(Type.String()),
});
export type PostSummary = Static<typeof PostSummarySchema>;
