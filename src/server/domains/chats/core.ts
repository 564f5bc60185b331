import type { ChatMessage, ChatRoomListItem, ChatUser } from '../../../shared/schemas/chat.js';
import type { AppContext } from '../../context.js';
import type { Cache } from '../../core/cache.js';
import { CHAT_ACTIVITY, chatMemberTag, PUBLIC_ROOMS, roomTag, userTag } from '../../core/tags.js';
import type { UserBrief } from '../users/store.js';
import type { MessageContext } from './presenter.js';
import type { MemberRow, MessageRow, MyRoom, RoomRow } from './store.js';

/** What the chats domain uses of the application. */
export type ChatsDeps = Pick<AppContext, 'actions' | 'cacheRegistry' | 'db' | 'events' | 'groups' | 'hooks' | 'jobs' | 'limiter' | 'log' | 'moderation' | 'privileges' | 'settings' | 'users'>;

/**
 * How long a process keeps a member's own part (their unread room count, shown on every one of
 * their HTML pages; their rooms with unread counts; their row in a room). Their reads drop it
 * (chatMemberTag), and so does a message in any room (CHAT_ACTIVITY); the TTL bounds what a
 * process that missed the change keeps.
 */
const MEMBER_TTL_MS = 5000;
const MEMBER_MAX = 10_000;

/**
 * How long a process keeps the rooms' shared parts (a room's row, members and newest messages;
 * what a room list shows of a room; the public rooms). A write to the room drops them in every
 * process (roomTag); the TTL bounds what a process that missed it keeps, and how old the names
 * and pictures of members they show may be (as a topic page's authors).
 */
const PART_TTL_MS = 5000;
const PART_MAX = 5000;

/** Readers' variants kept per shared part (list items), message pages per room part, before starting again. */
export const VARIANTS_PER_PART = 64;

/** What a room list shows of a room, alike for every member (lists.ts). */
export interface ListPart {
  room: RoomRow;
  /** The room's first members (owners first, then by join time), one more than a list shows. */
  preview: { uid: number; isOwner: boolean; view: ChatUser }[];
  /** The owners among them (NodeBB's list shows those). */
  owners: number[];
  teaser: ChatRoomListItem['teaser'];
  teaserUser: ChatUser | null;
  /** Readers' frozen items, by what makes one theirs (lists.ts listItem). */
  items: Map<string, ChatRoomListItem>;
}

/** A room as every reader of it sees it (room-view.ts): its row, members, and pages of messages. */
export interface RoomPart {
  room: RoomRow;
  /** Owners first, then by join time (at most 500). */
  members: MemberRow[];
  briefs: Map<number, UserBrief>;
  /** Each member's chat user view, frozen (in `members`' order). */
  views: ChatUser[];
  owners: number[];
  /** Pages of messages, by the reader's first visible message and the page's first index. */
  pages: Map<string, Promise<MessagePart>>;
  /** Readers' member lists, frozen, by what differs between readers (room-view.ts partUsers). */
  lists: Map<string, ChatUser[]>;
  /** "alice, bob" of the members other than a reader, by reader. */
  usernames: Map<number, string>;
}

/** A page of a room's messages, each with its view for a reader who neither sent it nor administers (frozen). */
export interface MessagePart {
  entries: { row: MessageRow; prev: MessageRow | null; base: ChatMessage; parent: MessageRow | undefined }[];
  context: Omit<MessageContext, 'reader' | 'readerIsAdmin'>;
  /** Readers' pages, frozen, by which messages are theirs (room-view.ts pageMessages). */
  lists: Map<string, ChatMessage[]>;
}

/** A member's row in a room with the room's newest message id now. */
export type MemberWithLastMid = Readonly<MemberRow & { room_last_mid: number }>;

