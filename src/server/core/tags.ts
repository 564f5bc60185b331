/**
 * Change tags: what a committed write changed, in the words the caches use. A store's write
 * function names the tags of what it wrote (`w.changed(topicTag(tid))`); after the commit every
 * cache entry built from that data is dropped in every process (core/changes.ts). A cache entry
 * lists the tags it was built from (core/cache.ts). docs/caches.md lists which cache hears which.
 */
export type Tag = string;

/** A topic: its row (title, state, counters, teaser), its posts, their votes, its tags and thumbnails. */
export const topicTag = (tid: number): Tag => `topic:${tid}`;
/** A category: its row and counters, and which topics it lists in which order. */
export const categoryTag = (cid: number): Tag => `category:${cid}`;
/** What others see of a member: name, slug, picture, cover, status, signature, badges, ban, deletion. */
export const userTag = (uid: number): Tag => `user:${uid}`;
/** A member's counters shown on their profile (posts, topics, reputation, last post, last online). */
export const userCountsTag = (uid: number): Tag => `user-counts:${uid}`;
/** A member's own state: settings, reads, follows, watches, bookmarks, votes, notifications, blocks, sessions. */
export const memberTag = (uid: number): Tag => `member:${uid}`;
/**
 * A member's row as stored, any column (counters, last online, password, ban): published by
 * every committed write of the `users` table that says whose row it wrote (db/table-writes.ts
 * reads the uid from the statement), whichever domain made it. Caches of the row itself (a
 * session with its member, a profile's row) hear it.
 */
export const memberRowTag = (uid: number): Tag => `member-row:${uid}`;
/** Every member's row: a `users` write that does not say whose. */
export const MEMBER_ROWS: Tag = 'member-rows';
/** Some member's row: published with every `users` write, for what any member's row may change (a page of the members list, a lookup that found no one). */
export const ANY_MEMBER_ROW: Tag = 'member-row:*';
/** A member's signed-in sessions (a `sessions` write that says whose). */
export const sessionsTag = (uid: number): Tag => `sessions:${uid}`;
/** Every session: a `sessions` write that does not say whose. */
export const SESSIONS: Tag = 'sessions';
/** A member's notifications (a `notifications` write that says whose). */
export const notificationsTag = (uid: number): Tag => `notifications:${uid}`;
/** Every member's notifications: a `notifications` write that does not say whose. */
export const NOTIFICATIONS: Tag = 'notifications';
/** Who blocks whom. */
export const BLOCKS: Tag = 'blocks';
/** A chat room: its row, members and messages. */
export const roomTag = (roomId: number): Tag => `room:${roomId}`;
/** A member's own chat state: which rooms they are in, their read marks and notification settings there. */
export const chatMemberTag = (uid: number): Tag => `chat-member:${uid}`;
/** A message in any chat room: every member's room list (its order, unread counts) and unread room count. */
export const CHAT_ACTIVITY: Tag = 'chat-activity';
/** The public chat rooms: which there are, their names and order. */
export const PUBLIC_ROOMS: Tag = 'public-rooms';

/** The category tree: categories made, moved, renamed, reordered or deleted. */
export const CATEGORIES: Tag = 'categories';
/** Who may do what where: any grant or group membership change. */
export const PRIVILEGES: Tag = 'privileges';
/** Groups: their rows and members (who a member is). */
export const GROUPS: Tag = 'groups';
/** The forum's settings. */
export const SETTINGS: Tag = 'settings';
/** Tags (the words): their rows and counts. */
export const TAGS: Tag = 'tags';
/** Widgets placed in the page areas. */
export const WIDGETS: Tag = 'widgets';
/** The IP blacklist rules. */
export const IP_BLACKLIST: Tag = 'ip-blacklist';
/** The rewards the admin set up. */
export const REWARDS: Tag = 'rewards';
/**
 * Any content a reader may see: published with every topic, category, user or tag change (see
 * ChangeBus.publish), for caches that cannot tell which of it they were built from (search
 * results, feeds).
 */
export const CONTENT: Tag = 'content';
/** Every cache: an administrator's "clear all", or a restore. */
export const ALL: Tag = '*';

/** The prefixes whose changes are content changes (CONTENT is added to them). */
const CONTENT_PREFIXES = ['topic:', 'category:', 'user:', CATEGORIES, TAGS];

/** True when a tag is a change of content a reader may see. */
export function isContent(tag: Tag): boolean {
  for (const p of CONTENT_PREFIXES) if (tag.startsWith(p)) return true;
  return false;
}
