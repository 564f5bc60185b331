import { Type, type Static } from 'typebox';
import type { PageBase } from '../types.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);

/**
 * A member as chats show them: message senders, room members, teaser authors (NodeBB's chat
 * user fields, components/schemas/Chats.yaml and write/chats.yaml). `isOwner`, `canKick`,
 * `canToggleOwner`, `online` and `index` are only set in a room's member list.
 */
export const ChatUserSchema = Type.Object({
  uid: Type.Number(),
  username: Type.String(),
  displayname: Type.String(),
  userslug: Type.String(),
  picture: Nullable(Type.String()),
  status: Type.String(),
  isLocal: Type.Boolean(),
  banned: Type.Boolean(),
  deleted: Type.Boolean(),
  lastonline: Type.Number(),
  lastonlineISO: Type.String(),
  banned_until: Type.Number(),
  banned_until_readable: Type.String(),
  'icon:text': Type.String(),
  'icon:bgColor': Type.String(),
  isOwner: Type.Optional(Type.Boolean()),
  canKick: Type.Optional(Type.Boolean()),
  canToggleOwner: Type.Optional(Type.Boolean()),
  online: Type.Optional(Type.Boolean()),
  index: Type.Optional(Type.Number()),
});
export type ChatUser = Static<typeof ChatUserSchema>;

/** The message a reply quotes (NodeBB's `parent` of a message with `toMid`). */
export const ChatParentSchema = Type.Object({
  mid: Type.Number(),
  fromuid: Type.Number(),
  content: Type.String(),
  deleted: Type.Number(),
  timestamp: Type.Number(),
  fromUser: ChatUserSchema,
});
export type ChatParent = Static<typeof ChatParentSchema>;

/**
 * NodeBB's MessageObject. `content` is sanitised HTML (rendered like a post); for a system
 * message (`system: 1`) it is a `[[modules:chat.system.<event>, <displayname>]]` text the client
 * translates (events: user-join, user-leave, room-rename). `deleted`, `system`, `pinned` are 0/1;
 * `edited` is the edit time in ms (0: never). `index` is the message's 0-based position in the
 * room. `self` is 1 when the reader of the answer sent it (live events carry 0: compare
 * `fromuid`). `newSet` marks a time gap before the message. `toMid` is the message replied to.
 * The v3 routes answer NodeBB's exact fields (domains/chats/schemas.ts drops the others).
 * A deleted message reaches only its sender and administrators with its content; others get ''.
 */
export const ChatMessageSchema = Type.Object({
  mid: Type.Number(),
  messageId: Type.Number(),
  roomId: Type.Number(),
  fromuid: Type.Number(),
  content: Type.String(),
  timestamp: Type.Number(),
  timestampISO: Type.String(),
  edited: Type.Number(),
  editedISO: Type.String(),
  deleted: Type.Number(),
  system: Type.Number(),
  index: Type.Number(),
  self: Type.Number(),
  newSet: Type.Boolean(),
  isOwner: Type.Boolean(),
  fromUser: ChatUserSchema,
  /** Present (1) only while pinned. */
  pinned: Type.Optional(Type.Number()),
  /** Present only on a reply: the message replied to, and that message. */
  toMid: Type.Optional(Type.Number()),
  parent: Type.Optional(ChatParentSchema),
});
export type ChatMessage = Static<typeof ChatMessageSchema>;

/** NodeBB's room notification setting: 0 none, 1 @mentions only, 2 every message. */
export const CHAT_NOTIFY = { none: 0, mentions: 1, all: 2 } as const;

/**
 * NodeBB's RoomObject. `groups` lists the group names a public room is open to;
 * `notificationSetting` is the reader's (CHAT_NOTIFY); `joinLeaveMessages` 0/1.
 */
export const ChatRoomSchema = Type.Object({
  roomId: Type.Number(),
  roomName: Type.String(),
  groupChat: Type.Boolean(),
  public: Type.Boolean(),
  userCount: Type.Number(),
  messageCount: Type.Number(),
  groups: Type.Array(Type.String()),
  timestamp: Type.Number(),
  notificationSetting: Type.Number(),
  joinLeaveMessages: Type.Number(),
  /** The owners' uids (Palaver: several owners are allowed). */
  owners: Type.Array(Type.Number()),
});
export type ChatRoom = Static<typeof ChatRoomSchema>;