/** The chats' caches, on the one primitive (core/cache.ts), each dropped by the tags of what it was built from. */
export interface ChatCaches {
  /** Members' unread room counts, by uid. */
  counts: Cache<number, number>;
  /** Members' rooms with their unread counts, by `uid:start:perPage`. */
  memberRooms: Cache<string, readonly MyRoom[]>;
  /** A member's row in a room, by `roomId:uid` (null: not a member). */
  memberRows: Cache<string, MemberWithLastMid | null>;
  /** Each room with its members and pages of messages, by room id (null: no such room). */
  roomParts: Cache<number, RoomPart | null>;
  /** What room lists show of each room, by room id. */
  listParts: Cache<number, ListPart>;
  /** The public rooms in the administrators' order. */
  publicRows: Cache<string, RoomRow[]>;
  /** A member's list of rooms as one frozen array while its items stand (by uid, slice and the room read), so its JSON is made once. */
  roomArrays: Map<string, ChatRoomListItem[]>;
}

/** What every part of the chats domain works with: its dependencies and its caches. */
export interface Chats {
  ctx: ChatsDeps;
  caches: ChatCaches;
}

/** The chats' caches, registered with the forum's cache registry. */
export function chatCaches(ctx: Pick<ChatsDeps, 'cacheRegistry'>): ChatCaches {
  const reg = ctx.cacheRegistry;
  const uidOf = (key: string) => Number(key.split(':')[0]);
  return {
    counts: reg.create<number, number>({
      name: 'chat-unread-counts',
      keeps: "a member's count of private chat rooms with unread messages (the badge on every page)",
      droppedBy: "the member's reads, joins and leaves (chat-member:<uid>); a message in any room (chat-activity)",
      ttlMs: MEMBER_TTL_MS,
      max: MEMBER_MAX,
      tags: (uid) => [chatMemberTag(uid), CHAT_ACTIVITY],
    }),
    memberRooms: reg.create<string, readonly MyRoom[]>({
      name: 'chat-member-rooms',
      keeps: "a page of a member's chat rooms, most recent first, with their unread messages in each",
      droppedBy: "the member's reads, joins and leaves (chat-member:<uid>); a message in any room (chat-activity)",
      ttlMs: MEMBER_TTL_MS,
      max: MEMBER_MAX,
      tags: (key) => [chatMemberTag(uidOf(key)), CHAT_ACTIVITY],
    }),
    memberRows: reg.create<string, MemberWithLastMid | null>({
      name: 'chat-member-rows',
      keeps: "a member's row in a chat room with the room's newest message (whether opening it marks something read)",
      droppedBy: 'a write to the room (room:<id>); the member\'s reads (chat-member:<uid>)',
      ttlMs: MEMBER_TTL_MS,
      max: MEMBER_MAX,
      tags: (key) => {
        const [roomId, uid] = key.split(':').map(Number);
        return [roomTag(roomId!), chatMemberTag(uid!)];
      },
    }),
    roomParts: reg.create<number, RoomPart | null>({
      name: 'chat-rooms',
      keeps: "a chat room as every reader sees it: its row, members (names, pictures) and pages of messages",
      droppedBy: 'a write to the room: a message, an edit, a join or leave, a rename (room:<id>); its members\' names (user:<uid>)',
      ttlMs: PART_TTL_MS,
      max: PART_MAX,
      tags: (roomId, part) => [roomTag(roomId), ...(part?.members.map((m) => userTag(m.uid)) ?? [])],
    }),
    listParts: reg.create<number, ListPart>({
      name: 'chat-room-list-parts',
      keeps: 'what a room list shows of a chat room: its first members, owners and last message',
      droppedBy: "a write to the room (room:<id>); the shown members' names (user:<uid>)",
      ttlMs: PART_TTL_MS,
      max: PART_MAX,
      tags: (roomId, part) => [roomTag(roomId), ...part.preview.map((p) => userTag(p.uid))],
    }),
    publicRows: reg.create<string, RoomRow[]>({
      name: 'chat-public-rooms',
      keeps: 'the public chat rooms in the administrators\' order',
      droppedBy: 'a public room made, renamed, reordered or deleted (public-rooms)',
      ttlMs: PART_TTL_MS,
      max: 1,
      tags: () => [PUBLIC_ROOMS],
    }),
    roomArrays: new Map(),
  };
}
