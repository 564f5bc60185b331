import { Type, type Static } from 'typebox';

const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);

/**
 * NodeBB's UserObj (components/schemas/UserObj.yaml), which the /api/v3/users routes answer.
 * It has no `required` list, so every field is required; fields NodeBB marks nullable may be
 * null. `email` is empty unless the viewer is the member or an admin (as NodeBB hides it).
 */
export const UserObjSchema = Type.Object({
  uid: Type.Number(),
  username: Type.String(),
  userslug: Type.String(),
  email: Type.String(),
  /** 0 or 1. */
  'email:confirmed': Type.Number(),
  joindate: Type.Number(),
  lastonline: Type.Number(),
  picture: Nullable(Type.String()),
  fullname: Nullable(Type.String()),
  displayname: Type.String(),
  location: Type.String(),
  birthday: Nullable(Type.String()),
  website: Type.String(),
  aboutme: Nullable(Type.String()),
  signature: Nullable(Type.String()),
  uploadedpicture: Nullable(Type.String()),
  profileviews: Type.Number(),
  reputation: Type.Number(),
  postcount: Type.Number(),
  topiccount: Type.Number(),
  lastposttime: Type.Number(),
  banned: Type.Boolean(),
  'banned:expire': Type.Number(),
  status: Type.String(),
  flags: Type.Number(),
  followercount: Type.Number(),
  followingcount: Type.Number(),
  'cover:url': Type.String(),
  'cover:position': Nullable(Type.String()),
  groupTitle: Nullable(Type.String()),
  groupTitleArray: Type.Array(Type.String()),
  'icon:text': Type.String(),
  'icon:bgColor': Type.String(),
  joindateISO: Type.String(),
  lastonlineISO: Type.String(),
  banned_until: Type.Number(),
  banned_until_readable: Type.String(),
});

/** A member as NodeBB's v3 users routes answer. */
export type UserObj = Static<typeof UserObjSchema>;

/** NodeBB's UserObjectSlim (components/schemas/UserObject.yaml), which the login utility answers. */
export const UserObjectSlimSchema = Type.Object({
  ...Type.Pick(UserObjSchema, [
    'uid', 'username', 'displayname', 'userslug', 'picture', 'status', 'postcount', 'reputation', 'email:confirmed',
    'lastonline', 'flags', 'banned', 'banned:expire', 'joindate', 'icon:text', 'icon:bgColor', 'joindateISO',
    'lastonlineISO', 'banned_until', 'banned_until_readable',
  ]).properties,
  /** Always true: Palaver has no remote (federated) members yet. */
  isLocal: Type.Boolean(),
});

/** A member as the login utility answers. */
export type UserObjectSlim = Static<typeof UserObjectSlimSchema>;

/**
 * NodeBB's Settings (components/schemas/SettingsObj.yaml): the fields of its `required` list
 * and Palaver's own ones it lists. Only listed fields may appear (Palaver's `openSidebars` is
 * page data, not part of this answer).
 */
export const UserSettingsObjSchema = Type.Object({
  uid: Type.Number(),
  showemail: Type.Boolean(),
  usePagination: Type.Boolean(),
  topicsPerPage: Type.Number(),
  postsPerPage: Type.Number(),
  topicPostSort: Type.String(),
  openOutgoingLinksInNewTab: Type.Boolean(),
  disableIncomingChats: Type.Boolean(),
  dailyDigestFreq: Type.String(),
  showfullname: Type.Boolean(),
  followTopicsOnCreate: Type.Boolean(),
  followTopicsOnReply: Type.Boolean(),
  topicSearchEnabled: Type.Boolean(),
  categoryTopicSort: Type.String(),
  userLang: Type.String(),
  bootswatchSkin: Type.String(),
  homePageRoute: Type.String(),
  scrollToMyPost: Type.Boolean(),
  upvoteNotifFreq: Type.String(),
  acpLang: Type.String(),
  categoryWatchState: Type.String(),
  'notificationType_new-chat': Type.String(),
  'notificationType_new-reply': Type.String(),
  notificationType_upvote: Type.String(),
  'notificationType_new-topic': Type.String(),
  notificationType_follow: Type.String(),
  'notificationType_group-invite': Type.String(),
  'notificationType_group-leave': Type.String(),
  'notificationType_new-register': Type.String(),
  'notificationType_post-queue': Type.String(),
  'notificationType_new-post-flag': Type.String(),
  'notificationType_new-user-flag': Type.String(),
  'notificationType_group-request-membership': Type.String(),
});

/** A member's settings as PUT /api/v3/users/{uid}/settings answers them. */
export type UserSettingsObj = Static<typeof UserSettingsObjSchema>;
