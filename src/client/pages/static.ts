// Server rendering imports every page statically: no lazy boundary may be pending in renderToString.
import categories from './categories';
import category from './category';
import topic from './topic';
import topicList from './topic-list';
import users from './users';
import tags from './tags';
import search from './search';
import adminDbSearch from './admin-dbsearch';
import adminDashboard from './admin/dashboard';
import adminDashboardDetails from './admin/dashboard/details';
import adminSkins from './admin/appearance/skins';
import adminCustomise from './admin/appearance/customise';
import adminThemes from './admin/appearance/themes';
import adminPluginList from './admin/plugins/list';
import adminPluginSettings from './admin/plugins/settings';
import outgoing from './outgoing';
import tos from './tos';
import profile from './account/profile';
import accountSettings from './account/settings';
import accountWatched from './account/watched';
import accountCategories from './account/categories';
import accountTags from './account/tags';
import accountUploads from './account/uploads';
import accountGroups from './account/groups';
import groupsList from './groups/list';
import groupDetails from './groups/details';
import groupMembers from './groups/members';
import accountBlocks from './account/blocks';
import accountData from './account/data';
import accountEdit from './account/edit';
import accountTheme from './account/theme';
import profilePosts from './account/posts';
import profileTopics from './account/topics';
import profileFollows from './account/follows';
import webPush from './account/web-push';
import loginTwoFactor from './login-2fa';
import accountSessions from './account/sessions';
import accountTwoFactor from './account/2factor';
import accountTokens from './account/tokens';
import editPassword from './account/edit-password';
import editUsername from './account/edit-username';
import editEmail from './account/edit-email';
import accountConsent from './account/consent';
import registrationQueue from './registration-queue';
import adminUsers from './admin/users/manage';
import adminCustomFields from './admin/users/custom-fields';
import adminCustomReasons from './admin/users/custom-reasons';
import adminTags from './admin/tags';
import adminCategories from './admin/categories/list';
import adminCategory from './admin/categories/edit';
import adminCategoryAnalytics from './admin/categories/analytics';
import adminCategoryFederation from './admin/categories/federation';
import adminPrivileges from './admin/privileges/index';
import adminGroups from './admin/groups/list';
import adminGroup from './admin/groups/edit';
import adminRewards from './admin/rewards';
import adminUploads from './admin/uploads';
import adminDigest from './admin/digest';
import adminWidgets from './admin/widgets';
import adminCache from './admin/advanced/cache';
import adminErrors from './admin/advanced/errors';
import adminEvents from './admin/advanced/events';
import adminLogs from './admin/advanced/logs';
import adminDatabase from './admin/advanced/database';
import adminBackups from './admin/advanced/backups';
import adminSettings from './admin/settings/index';
import adminNavigation from './admin/settings/navigation';
import login from './login';
import register from './register';
import setup from './setup';
import adminsMods from './admin/admins-mods';
import reset from './reset';
import resetCode from './reset-code';
import mailResult from './mail-result';
import compose from './compose';
import notifications from './notifications';
import postQueue from './post-queue';
import flagsList from './flags/list';
import flagDetail from './flags/detail';
import chats from './chats';
import accountInfo from './account/info';
import ipBlacklist from './ip-blacklist';
import error from './error';
import { moduleFor, type PageComponent } from './registry';

const PAGES: Record<string, PageComponent> = {
  categories, category, topic, 'topic-list': topicList, users, tags, search, 'admin-dbsearch': adminDbSearch,
  'admin/appearance/skins': adminSkins, 'admin/appearance/customise': adminCustomise, 'admin/appearance/themes': adminThemes,
  'admin/plugins/list': adminPluginList, 'admin/plugins/settings': adminPluginSettings,
  outgoing, tos, 'account/profile': profile,
  'account/settings': accountSettings, 'account/watched': accountWatched, 'account/categories': accountCategories, 'account/tags': accountTags, 'account/web-push': webPush, 'account/uploads': accountUploads,
  'account/groups': accountGroups, 'groups/list': groupsList, 'groups/details': groupDetails, 'groups/members': groupMembers,
  'account/consent': accountConsent, 'registration-queue': registrationQueue,
  'admin/users/manage': adminUsers, 'admin/users/custom-fields': adminCustomFields, 'admin/users/custom-reasons': adminCustomReasons, 'admin/tags': adminTags, 'admin/categories/list': adminCategories, 'admin/categories/edit': adminCategory, 'admin/categories/analytics': adminCategoryAnalytics, 'admin/categories/federation': adminCategoryFederation, 'admin/dashboard': adminDashboard, 'admin/dashboard/details': adminDashboardDetails, 'admin/privileges/index': adminPrivileges, 'admin/groups/list': adminGroups, 'admin/groups/edit': adminGroup, 'admin/rewards': adminRewards, 'admin/uploads': adminUploads, 'admin/digest': adminDigest, 'admin/widgets': adminWidgets, 'admin/advanced/cache': adminCache, 'admin/advanced/errors': adminErrors, 'admin/advanced/events': adminEvents, 'admin/advanced/logs': adminLogs, 'admin/advanced/database': adminDatabase, 'admin/advanced/backups': adminBackups, 'admin/settings/index': adminSettings, 'admin/settings/navigation': adminNavigation,
  'account/blocks': accountBlocks, 'account/data': accountData,
  'account/edit': accountEdit, 'account/theme': accountTheme, 'account/posts': profilePosts, 'account/topics': profileTopics, 'account/follows': profileFollows,
  'login-2fa': loginTwoFactor, 'account/sessions': accountSessions, 'account/2factor': accountTwoFactor, 'account/tokens': accountTokens,
  'account/edit-password': editPassword, 'account/edit-username': editUsername, 'account/edit-email': editEmail,
  login, register, setup, 'admin/admins-mods': adminsMods, reset, 'reset-code': resetCode, 'mail-result': mailResult, compose, notifications, 'post-queue': postQueue, 'flags/list': flagsList, 'flags/detail': flagDetail, chats, 'account/info': accountInfo, 'ip-blacklist': ipBlacklist, error,
};

/** The component of a template, for server rendering. */
export function getStaticComponent(template: string): PageComponent {
  return PAGES[moduleFor(template)] ?? error;
}
