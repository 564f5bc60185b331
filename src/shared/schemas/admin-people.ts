import type { PageBase, Pagination, UserSummary } from '../types.js';

/** The searches, sorts and filters of admin/manage/users (NodeBB's query names). */
export const ADMIN_USER_SEARCH_BY = ['username', 'email', 'uid', 'ip'] as const;
export const ADMIN_USER_SORTS = ['joindate', 'lastonline', 'postcount', 'reputation', 'username', 'uid'] as const;
export const ADMIN_USER_FILTERS = ['unverified', 'verified', 'banned', 'notbanned'] as const;
export const ADMIN_USER_PAGE_SIZES = [20, 50, 100, 250] as const;

/** One member of the admin users table (NodeBB's UserObjectACP fields Palaver has). */
export interface AdminUserRow extends UserSummary {
  email: string;
  'email:confirmed': boolean;
  joindate: number;
  joindateISO: string;
  lastonline: number;
  lastonlineISO: string;
  banned_until: number;
  banReason: string;
  isAdmin: boolean;
}

/** admin/manage/users (NodeBB's /api/admin/manage/users). */
export interface AdminUsersPage extends PageBase {
  users: AdminUserRow[];
  userCount: number;
  page: number;
  pageCount: number;
  resultsPerPage: number;
  sortBy: string;
  reverse: boolean;
  query: string;
  searchBy: string;
  filters: string[];
  /** The preset ban reasons (setting `banReasons`), one per line there. */
  banReasons: string[];
  /** The groups an admin may add members to or remove them from (not the system groups). */
  groups: { name: string; slug: string }[];
  /** What this viewer may do: admins everything, global moderators ban/unban. */
  canBan: boolean;
  isAdmin: boolean;
  pagination: Pagination;
}

/** One admin-defined profile field, as the setting `customUserFields` stores it. */
export interface CustomUserField {
  key: string;
  name: string;
  /** 'url' is NodeBB's "link". */
  type: 'text' | 'url' | 'number' | 'select';
  /** The choices of a select. */
  options: string[];
  visibility: 'all' | 'loggedin' | 'privileged';
}

/** admin/manage/users/custom-fields. */
export interface AdminCustomFieldsPage extends PageBase {
  fields: CustomUserField[];
}

/** One tag of admin/manage/tags (NodeBB's TagObject). */
export interface AdminTag {
  value: string;
  valueEscaped: string;
  valueEncoded: string;
  score: number;
}

/** admin/manage/tags. */
export interface AdminTagsPage extends PageBase {
  tags: AdminTag[];
  query: string;
  tagCount: number;
  pagination: Pagination;
}

/** One entry of admin/manage/uploads (NodeBB's files[] fields, plus who uploaded it and where it is used). */
export interface AdminUploadFile {
  id: number;
  name: string;
  path: string;
  url: string;
  size: number;
  sizeHumanReadable: string;
  isDirectory: boolean;
  isFile: boolean;
  fileCount: number;
  mtime: number;
  uploader: { uid: number; username: string; userslug: string } | null;
  pids: number[];
  orphan: boolean;
}

/** admin/manage/uploads. */
export interface AdminUploadsPage extends PageBase {
  currentFolder: string;
  showPids: boolean;
  files: AdminUploadFile[];
  orphansOnly: boolean;
  pagination: Pagination;
}

/** One member of admin/manage/digest (NodeBB's delivery[]). */
export interface AdminDigestDelivery {
  uid: number;
  username: string;
  userslug: string;
  displayname: string;
  picture: string | null;
  'icon:text': string;
  'icon:bgColor': string;
  /** ISO time of the last digest, '' for never. */
  lastDelivery: string;
  /** The member's own frequency, or '' when they follow the forum's default. */
  setting: string;
  isLocal: boolean;
}

/** admin/manage/digest. */
export interface AdminDigestPage extends PageBase {
  delivery: AdminDigestDelivery[];
  /** The forum's default frequency (setting dailyDigestFreq). */
  default: string;
  /** ISO time of the digest job's last run, '' for never. */
  lastRun: string;
  pagination: Pagination;
}

/** admin/manage/users/custom-reasons: the preset ban reasons (setting `banReasons`, one per line), as NodeBB's reasons[]. */
export interface AdminCustomReasonsPage extends PageBase {
  reasons: { key: string; title: string; body: string; parsedBody: string; translatedType: string }[];
}
