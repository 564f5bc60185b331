/**
 * Presenter output types: what page data and API responses carry. The server's presenters
 * and the client's pages are both checked against these.
 */

import type { CategoryObject, CategoryRef } from './schemas/category.js';
import type { Teaser, TopicFields, TopicObject } from './schemas/topic.js';
import type { TagRef } from './schemas/tag.js';
import type { GroupBadge } from './schemas/group.js';

export interface UserSummary {
  uid: number;
  username: string;
  userslug: string;
  displayname: string;
  fullname: string;
  picture: string;
  'icon:text': string;
  'icon:bgColor': string;
  status: string;
  postcount: number;
  reputation: number;
  banned: boolean;
  /** The group badges the member shows (NodeBB's selectedGroups), where a page shows them. */
  selectedGroups?: GroupBadge[];
}

/** The category a topic carries (NodeBB's TopicObject `category`): derived from its schema. */
export type { CategoryRef } from './schemas/category.js';

/** Topics, teasers and tags as NodeBB's schemas list them: derived from the TypeBox schemas (src/shared/schemas). */
export type { Teaser, TopicFields, TopicObject, TopicSlim, TopicUser } from './schemas/topic.js';
export type { TagRef } from './schemas/tag.js';

/** A topic in lists: NodeBB's TopicObject. */
export type TopicSummary = TopicObject;

/** A category's own fields, as the v3 API lists them: derived from NodeBB's schema. */
export type { CategoryObject, CategoryWrite } from './schemas/category.js';

/** A category node of the tree: NodeBB's fields (totals over its children), children, latest teaser. */
export interface CategoryView extends CategoryObject {
  children: CategoryView[];
  posts: Teaser[];
}

export interface PostView {
  pid: number;
  tid: number;
  uid: number;
  toPid: number;
  index: number;
  content: string;
  timestamp: number;
  timestampISO: string;
  edited: number;
  editedISO: string;
  editor: UserSummary | null;
  /** 0/1, as NodeBB's topic page data has it. */
  deleted: number;
  deleterUid: number;
  upvotes: number;
  downvotes: number;
  votes: number;
  bookmarks: number;
  bookmarked: boolean;
  upvoted: boolean;
  downvoted: boolean;
  selfPost: boolean;
  display_edit_tools: boolean;
  display_delete_tools: boolean;
  display_moderator_tools: boolean;
  user: UserSummary;
  /** Set when the viewer blocked the author: the page shows the post collapsed. */
  blocked?: boolean;
}

export interface Breadcrumb {
  text: string;
  url?: string;
  cid?: number;
}

/** One page link of a pagination block: its number, whether it is the current one, its query string. */
export interface PageLink {
  page: number;
  active: boolean;
  qs: string;
}

/** NodeBB's pagination object (Pagination.yaml). */
export interface Pagination {
  currentPage: number;
  pageCount: number;
  prev: PageLink;
  next: PageLink;
  first: PageLink;
  last: PageLink;
  /** The adjacent pages as link tags: `href` is a query string (`?page=2`). */
  rel: { rel: 'prev' | 'next'; href: string }[];
  pages: PageLink[];
}

export type Attributes = Record<string, string>;

export interface LoggedInUser {
  uid: number;
  username: string;
  userslug: string;
  displayname: string;
  picture: string;
  'icon:text': string;
  'icon:bgColor': string;
  status: string;
  isAdmin: boolean;
  isGlobalMod: boolean;
  settings: UserSettings;
}

/** NodeBB's `loggedInUser` for a visitor: uid 0, named `[[global:guest]]`, no settings. */
export interface GuestUser {
  uid: 0;
  username: string;
  displayname: string;
  userslug: string;
  picture: string;
  'icon:text': string;
  'icon:bgColor': string;
  status: string;
  isAdmin: false;
  isGlobalMod: false;
  settings?: undefined;
}

/** How a member orders a topic's replies (NodeBB's topicPostSort); the main post always comes first. */
export type TopicPostSort = 'oldest_to_newest' | 'newest_to_oldest' | 'most_votes';

