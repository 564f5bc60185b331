import type { GroupBadge } from '../../shared/schemas/group.js';
import type { Selectable } from 'kysely';
import type { PostsTable, TopicsTable, UsersTable, CategoriesTable, NotificationsTable } from '../db/schema.js';
import type { ChatMessage } from '../../shared/schemas/chat.js';

export type PostRow = Selectable<PostsTable>;
export type TopicRow = Selectable<TopicsTable>;
export type UserRow = Selectable<UsersTable>;
export type CategoryRow = Selectable<CategoriesTable>;
export type NotificationRow = Selectable<NotificationsTable>;

/** Content to be rendered: a renderer fills `html` from `content`. */
export interface ParseData {
  content: string;
  html: string;
  /** 'post' for posts; 'raw' for descriptions, about-me and previews. */
  kind: 'post' | 'raw';
  uid: number;
}

/** Filter hooks: run in order, may change the data or refuse it by throwing an AppError. */
export interface FilterHooks {
  'filter:parse.post': ParseData;
  'filter:topic.create': { uid: number; cid: number; title: string; content: string; tags: string[] };
  'filter:post.create': { uid: number; tid: number; content: string; toPid: number };
  'filter:post.edit': { uid: number; pid: number; content: string; title?: string; tags?: string[] };
  'filter:user.create': { username: string; email: string | null };
  /** A topic list's thumbnails, filled in one query for all its topics (the uploads domain). */
  'filter:topics.thumbs': { tids: number[]; thumbs: Map<number, TopicThumb[]> };
  /** The group badges members show (NodeBB's selectedGroups), filled by the groups domain in one query. */
  'filter:users.badges': { uids: number[]; badges: Map<number, GroupBadge[]> };
}

/** A topic thumbnail as topic objects list it (NodeBB's `thumbs` items). */
export interface TopicThumb {
  id: number | string;
  name: string;
  path: string;
  url: string;
}

