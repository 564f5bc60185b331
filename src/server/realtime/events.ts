/**
 * The typed map of live events (rule 9). Only types from src/shared are used here, so the
 * browser's socket client can `import type` this file and be checked against the server.
 */
import type { ChatMessage } from '../../shared/schemas/chat.js';
import type { NotificationObject } from '../../shared/schemas/notification.js';
import type { CategoryRef, PostView, TagRef, TopicFields, TopicSummary, UserSummary } from '../../shared/types.js';

/** An error as a call's callback receives it: NodeBB's `[[key, params]]` text plus the key. */
export interface CallError {
  message: string;
  key: string;
  params?: (string | number)[];
  /** Indexes of `params` that are times in epoch ms, shown as dates in the reader's locale. */
  dates?: number[];
}

/** NodeBB's error-first callback. */
export type Ack<T = unknown> = (err: CallError | null, result?: T) => void;

/** The topic fields every live post and topic event carries. */
export type LiveTopic = TopicFields;

/** A post as live events carry it: presented once, for every reader alike. */
export interface LivePost extends PostView {
  isMainPost: boolean;
  topic: LiveTopic;
  category: CategoryRef;
}

/** Spec §3: a ban event carries an optional end (ms since the epoch) and the reason. */
export interface BanPayload {
  until?: number;
  reason: string;
}

/** Spec §3: an alert pushed to a member. */
export interface LiveAlert {
  alert_id?: string;
  title: string;
  message: string;
  type: 'success' | 'info' | 'warning' | 'danger';
  timeout?: number;
}

/** NodeBB's vote event body. */
export interface VotePayload {
  post: { pid: number; uid: number; tid: number; votes: number; upvotes: number; downvotes: number };
  user: { reputation: number };
  fromuid: number;
}

/** A topic's state change, as NodeBB's topic tools announce it. */
export interface TopicStatePayload {
  tid: number;
  cid: number;
  uid: number;
  isDelete?: boolean;
  isLocked?: boolean;
  isPinned?: boolean;
}

/** The events topic tools send. */
export type TopicStateEvent =
  | 'event:topic_deleted'
  | 'event:topic_restored'
  | 'event:topic_purged'
  | 'event:topic_locked'
  | 'event:topic_unlocked'
  | 'event:topic_pinned'
  | 'event:topic_unpinned';

/** NodeBB's `event:chats.receive`: a new message (system messages too) in a room. */
export interface ChatReceivePayload {
  roomId: number;
  fromUid: number;
  message: ChatMessage;
  public: boolean;
}

/** NodeBB's `event:chats.typing` (sent to the room, the typist included: skip your own uid). */
export interface ChatTypingPayload {
  roomId: number;
  uid: number;
  username: string;
  typing: boolean;
}

/**
 * `event:unread.updateChatCount`: the member's count of private rooms with unread messages,
 * whenever it changes: a message makes a read room unread (`roomId`, `fromUid` set; further
 * messages in a room already unread leave the count alone and send none), a read/unread mark,
 * leaving a room (`roomId` set). NodeBB sends the message's `{ roomId, fromUid, public }`;
 * Palaver adds the count so the badge needs no fetch.
 */
export interface ChatUnreadCountPayload {
  count: number;
  roomId?: number;
  fromUid?: number;
  public?: boolean;
}