export interface UserSettings {
  openSidebars: 'on' | 'off';
  bootswatchSkin: string;
  topicPostSort: TopicPostSort;
  usePagination: boolean;
  topicsPerPage: number;
  postsPerPage: number;
  userLang: string;
  /** The IANA time zone dates are shown in ('' : the browser's own). Palaver's own. */
  timezone: string;
  showemail: boolean;
  showfullname: boolean;
  followTopicsOnCreate: boolean;
  followTopicsOnReply: boolean;
  /** Accept chats only from members this one follows (NodeBB's disableIncomingChats). */
  disableIncomingChats: boolean;
  /**
   * Open links to other sites in a new tab (NodeBB's member setting). Stored only once the member
   * chooses; until then the forum's setting decides (users/presenter.ts linksInNewTab).
   */
  openOutgoingLinksInNewTab: boolean;
}

/** Fields every page carries, whatever its template. */
export interface PageBase {
  template: { name: string } & Record<string, boolean | string>;
  templateToRender?: string;
  title: string;
  bodyClass: string;
  breadcrumbs: Breadcrumb[];
  widgets: Record<string, { html: string }[]>;
  _header: { tags: { meta: Attributes[]; link: Attributes[] } };
  url: string;
  relative_path: string;
  loggedIn: boolean;
  /** The member, or NodeBB's guest object (uid 0) for a visitor. */
  loggedInUser: LoggedInUser | GuestUser;
  /** The member's rooms with unread messages (NodeBB's header `unreadCount.chat`): the chat badge's first render, before the socket. Absent for visitors. */
  unreadChatCount?: number;
  postIndex?: number;
  /** Structured data for search engines (schema.org JSON-LD), written into the document's head. */
  jsonLd?: Record<string, unknown>;
}

/** Privileges of the viewer in a category or topic, as NodeBB names them. */
export interface ViewerPrivileges {
  read: boolean;
  'topics:read': boolean;
  'topics:create': boolean;
  'topics:reply': boolean;
  'topics:tag': boolean;
  /** May give a new topic a future publication time (NodeBB's topics:schedule). */
  'topics:schedule': boolean;
  'posts:edit': boolean;
  /** May read a post's edit history (NodeBB's posts:history). */
  'posts:history': boolean;
  'posts:delete': boolean;
  'posts:upvote': boolean;
  'posts:downvote': boolean;
  'topics:delete': boolean;
  view_deleted: boolean;
  isAdminOrMod: boolean;
  editable: boolean;
  deletable: boolean;
}

export interface CategoriesPage extends PageBase {
  categories: CategoryView[];
}

/** NodeBB's category page privileges: the viewer's, with the category (as text); not the viewer's uid (docs/api.md). */
export interface CategoryPagePrivileges {
  'topics:create': boolean;
  'topics:read': boolean;
  'topics:tag': boolean;
  'topics:schedule': boolean;
  read: boolean;
  'posts:view_deleted': boolean;
  cid: string;
  editable: boolean;
  view_deleted: boolean;
  isAdminOrMod: boolean;
}

/** NodeBB's category page: the category (`link` '': a link category redirects) without the list's teasers. */
export interface CategoryPage extends PageBase, Omit<CategoryView, 'posts'> {
  tagWhitelist: string[];
  /** An unread topic among those shown. */
  unread: boolean;
  'unread-class': string;
  nextStart: number;
  topics: TopicSummary[];
  /** The tag the topics are filtered by (NodeBB's ?tag=), null for none; `selectedTags` the same as a list. */
  selectedTag: { label: string; value: string } | null;
  selectedTags: string[];
  /** The viewer's watch state of the category, as NodeBB's four flags (one is true). */
  isWatched: boolean;
  isTracked: boolean;
  isNotWatched: boolean;
  isIgnored: boolean;
  hasFollowers: boolean;
  selectCategoryLabel: string;
  privileges: CategoryPagePrivileges;
  showSelect: boolean;
  showTopicTools: boolean;
  /** Where the page starts within the topic index of the URL (0: at the page's beginning). */
  topicIndex: number;
  rssFeedUrl: string;
  'feeds:disableRSS': number;
  'reputation:disabled': number;
  sortOptionLabel: string;
  pagination: Pagination;
}