/** Action hooks: fired after commit; their errors are logged, never thrown. */
export interface ActionHooks {
  'action:topic.save': { topic: TopicRow; post: PostRow; uid: number };
  'action:post.save': { post: PostRow; topic: TopicRow; uid: number };
  'action:post.edit': { post: PostRow; topic: TopicRow; uid: number };
  'action:post.delete': { post: PostRow; topic: TopicRow; uid: number };
  'action:post.restore': { post: PostRow; topic: TopicRow; uid: number };
  'action:post.purge': { post: PostRow; topic: TopicRow; uid: number };
  'action:post.vote': { post: PostRow; uid: number; value: -1 | 0 | 1 };
  'action:post.bookmark': { post: PostRow; uid: number; bookmarked: boolean };
  'action:topic.delete': { topic: TopicRow; uid: number };
  'action:topic.restore': { topic: TopicRow; uid: number };
  'action:topic.purge': { topic: TopicRow; uid: number };
  'action:topic.lock': { topic: TopicRow; uid: number; locked: boolean };
  'action:topic.pin': { topic: TopicRow; uid: number; pinned: boolean };
  'action:topic.move': { topic: TopicRow; uid: number; fromCid: number };
  /** A topic's tags were replaced or removed (not through a post edit). */
  'action:topic.tags': { topic: TopicRow; uid: number; tags: string[] };
  /** A topic's thumbnails were added, chosen, reordered or removed (lists and the guest cache show them). */
  'action:topic.thumbs': { tid: number; uid: number };
  /** A topic tool changed these topics (merge, fork, move posts, change owner, editors, a timeline event deleted): open pages reload. */
  'action:topic.tools': { tids: number[]; uid: number; tool: 'merge' | 'fork' | 'move-posts' | 'owner' | 'editors' | 'event-delete' };
  'action:user.create': { user: UserRow };
  'action:user.update': { user: UserRow; fields: string[] };
  'action:user.delete': { uid: number; by: number };
  'action:user.loggedIn': { uid: number; sessionId: string; ip?: string };
  'action:user.loggedOut': { uid: number; sessionId: string };
  'action:user.banned': { uid: number; until: number; reason: string; by: number };
  'action:user.unbanned': { uid: number; by: number };
  /** A member was muted (0022): they read but cannot post or chat until `until` (0: until lifted). */
  'action:user.muted': { uid: number; until: number; reason: string; by: number };
  'action:user.unmuted': { uid: number; by: number };
  /** A password reset was asked for a known address (the mail domain sends the link). */
  'action:user.resetRequested': { user: UserRow; ip: string };
  /** Forum settings were changed (their keys); the search index follows the forum's language. */
  'action:settings.set': { keys: string[] };
  'action:category.create': { category: CategoryRow; uid: number };
  'action:category.update': { category: CategoryRow; uid: number };
  'action:category.delete': { cid: number; uid: number };
  // Events other domains fire for the notifications domain to turn into notifications
  // (notifications/listeners.ts); no domain calls notifications directly.
  /** Members named in a post (@name): each is told, if they may read it. */
  'action:post.mention': { post: PostRow; topic: TopicRow; uid: number; uids: number[] };
  /** Authors quoted in a post. */
  'action:post.quote': { post: PostRow; topic: TopicRow; uid: number; uids: number[] };
  /** A new topic the watchers of its category or tags hear about; `uids` are those watchers. */
  'action:topic.watched': { topic: TopicRow; post: PostRow; uid: number; uids: number[]; via: 'category' | 'tag' };
  /** `uid` started following `followee`. */
  'action:user.follow': { uid: number; followee: number };
  /** `uid` stopped following `followee`. */
  'action:user.unfollow': { uid: number; followee: number };
  /** `uid`'s watch state of these categories changed (null: back to the forum's default). */
  'action:category.watch': { uid: number; cids: number[]; state: string | null };
  /** `uid` followed (or stopped following) a tag. */
  'action:tag.follow': { uid: number; tag: string; following: boolean };
  /**
   * A chat message for the room's other members who want to hear of it (`uids`: their room
   * setting is "all", or "mentions" and they are mentioned; blocked senders left out).
   */
  'action:chat.message': { roomId: number; mid: number; uid: number; roomName: string; uids: number[] };
  /**
   * A message (or system message) was stored in a room; `uids` are the room's members (live
   * delivery), `newlyUnread` those for whom the room has just become unread (their badge changes).
   */
  'action:chat.sent': { roomId: number; public: boolean; message: ChatMessage; uids: number[]; newlyUnread: number[] };
  /** A message was edited, deleted, restored, pinned or unpinned (live delivery to the room). */
  'action:chat.changed': { roomId: number; mid: number; change: 'edit' | 'delete' | 'restore' | 'pin' | 'unpin'; message: ChatMessage };
  /** A member started or stopped typing in a room. */
  'action:chat.typing': { roomId: number; uid: number; username: string; typing: boolean };
  /** A member marked a room read (state 0) or unread (1). */
  'action:chat.read': { roomId: number; uid: number; state: 0 | 1 };
  /** A room was renamed; `uids` are its members. */
  'action:chat.renamed': { roomId: number; newName: string; uids: number[] };
  /** Members left or were removed from a room (their sockets stop following it). */
  'action:chat.left': { roomId: number; uids: number[] };
  /** A new flag; the moderators of `cid` (and admins, global moderators) hear about it. */
  'action:flag.create': { flagId: number; uid: number; cid: number; type: 'post' | 'user'; targetId: number; tid?: number };
  /**
   * A moderator (`uid`) changed a flag: the new assignee hears of it, and on resolve or reject
   * its reporters (`reporters`, read in the same transaction); `at` makes each change its own
   * notification key; `targetPath` is where a reporter sees what they reported.
   */
  'action:flag.update': { flagId: number; uid: number; assignee?: number; state?: string; closed: boolean; reporters: number[]; targetPath: string; at: number };
  /** A post held in the queue; the moderators of `cid` hear about it. */
  'action:post.queued': { id: number; uid: number; cid: number; tid: number; title: string };
  /** A moderator accepted or rejected a queued post, or wrote to its author (`message`): the author hears about it. */
  'action:post.queueNotice': { id: number; uid: number; by: number; kind: 'accepted' | 'rejected' | 'notify'; title: string; message: string; path: string };
  /** A moderator accepted or rejected a queued post of category `cid`; `waiting` posts still wait there. */
  'action:post.queueHandled': { id: number; cid: number; waiting: number };
  /** `uid` was invited to a group by `by`. */
  'action:group.invite': { groupName: string; uid: number; by: number };
  /** `uid` asked to join a group; its owners (`uids`) hear about it. */
  'action:group.request': { groupName: string; uid: number; uids: number[] };
  /** An owner (`by`) accepted `uid`'s request to join a group. */
  'action:group.accept': { groupName: string; slug: string; uid: number; by: number };
  /** A group's cover photo changed (url) or went ('': removed, or the group deleted); `gid` is the group's stable integer id. */
  'action:group.cover': { gid: number; url: string };
  /** Notifications were stored (new or merged into an unread one): deliveries (live, mail, push) listen. */
  'action:notifications.stored': { rows: NotificationRow[] };
  /** A stored notification to push to these readers (those whose preferences include push; the push domain sends it). */
  'action:notifications.push': { uids: number[]; notification: NotificationRow };
  /** A member's unread count changed by reading or deleting (every tab shows it). */
  'action:notifications.count': { uid: number; unread: number };
}
