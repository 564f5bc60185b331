import type { TopicFields } from './schemas/topic.js';
import type { UserSettingsObj } from './schemas/user.js';
import type { GroupData } from './schemas/group.js';
import type { PageBase, Pagination, UserSummary } from './types.js';

/** The member an account page is about, and whether the viewer is that member. */
export interface AccountPageBase extends PageBase, AccountUser {}

/** One link of NodeBB's profile menu (`profile_links`): a page under the member's profile and who sees it. */
export interface ProfileLink {
  id: string;
  route: string;
  url: string;
  name: string;
  icon: string;
  public: boolean;
  visibility: Record<'self' | 'other' | 'moderator' | 'globalMod' | 'admin' | 'canViewInfo', boolean>;
}

/**
 * The member an account page is about, as NodeBB's UserObjectFull (accountHelpers.getUserDataByUserSlug)
 * with Palaver's values (server: users/account-fields.ts); `isAdmin` and the other `is…` flags
 * are the reader's, `isTargetAdmin` the member's. `ips` for admins, the member and readers
 * with view:users:info; `moderationNote` (the latest note) for moderators; the private counts
 * for the member and admins.
 */
export interface AccountUser extends UserSummary {
  isLocal: boolean;
  email: string;
  'email:confirmed': boolean;
  joindate: number;
  lastonline: number;
  birthday: string;
  aboutme: string;
  signature: string;
  uploadedpicture: string;
  topiccount: number;
  lastposttime: number;
  'banned:expire': number;
  flags: number;
  followerCount: number;
  followingCount: number;
  'cover:url': string;
  'cover:position': string;
  groupTitle: string;
  groupTitleArray: string[];
  iconBackgrounds: readonly string[];
  muted: boolean;
  mutedUntil: number;
  mutedReason: string;
  joindateISO: string;
  lastonlineISO: string;
  banned_until: number;
  banned_until_readable: string;
  aboutmeParsed: string;
  age: number;
  emailHidden: boolean;
  emailClass: string;
  ips?: string[];
  moderationNote?: string;
  counts: { posts: number; topics: number; shares: number; groups: number; following: number; followers: number; uploaded?: number; categoriesWatched?: number; tagsWatched?: number; blocks?: number };
  isBlocked: boolean;
  blocksCount: number;
  yourid: number;
  theirid: number;
  isTargetAdmin: boolean;
  isAdmin: boolean;
  isGlobalModerator: boolean;
  isModerator: boolean;
  isAdminOrGlobalModerator: boolean;
  isAdminOrGlobalModeratorOrModerator: boolean;
  isSelfOrAdminOrGlobalModerator: boolean;
  canEdit: boolean;
  canBan: boolean;
  canMute: boolean;
  canFlag: boolean;
  flagId: number | null;
  canChangePassword: boolean;
  isSelf: boolean;
  isFollowing: boolean;
  isFollowPending: boolean;
  canChat: boolean;
  hasPrivateChat: number;
  showHidden: boolean;
  allowProfilePicture: boolean;
  allowCoverPicture: boolean;
  allowProfileImageUploads: number;
  maximumProfileImageSize: number;
  profileImageDimension: number;
  allowedProfileImageExtensions: string;
  groups: (GroupData & { descriptionParsed: string })[];
  selectedGroup: (GroupData & { descriptionParsed: string })[];
  disableSignatures: boolean;
  'reputation:disabled': boolean;
  'downvote:disabled': boolean;
  profile_links: ProfileLink[];
  'username:disableEdit': boolean;
  'email:disableEdit': boolean;
}

/** One row of the settings page's notification table (NodeBB's notificationSettings, plus push). */
export interface NotificationSettingRow {
  name: string;
  label: string;
  value: string;
  none: boolean;
  notification: boolean;
  email: boolean;
  notificationemail: boolean;
}

/** Palaver's push channel per type, in NodeBB's customSettings: `notificationPush_<name>` → on. */
export interface PushCustomSetting {
  id: 'notificationPush';
  title: string;
  values: Record<string, boolean>;
}

/** Page data of /user/:userslug/settings (NodeBB's read/user/userslug/settings.yaml, the fields Palaver has). */
export interface AccountSettingsPage extends AccountPageBase {
  settings: UserSettingsObj;
  notificationSettings: NotificationSettingRow[];
  disableEmailSubscriptions: number;
  dailyDigestFreqOptions: { value: string; name: string; selected: boolean }[];
  bootswatchSkinOptions: { name: string; value: string; selected: boolean }[];
  categoryWatchState: Record<string, boolean>;
  languages: { name: string; code: string; dir: string; selected: boolean }[];
  acpLanguages: { name: string; code: string; dir: string; selected: boolean }[];
  /** The member's time zone for dates ('' : the browser's). Palaver's own. */
  timezone: string;
  customSettings: PushCustomSetting[];
  homePageRoutes: { route: string; name: string; selected: boolean }[];
  upvoteNotifFreq: { name: string; selected: boolean }[];
  disableCustomUserSkins: number;
  allowUserHomePage: number;
  hideFullname: number;
  hideEmail: number;
  inTopicSearchAvailable: boolean;
  maxTopicsPerPage: number;
  maxPostsPerPage: number;
  maxUnreadCutoff: number;
}

/** Page data of /user/:userslug/watched (NodeBB's watched.yaml). */
export interface AccountWatchedPage extends AccountPageBase {
  topics: TopicFields[];
  nextStart: number;
  noItemsFoundKey: string;
  showSort: boolean;
  sortOptions: { url: string; name: string; selected: boolean }[];
  pagination: Pagination;
}

/** One category of /user/:userslug/categories with the member's watch state. */
export interface AccountCategory {
  cid: number;
  name: string;
  level: string;
  icon: string;
  parentCid: number;
  color: string;
  bgColor: string;
  backgroundImage: string;
  depth: number;
  slug: string;
  descriptionParsed: string;
  isIgnored: boolean;
  isWatched: boolean;
  isTracked: boolean;
  isNotWatched: boolean;
  imageClass: string;
}

/** Page data of /user/:userslug/categories (NodeBB's categories.yaml). */
export interface AccountCategoriesPage extends AccountPageBase {
  categories: AccountCategory[];
  pagination: Pagination;
}

/** Page data of /user/:userslug/tags (NodeBB's tags.yaml): the tags the member follows. */
export interface AccountTagsPage extends AccountPageBase {
  tags: string[];
}