export interface TopicPage extends PageBase, TopicFields {
  title: string;
  category: CategoryRef;
  tags: TagRef[];
  isFollowing: boolean;
  isIgnoring: boolean;
  posts: PostView[];
  privileges: ViewerPrivileges;
  pagination: Pagination;
  /** The topic's timeline events (moderation), shown between posts by time. */
  events?: TopicEventView[];
}

/**
 * The compose page (`/compose`, spec routes table): what its query asks for, checked by the
 * server. `action` as the composer names it; `topicTitle` the topic's title (reply, edit);
 * `isMain` for the edit of a topic's first post.
 */
export interface ComposePage extends PageBase {
  action: 'topics.post' | 'posts.reply' | 'posts.edit';
  cid: number;
  tid: number;
  pid: number;
  toPid: number;
  topicTitle: string;
  isMain: boolean;
}

/** A filter or term of a topic list, as NodeBB lists them. */
export interface TopicListChoice {
  name: string;
  url: string;
  selected: boolean;
}

/** Recent, popular, top and unread: NodeBB's list page fields. */
export interface TopicListPage extends PageBase {
  nextStart: number;
  topicCount: number;
  topics: TopicSummary[];
  pagination: Pagination;
  canPost: boolean;
  showSelect: boolean;
  showTopicTools: boolean;
  allCategoriesUrl: string;
  selectedCategory: null;
  selectedCids: number[];
  /** The tag the list is filtered by (NodeBB's ?tag=), null for none. */
  selectedTag: { label: string; value: string } | null;
  selectedTags: string[];
  'reputation:disabled': number;
  filters: (TopicListChoice & { filter: string; icon: string })[];
  selectedFilter: TopicListChoice & { filter: string; icon: string };
  /** Recent, popular and top (not unread). */
  tids?: number[];
  'feeds:disableRSS'?: number;
  rssFeedUrl?: string;
  terms?: (TopicListChoice & { term: string })[];
  selectedTerm?: TopicListChoice & { term: string };
  /** Unread only. */
  pageCount?: number;
  selectCategoryLabel?: string;
  selectCategoryIcon?: string;
  showCategorySelectLabel?: boolean;
}

/** The page of one tag (template 'tag'): its topics. */
export interface TagPage extends PageBase {
  topics: TopicSummary[];
  pagination: Pagination;
  tag: string;
  /** Whether the viewer follows the tag. */
  isFollowing: boolean;
}

/** The page of the most used tags (template 'tags'). */
/** NodeBB's TagObject: a tag of the tags page. */
export interface TagObject {
  value: string;
  valueEscaped: string;
  valueEncoded: string;
  class: string;
  score: number;
}

export interface TagsPage extends PageBase {
  tags: TagObject[];
  /** The viewer may search tags (search:tags). */
  displayTagSearch: boolean;
  nextStart: number;
  /** The text the list is narrowed to (?query=). */
  query?: string;
}

export interface UsersPage extends PageBase {
  users: (UserSummary & { joindate: number; joindateISO: string })[];
  /** NodeBB's: the viewer may invite people by mail (the registration type and the `invite` privilege allow it). */
  showInviteButton: boolean;
  pagination: Pagination;
  section: string;
  userCount: number;
}

export interface UserProfilePage extends PageBase, Omit<import('./account.js').AccountUser, 'email' | 'signature' | 'cover:url' | 'cover:position' | 'age' | 'birthday'> {
  about: string;
  aboutHTML: string;
  joindate: number;
  joindateISO: string;
  lastonline: number;
  lastonlineISO: string;
  topiccount: number;
  posts: (PostView & { topic: { tid: number; title: string; slug: string } })[];
  /** Profile fields (issue 13): '' when not given. */
  website: string;
  location: string;
  birthday: string;
  /** Whole years from the birthday (0 when none). */
  age: number;
  signature: string;
  signatureHTML: string;
  'cover:url': string;
  'cover:position': string;
  /** The admin-defined fields the viewer may see that the member filled in. */
  customUserFields: import('./profile.js').CustomFieldView[];
  /** The member's most upvoted posts the viewer may read. */
  bestPosts: (PostView & { topic: { tid: number; title: string; slug: string } })[];
  /** The viewer may edit this profile (the member themself or an admin). */
  canEdit: boolean;
  /** The member's address when they chose to show it (NodeBB's showemail), to themself and admins always; else ''. */
  email: string;
}

