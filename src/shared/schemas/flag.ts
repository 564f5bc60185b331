import type { CategoryObject, PageBase, Pagination, UserSummary } from '../types.js';

/** The four flag states, in their order of work (NodeBB's names). */
export const FLAG_STATES = ['open', 'wip', 'resolved', 'rejected'] as const;
export type FlagState = (typeof FLAG_STATES)[number];

/** What can be flagged: a post, a member, a chat message (NodeBB's 'message'). */
export const FLAG_TYPES = ['post', 'user', 'message'] as const;
export type FlagType = (typeof FLAG_TYPES)[number];

/** The sorts of the flags list. */
export const FLAG_SORTS = ['newest', 'oldest', 'reports'] as const;
export type FlagSortName = (typeof FLAG_SORTS)[number];

/** A member as a flag shows them (reporter, note author, history actor, assignee); `reputation` only on reporters, as NodeBB documents. */
export type FlagUser = Pick<UserSummary, 'uid' | 'username' | 'userslug' | 'displayname' | 'picture' | 'icon:text' | 'icon:bgColor'> & { isLocal: boolean; reputation?: number };

/** One member's report: their reason (`value`) and when. */
export interface FlagReport {
  value: string;
  timestamp: number;
  timestampISO: string;
  reporter: FlagUser;
}

/** A moderator's shared note; `datetime` names it (DELETE /flags/{flagId}/notes/{datetime}). */
export interface FlagNote {
  uid: number;
  content: string;
  datetime: number;
  datetimeISO: string;
  user: FlagUser;
}

/** One change of the flag: the fields changed and NodeBB's display labels for them. */
export interface FlagHistoryEntry {
  uid: number;
  fields: Record<string, unknown>;
  meta: { key: string; value?: string; labelClass?: string }[];
  datetime: number;
  datetimeISO: string;
  user: FlagUser;
}

/** The flagged thing as the detail page shows it (the fields of its type; empty when it is gone). */
export type FlagTarget = {
  /** post */
  pid?: number;
  tid?: number;
  cid?: number;
  /** post and message: rendered (sanitised) HTML. */
  content?: string;
  timestamp?: number;
  timestampISO?: string;
  deleted?: number;
  topic?: { tid: number; title: string; slug: string };
  category?: Pick<CategoryObject, 'cid' | 'name' | 'slug'>;
  /** post and message: the author; user: the member. */
  user?: FlagUser;
  /** message */
  mid?: number;
  roomId?: number;
  /** user */
  uid?: number;
  username?: string;
  userslug?: string;
  postcount?: number;
  banned?: boolean;
};

/** A flag as GET /api/v3/flags/{flagId} answers it (NodeBB's FlagObject). */
export interface FlagObject {
  state: FlagState;
  flagId: number;
  type: FlagType;
  targetId: number;
  targetUid: number;
  datetime: number;
  datetimeISO: string;
  target_readable: string;
  target: FlagTarget;
  assignee: number | null;
  reports: FlagReport[];
  history: FlagHistoryEntry[];
  notes: FlagNote[];
}

/** One row of the flags list (NodeBB's read/flags.yaml item, with what the list shows besides). */
export interface FlagListItem {
  state: FlagState;
  heat: number;
  flagId: number;
  type: FlagType;
  targetId: number;
  targetUid: number;
  datetime: number;
  datetimeISO: string;
  labelClass: string;
  target_readable: string;
  /** The assignee's uid as text, or null (NodeBB's list type). */
  assignee: string | null;
  assigneeUser: FlagUser | null;
  /** The flagged member (the target, or the author of the post or message). */
  targetUser: FlagUser;
  /** A short text of the target: the topic title of a post, a member's name, a message's first words. */
  targetTitle: string;
  cid: number;
}

/** A filter the list may be narrowed by, as the page's URL carries it. */
export interface FlagFilters {
  page: number;
  perPage: number;
  state?: string;
  type?: string;
  assignee?: number;
  cid?: number;
  reporterId?: number;
  targetUid?: number;
  quick?: string;
}

/** Page data of /flags (NodeBB's read/flags.yaml). */
export interface FlagsListPage extends PageBase {
  flags: FlagListItem[];
  count: number;
  analytics: number[];
  hasFilter: boolean;
  filters: FlagFilters;
  expanded: boolean;
  sort: string;
  selectedCategory: Pick<CategoryObject, 'icon' | 'name' | 'bgColor'> | null;
  selected: { assignee: FlagUser[]; reporterId: FlagUser[]; targetUid: FlagUser[] };
  /** The categories the viewer may filter by (those they moderate). */
  categories: { cid: number; name: string }[];
  pagination: Pagination;
}

/** Page data of /flags/:flagId (NodeBB's read/flags/flagId.yaml). */
export interface FlagDetailsPage extends PageBase, FlagObject {
  type_path: string;
  /** The members the flag may be assigned to (its moderators). */
  assignees: FlagUser[];
  /** NodeBB's: post, user, empty (a chat message's flag has `type` 'message'). */
  type_bool: { post: boolean; user: boolean; empty: boolean };
  /** The viewer's: isAdmin, isAdminOrGlobalMod, and 'flags:delete' (administrators and global moderators). */
  privileges: Record<string, boolean>;
  states: Record<FlagState, { label: string; class: string }>;
  /**
   * What the viewer may do from the flag (NodeBB's flag page actions), each through the forum's
   * own action and privilege: delete the flagged post, ban or mute its author (or the flagged
   * member); the forum's preset ban reasons for the dialog; whether the author is banned or muted now.
   */
  actions: { deletePost: boolean; ban: boolean; mute: boolean; banned: boolean; muted: boolean; banReasons: string[] };
}
