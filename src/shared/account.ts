import type { TopicFields } from './schemas/topic.js';
import type { UserSettingsObj } from './schemas/user.js';
import type { PageBase, Pagination, UserSummary } from './types.js';

/** The member an account page is about, and whether the viewer is that member. */
export interface AccountPageBase extends PageBase, UserSummary {
  isSelf: boolean;
  isAdmin: boolean;
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