/** Page data of /login (NodeBB's login.yaml: Palaver has no login plugins or federated logins). */
export interface LoginPage extends PageBase {
  allowRegistration: boolean;
  loginFormEntry: unknown[];
  alternate_logins: boolean;
  osw_logins: boolean;
  authentication: { name: string; url: string }[];
  allowLoginWith: string;
  allowPasswordReset: boolean;
  allowLocalLogin: boolean;
  error?: string;
}

export interface AuthPage extends PageBase {
  allowRegistration: boolean;
  minimumPasswordLength: number;
  minimumPasswordStrength: number;
  minimumUsernameLength: number;
  maximumUsernameLength: number;
  error?: string;
}

export interface ErrorPage extends PageBase {
  path: string;
  error: string;
  status: number;
  /** The maintenance page only: the admin's message (plain text, `maintenanceModeMessage`). */
  message?: string;
}

/** The client configuration of spec §3, served by GET /api/config. */
export interface ClientConfig {
  /** The main navigation's enabled entries (the admin's navigation editor; Palaver's own). */
  navigation?: import('./navigation.js').NavEntry[];
  /** The cookie consent banner (NodeBB's config.cookies); plain text, shown to visitors while enabled. */
  cookies?: { enabled: boolean; message: string; dismiss: string; link: string; link_url: string };
  asset_base_url: string;
  'cache-buster': string;
  relative_path: string;
  upload_url: string;
  useragent: { isSafari: boolean; isMobile: boolean };
  maintenanceMode: boolean;
  userLang: string;
  defaultLang: string;
  timeagoCodes: Record<string, string>;
  timeagoCutoff: number;
  minimumPasswordLength: number;
  minimumPasswordStrength: number;
  minimumUsernameLength: number;
  maximumUsernameLength: number;
  minimumTitleLength: number;
  maximumTitleLength: number;
  minimumPostLength: number;
  maximumPostLength: number;
  minimumTagsPerTopic: number;
  maximumTagsPerTopic: number;
  minimumTagLength: number;
  maximumTagLength: number;
  siteTitle: string;
  titleLayout: string;
  browserTitle: string;
  csrf_token: string;
  websocketAddress: string;
  maxReconnectionAttempts: number;
  reconnectionDelay: number;
  socketioTransports: string[];
  socketioOrigins: string;
  openOutgoingLinksInNewTab: boolean;
  useOutgoingLinksPage: boolean;
  /** Whether the forum can search (NodeBB: a search plugin is active); Palaver always can. */
  searchEnabled: boolean;
  /** Where the sidebar's instant search looks: titles, posts or titlesposts. */
  searchDefaultInQuick: string;
  outgoingLinksWhitelist: string;
  activitypub: { probe: boolean };
  composeRouteEnabled: boolean;
  /** This member's new posts may wait in the post queue (the composer says so). */
  postQueue: boolean;
  allowRegistration: boolean;
  /**
   * Whether the forum can send mail (an SMTP host is set). Without it mail waits in the outbox,
   * and the pages that would promise a mail (reset, email change, invitations, digests) say so.
   */
  mailConfigured: boolean;
  /** The captcha arguments (spec §3: targetId, publicKey, options, addLoginRecaptcha); ALTCHA made by this forum, or reCAPTCHA / hCaptcha when the admin chose one (publicKey: its site key). */
  captcha?: { provider: 'altcha' | 'recaptcha' | 'hcaptcha'; targetId: string; publicKey: string; options: { theme: string; hl: string }; addLoginRecaptcha: boolean; register: boolean; challengeUrl: string };
  topicsPerPage: number;
  postsPerPage: number;
  uid: number;
  isAdmin: boolean;
  bootswatchSkin: string;
  openSidebars: 'on' | 'off';
  usePagination: boolean;
  /** The report dialog's preset reasons (the setting flags:reasons, one a line). */
  flagReasons: string[];
  /** Admin appearance: custom stylesheet and script URLs ('' none), sanitised header HTML, brand images, skins. */
  customCSSUrl?: string;
  customJSUrl?: string;
  customHTML?: string;
  brand?: { logo: string; favicon: string; touchIcon: string; ogImage: string };
  defaultSkin?: string;
  allowedSkins?: string[];
  /** Theme (Harmony) options: the phone's bottom bar hides while scrolling down. */
  autohideBottombar?: boolean;
}