/** Everything the server pushes, by event name. */
export interface ServerToClientEvents {
  checkSession: (uid: number) => void;
  setHostname: (hostname: string) => void;
  'event:invalid_session': () => void;
  'event:banned': (data: BanPayload) => void;
  'event:unbanned': () => void;
  /** Palaver's own: the member was muted (can read, cannot post or chat) until `until`, or unmuted. */
  'event:muted': (data: BanPayload) => void;
  'event:unmuted': () => void;
  'event:logout': () => void;
  'event:alert': (data: LiveAlert) => void;
  'event:deprecated_call': (data: { eventName: string; replacement: string }) => void;
  'event:livereload': () => void;
  'event:new_post': (data: { posts: LivePost[] }) => void;
  'event:new_topic': (data: TopicSummary) => void;
  'event:post_edited': (data: { post: LivePost; topic: LiveTopic }) => void;
  'event:post_deleted': (data: LivePost) => void;
  'event:post_restored': (data: LivePost) => void;
  'event:post_purged': (data: { pid: number; tid: number; uid: number }) => void;
  'event:topic_deleted': (data: TopicStatePayload) => void;
  'event:topic_restored': (data: TopicStatePayload) => void;
  'event:topic_purged': (data: TopicStatePayload) => void;
  'event:topic_locked': (data: TopicStatePayload) => void;
  'event:topic_unlocked': (data: TopicStatePayload) => void;
  'event:topic_pinned': (data: TopicStatePayload) => void;
  'event:topic_unpinned': (data: TopicStatePayload) => void;
  'event:topic_moved': (data: { tid: number; cid: number; fromCid: number }) => void;
  /** A topic tool changed this topic's posts (merge, fork, move posts, owner, editors): its open pages reload. */
  'event:topic_tools': (data: { tid: number; tool: string; uid: number }) => void;
  /** A topic's tags changed (PUT/DELETE /api/v3/topics/:tid/tags): its full new list. */
  'event:topic_tags': (data: { tid: number; cid: number; uid: number; tags: TagRef[] }) => void;
  'posts.upvote': (data: VotePayload) => void;
  'posts.downvote': (data: VotePayload) => void;
  'posts.unvote': (data: VotePayload) => void;
  'event:voted': (data: VotePayload) => void;
  'posts.bookmark': (data: { post: { pid: number; bookmarks: number }; isBookmarked: boolean }) => void;
  'posts.unbookmark': (data: { post: { pid: number; bookmarks: number }; isBookmarked: boolean }) => void;
  'event:user_status_change': (data: { uid: number; status: UserStatus }) => void;
  /** A notification stored for the member (new, or merged into an unread one and moved up). */
  'event:new_notification': (data: NotificationObject) => void;
  /** The member's unread notification count, after any change. */
  'event:notifications.updateCount': (count: number) => void;
  /** A message in a room the socket follows (chat_room_<id>) or, for a member's rooms, to uid_<uid>. */
  'event:chats.receive': (data: ChatReceivePayload) => void;
  /** A new message in a public room, to sockets on the public room (chat_room_public_<id>). */
  'event:chats.public.unread': (data: { roomId: number; fromUid: number; public: true }) => void;
  /** Messages edited (NodeBB sends a list of one). */
  'event:chats.edit': (data: { messages: ChatMessage[] }) => void;
  /** A message deleted: its mid, as NodeBB sends it. */
  'event:chats.delete': (mid: number) => void;
  /** A message restored: the message. */
  'event:chats.restore': (message: ChatMessage) => void;
  /** Palaver: a message pinned or unpinned (NodeBB updates only the acting page). */
  'event:chats.pin': (data: { roomId: number; mid: number; pinned: boolean; message: ChatMessage }) => void;
  'event:chats.typing': (data: ChatTypingPayload) => void;
  /** The member read the room (to each of their sockets). */
  'event:chats.markedAsRead': (data: { roomId: number }) => void;
  /** The member marked the room read (state 0) or unread (1), to each of their sockets. */
  'event:chats.mark': (data: { roomId: number; state: 0 | 1 }) => void;
  /** The room's new name, to its members; `chatWithMessage` is the fallback title text. */
  'event:chats.roomRename': (data: { roomId: number; newName: string; chatWithMessage: string }) => void;
  /** Palaver: the member left or was removed from the room (to their own sockets). */
  'event:chats.left': (data: { roomId: number }) => void;
  'event:unread.updateChatCount': (data: ChatUnreadCountPayload) => void;
}

export type ServerEvent = keyof ServerToClientEvents;

/** What a call answers through its callback, by call name (spec §7). */
export interface CallResults {
  'meta.reconnected': { 'cache-buster': string; hostname: string };
  'meta.rooms.enter': void;
  'meta.rooms.leaveCurrent': void;
  'modules.chats.enter': void;
  'modules.chats.enterPublic': void;
  'modules.chats.leave': void;
  'modules.chats.leavePublic': void;
  'user.setStatus': { uid: number; status: UserStatus };
  /** Members whose name starts with the query, the searcher excluded (mentions autocomplete). */
  'plugins.mentions.userSearch': UserSummary[];
  /** A topic's posters, the latest first (the searcher excluded). */
  'plugins.mentions.getTopicUsers': UserSummary[];
  /** Mentionable group names. */
  'plugins.mentions.listGroups': string[];
  /** Used tags (or the category's whitelist) starting with the query. */
  'topics.autocompleteTags': string[];
}

export type CallName = keyof CallResults;

/** Calls are NodeBB-style: an optional payload, then an error-first callback. */
export type ClientToServerEvents = { [K in CallName]: (...args: unknown[]) => void };

/** A member's chosen status. */
export type UserStatus = 'online' | 'away' | 'dnd' | 'offline';

/** What each socket carries; serialisable, because other processes read it through the adapter. */
export interface SocketData {
  uid: number;
  sessionHash: string;
  /** The page room entered with meta.rooms.enter, if any. */
  currentRoom: string | null;
}