/** A room's last message, as the room list shows it. */
export const ChatTeaserSchema = Type.Object({
  roomId: Type.Number(),
  mid: Type.Number(),
  fromuid: Type.Number(),
  /** Plain text (HTML stripped), at most 200 characters. */
  content: Type.String(),
  timestamp: Type.Number(),
  timestampISO: Type.String(),
  user: ChatUserSchema,
});
export type ChatTeaser = Static<typeof ChatTeaserSchema>;

/**
 * One room of the member's list (GET /api/v3/chats, the chats page's `rooms`): the room, the
 * reader's state, up to 3 other members (`users`), the teaser. `unreadCount` is the number of
 * messages after the reader's last read one; `lastActivity` the time the list is sorted by.
 */
export const ChatRoomListItemSchema = Type.Object({
  ...ChatRoomSchema.properties,
  unread: Type.Boolean(),
  unreadCount: Type.Number(),
  lastActivity: Type.Number(),
  teaser: Type.Union([ChatTeaserSchema, Type.Null()]),
  users: Type.Array(ChatUserSchema),
  lastUser: Type.Union([ChatUserSchema, Type.Null()]),
  usernames: Type.String(),
  chatWithMessage: Type.String(),
});
export type ChatRoomListItem = Static<typeof ChatRoomListItemSchema>;

/** GET /api/v3/chats (and /chats/search). `nextStart` is -1 when there is no more. */
export const ChatRoomListSchema = Type.Object({
  rooms: Type.Array(ChatRoomListItemSchema),
  nextStart: Type.Number(),
});
export type ChatRoomList = Static<typeof ChatRoomListSchema>;

/**
 * NodeBB's RoomObjectFull (Messaging.loadRoom): the room as one reader sees it, with its members
 * and its newest messages (oldest first; older ones through GET .../messages?start=).
 */
export const ChatRoomFullSchema = Type.Object({
  ...ChatRoomSchema.properties,
  isOwner: Type.Boolean(),
  users: Type.Array(ChatUserSchema),
  messages: Type.Array(ChatMessageSchema),
  canReply: Type.Boolean(),
  usernames: Type.String(),
  chatWithMessage: Type.String(),
  maximumUsersInChatRoom: Type.Number(),
  maximumChatMessageLength: Type.Number(),
  showUserInput: Type.Boolean(),
  isAdminOrGlobalMod: Type.Boolean(),
  isAdmin: Type.Boolean(),
  /** The reader's last read message id (0: none). */
  lastReadMid: Type.Number(),
  /** The message index the page opens at (/chats/:roomid/:index), else null. */
  scrollToIndex: Type.Union([Type.Number(), Type.Null()]),
});
export type ChatRoomFull = Static<typeof ChatRoomFullSchema>;

/** A room's member list (NodeBB's RoomUserList). */
export const ChatRoomUsersSchema = Type.Object({ users: Type.Array(ChatUserSchema) });
export type ChatRoomUsers = Static<typeof ChatRoomUsersSchema>;

/** A page of messages (GET .../messages, .../messages/pinned, search). */
export const ChatMessageListSchema = Type.Object({ messages: Type.Array(ChatMessageSchema) });
export type ChatMessageList = Static<typeof ChatMessageListSchema>;

/** A public room in the chats page's `publicRooms` (NodeBB's fields). */
export const ChatPublicRoomSchema = Type.Object({
  ...ChatRoomListItemSchema.properties,
  owner: Type.Number(),
});
export type ChatPublicRoom = Static<typeof ChatPublicRoomSchema>;

/**
 * Page data of template `chats` (/chats, /chats/:roomid[/:index], /user/:userslug/chats[...]):
 * the member's rooms, the public rooms they may enter, and, when a room is open, that room's
 * RoomObjectFull fields at the top level as NodeBB's page has them (absent without a room).
 */
export interface ChatsPage extends PageBase, Partial<ChatRoomFull> {
  rooms: ChatRoomListItem[];
  publicRooms: ChatPublicRoom[];
  privateRoomCount: number;
  nextStart: number;
  uid: number;
  userslug: string;
  canViewInfo: boolean;
  /** The unread room count the sidebar shows. */
  unreadCount: number;
}

/** Bounds of chat input (the message length is the forum setting maximumChatMessageLength). */
export const CHAT_LIMITS = {
  roomName: 75,
  membersPerCall: 50,
  searchQuery: 100,
  messagesPerPage: 50,
  roomsPerPage: 20,
} as const;