/** One event of a topic's timeline (NodeBB's topic event): who did what, when; `text` is a [[topic:…]] key with its arguments. */
export interface TopicEventView {
  id: number;
  type: string;
  timestamp: number;
  timestampISO: string;
  /** NodeBB's FontAwesome name (fa-thumb-tack…); the client maps it to its own icons. */
  icon: string;
  text: string;
  uid: number;
  user: { uid: number; username: string; displayname: string; userslug: string; picture: string | null; 'icon:text': string; 'icon:bgColor': string };
  /** Page data only: the other topic the event names (forked into, merged from…), as a path. */
  href?: string;
  /** Page data only: that topic's title. */
  hrefText?: string;
  /**
   * Page data for the topic's moderators only (Palaver's own): the write that undoes this
   * event, on the latest event of its kind while the topic is still as the event left it
   * (pinned after "pinned", in the category it was moved to after "moved", …).
   */
  undo?: { method: 'PUT' | 'DELETE'; path: string; body?: Record<string, number> };
}

/** A post found by a search: NodeBB's PostObject and a marked piece of its text (HTML, escaped). */
export type SearchResultPost = import('./schemas/post.js').PostObject & { snippet: string };

/** The search page (template 'search'), NodeBB's /api/search fields. */
export interface SearchPage extends PageBase {
  posts: SearchResultPost[];
  users: UserSummary[];
  tags: TagRef[];
  categories: { cid: number; name: string; slug: string; icon: string; bgColor: string; color: string; description: string }[];
  matchCount: number;
  pageCount: number;
  /** Seconds the search took, as NodeBB shows it ("0.01"). */
  time: string;
  multiplePages: boolean;
  search_query: string;
  showAsPosts: boolean;
  showAsTopics: boolean;
  /** The filters in force, as the form shows them. */
  filters: Record<string, string | string[] | boolean>;
  userFilterSelected: { uid: number; username: string; displayname: string; userslug: string; picture: string | null; 'icon:text': string; 'icon:bgColor': string }[];
  tagFilterSelected: { value: string; valueEscaped: string; valueEncoded: string; class: string }[];
  /** Categories the viewer may read, for the category filter (parents before children). */
  allCategories: { cid: number; name: string; level: number }[];
  searchDefaultSortBy: string;
  searchDefaultIn: string;
  /** Whether the form's advanced filters open (any filter set beside the term). */
  expandSearch: boolean;
  privileges: { 'search:users': boolean; 'search:content': boolean; 'search:tags': boolean };
  pagination: Pagination;
}

/** The outgoing-link interstitial (template 'outgoing'), NodeBB's /api/outgoing. */
export interface OutgoingPage extends PageBase {
  /** The external address, checked to be http(s). */
  outgoing: string;
  siteTitle: string;
}

/** The admin's search page (template 'admin/plugins/dbsearch'). */
export interface DbSearchPage extends PageBase {
  dialect: 'sqlite' | 'postgres';
  /** Documents in the index; equal to `posts` once the index is complete. */
  documents: number;
  posts: number;
  /** Searches per UTC day (midnight in ms) over the last 30 days. */
  searchesPerDay: { day: number; count: number }[];
  searchDefaultIn: string;
  searchDefaultInQuick: string;
  searchDefaultSortBy: string;
}
