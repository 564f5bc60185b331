import { CHAT_LIMITS, type ChatMessage, type ChatPublicRoom, type ChatRoom, type ChatRoomFull, type ChatRoomList, type ChatUser } from '../../../shared/schemas/chat.js';
import { forbidden, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import type { UserRow } from '../users/store.js';
import { chatCaches, type Chats, type ChatsDeps } from './core.js';
import { dmRoomWith, listRooms, publicRooms, searchRooms, unreadCount } from './lists.js';
import * as members from './members.js';
import * as messages from './messages.js';
import { NOTIFY_JOB, notifyUnread, type NotifyJob } from './messages.js';
import { loadRoom, presentFor } from './room-view.js';
import * as rooms from './rooms.js';
import { assertCanChat, assertCanMessage, liveAccess } from './rules.js';
import type { RoomUserSearch } from './schemas.js';
import * as store from './store.js';

export type { ChatsDeps } from './core.js';

/**
 * Chats: rooms, members, messages, read state and the rules of who may message whom. A thin
 * facade over the domain's parts: rules.ts (who may do what), rooms.ts (making, renaming,
 * deleting rooms), members.ts (joining, leaving, owners, reads), messages.ts (sending, editing,
 * pages of messages), lists.ts (a member's rooms, the public rooms, unread counts),
 * room-view.ts (a room as its page shows it) and core.ts (the caches).
 */
export class ChatsService {
  private readonly c: Chats;

  constructor(ctx: ChatsDeps) {
    this.c = { ctx, caches: chatCaches(ctx) };
    ctx.jobs.define<NotifyJob>(NOTIFY_JOB, async ({ payload }) => notifyUnread(ctx, payload), { leaseMs: 60_000 });
  }

  /** Chat is on, the viewer is a member and holds the `chat` privilege. */
  async assertCanChat(viewer: Viewer): Promise<void> {
    return assertCanChat(this.c.ctx, viewer);
  }

  /** The viewer may message each of these members (they exist, have not blocked the viewer, accept their chats). */
  async assertCanMessage(viewer: Viewer, uids: number[]): Promise<Map<number, UserRow>> {
    return assertCanMessage(this.c.ctx, viewer, uids);
  }

  /** Which of these rooms the viewer may follow live (modules.chats.enter / enterPublic). */
  async liveAccess(viewer: Viewer, roomIds: number[], publicOnly: boolean): Promise<boolean[]> {
    return liveAccess(this.c.ctx, viewer, roomIds, publicOnly);
  }

  /** A new room (or the viewer's direct message room with the member, reused); see rooms.ts. */
  async create(viewer: Viewer, input: { uids: number[]; roomName?: string; type?: 'public' | 'private'; groups?: string[] }): Promise<ChatRoom> {
    return rooms.createRoom(this.c, viewer, input);
  }

  /** The viewer's direct message room with a member, if there is one they are in (GET /users/:uid/chat). */
  async dmRoomWith(viewer: Viewer, uid: number): Promise<number | null> {
    return dmRoomWith(this.c, viewer, uid);
  }

  /** The viewer's rooms, most recent first, with unread counts and teasers (`read`: a room being opened, listed as read). */
  async list(viewer: Viewer, start: number, perPage: number, opts: { read?: number } = {}): Promise<ChatRoomList> {
    return listRooms(this.c, viewer, start, perPage, opts);
  }

  /** The viewer's rooms (their 100 most recent) whose name or members' names contain the query. */
  async searchRooms(viewer: Viewer, query: string): Promise<ChatRoomList> {
    return searchRooms(this.c, viewer, query);
  }

  /** Public rooms the viewer may enter (the chats page's `publicRooms`). */
  async publicRooms(viewer: Viewer): Promise<ChatPublicRoom[]> {
    return publicRooms(this.c, viewer);
  }

  /** The count of the viewer's private rooms with unread messages. */
  async unreadCount(viewer: Viewer): Promise<number> {
    return unreadCount(this.c, viewer);
  }

  /** Unread room counts of several members (the live badge after a message), one query. */
  async unreadCounts(uids: number[]): Promise<Map<number, number>> {
    return store.unreadRoomCounts(this.c.ctx.db, uids);
  }

  /** Whether the room exists (HEAD /chats/:roomId). */
  async exists(roomId: number): Promise<boolean> {
    return !!(await store.roomById(this.c.ctx.db, roomId));
  }

  /**
   * NodeBB's loadRoom: the room for the viewer with its members and newest messages (or the
   * messages from `index` on, for /chats/:roomid/:index). A public room the viewer may enter is
   * joined on first load.
   */
  async load(viewer: Viewer, roomId: number, opts: { index?: number } = {}): Promise<ChatRoomFull> {
    return (await loadRoom(this.c, viewer, roomId, opts)).room;
  }

  /** The chats page's room: load, then marked read for the viewer when it has a message they have not read. */
  async open(viewer: Viewer, roomId: number, opts: { index?: number } = {}): Promise<ChatRoomFull> {
    return members.openRoom(this.c, viewer, roomId, opts);
  }

  /** Sends a message (NodeBB's POST /chats/:roomId); `toMid` replies to a message of the room. */
  async send(viewer: Viewer, roomId: number, content: string, opts: { toMid?: number; ip?: string } = {}): Promise<ChatMessage> {
    return messages.send(this.c, viewer, roomId, content, opts);
  }

  /** A page of messages: `start` counts back from the newest (0: the newest 50). */
  async messages(viewer: Viewer, roomId: number, start: number): Promise<{ messages: ChatMessage[] }> {
    return messages.messagePage(this.c, viewer, roomId, start);
  }

  /** One message the viewer may see. */
  async getMessage(viewer: Viewer, roomId: number, mid: number): Promise<ChatMessage> {
    const { row } = await messages.visibleMessage(this.c.ctx, viewer, roomId, mid);
    return (await presentFor(this.c, viewer, roomId, [row]))[0]!;
  }

  /** The message's markdown (its sender, or administrators, for a deleted one). */
  async raw(viewer: Viewer, roomId: number, mid: number): Promise<{ content: string }> {
    const { row } = await messages.visibleMessage(this.c.ctx, viewer, roomId, mid);
    if (row.deleted && row.uid !== viewer.uid && !viewer.isAdmin) throw forbidden('error:no-privileges');
    return { content: row.content };
  }

  /** The address a message was sent from (administrators and global moderators). */
  async ip(viewer: Viewer, roomId: number, mid: number): Promise<{ ip: string }> {
    if (!viewer.isAdmin && !viewer.isGlobalMod) throw forbidden('error:no-privileges');
    const row = await messages.messageRow(this.c.ctx, mid);
    if (!row || row.room_id !== roomId) throw notFound('error:invalid-mid');
    return { ip: row.ip };
  }

  /** Edits a message (its sender within chatEditDuration, administrators). */
  async edit(viewer: Viewer, roomId: number, mid: number, content: string): Promise<ChatMessage> {
    return messages.edit(this.c, viewer, roomId, mid, content);
  }

  /** Deletes or restores a message. */
  async setDeleted(viewer: Viewer, roomId: number, mid: number, deleted: boolean): Promise<void> {
    return messages.setDeleted(this.c, viewer, roomId, mid, deleted);
  }

  /** Pins or unpins (room owners and administrators, as NodeBB). */
  async setPinned(viewer: Viewer, roomId: number, mid: number, pinned: boolean): Promise<void> {
    return messages.setPinned(this.c, viewer, roomId, mid, pinned);
  }

  /** The room's pinned messages. */
  async pinned(viewer: Viewer, roomId: number, start: number): Promise<{ messages: ChatMessage[] }> {
    return messages.pinnedMessages(this.c, viewer, roomId, start);
  }

  /** Messages of the room containing the words, newest first. */
  async search(viewer: Viewer, roomId: number, query: string): Promise<{ messages: ChatMessage[] }> {
    return messages.searchMessages(this.c, viewer, roomId, query);
  }

  /** Members of the room whose name starts with the query. */
  async searchUsers(viewer: Viewer, roomId: number, query: string): Promise<RoomUserSearch> {
    return members.searchUsers(this.c.ctx, viewer, roomId, query);
  }

  /** An administrator reads any room (logged as the event `chat-room-read`). */
  async adminRead(viewer: Viewer, roomId: number, ip: string, opts: { index?: number } = {}): Promise<ChatRoomFull> {
    return rooms.adminRead(this.c, viewer, roomId, ip, opts);
  }

  /** An administrator deletes a room and its messages (logged as `chat-room-delete`). */
  async adminDelete(viewer: Viewer, roomId: number, ip: string): Promise<void> {
    return rooms.adminDelete(this.c.ctx, viewer, roomId, ip);
  }

  /** NodeBB's PUT /chats/sort: an administrator orders the public rooms. */
  async sortPublicRooms(viewer: Viewer, roomIds: number[], scores: number[], ip: string): Promise<void> {
    return rooms.sortPublicRooms(this.c.ctx, viewer, roomIds, scores, ip);
  }

  /** Renames a room (owners and administrators); a system message tells the room. */
  async rename(viewer: Viewer, roomId: number, name: string): Promise<ChatRoomFull> {
    return rooms.rename(this.c, viewer, roomId, name);
  }

  /** The room's members (members only). */
  async users(viewer: Viewer, roomId: number): Promise<{ users: ChatUser[] }> {
    return members.roomUsers(this.c, viewer, roomId);
  }

  /** Adds members (owners and administrators); each must accept the viewer's chats. */
  async addUsers(viewer: Viewer, roomId: number, uids: number[]): Promise<{ users: ChatUser[] }> {
    return members.addUsers(this.c, viewer, roomId, uids);
  }

  /** Removes members (owners and administrators), or the viewer leaves when it is only them. */
  async removeUsers(viewer: Viewer, roomId: number, uids: number[]): Promise<{ users: ChatUser[] }> {
    return members.removeUsers(this.c, viewer, roomId, uids);
  }

  /** The viewer leaves the room. */
  async leave(viewer: Viewer, roomId: number): Promise<void> {
    return members.leave(this.c.ctx, viewer, roomId);
  }

  /** Makes a member an owner (on) or not (owners and administrators). */
  async setOwner(viewer: Viewer, roomId: number, uid: number, on: boolean): Promise<void> {
    return members.setOwner(this.c.ctx, viewer, roomId, uid, on);
  }

  /** The viewer's notification setting for the room (NodeBB: 0 none, 1 mentions, 2 all; -1 the default). */
  async watch(viewer: Viewer, roomId: number, value: number): Promise<void> {
    return members.watch(this.c.ctx, viewer, roomId, value);
  }

  /** Marks the room read (state 0) or unread (1) for the viewer. */
  async mark(viewer: Viewer, roomId: number, state: 0 | 1): Promise<ChatRoomFull> {
    return members.mark(this.c, viewer, roomId, state);
  }

  /** Marks read without answering the room (the page opening it). */
  async markRead(viewer: Viewer, roomId: number): Promise<void> {
    return members.markRead(this.c.ctx, viewer, roomId);
  }

  /** The viewer is (or stops) typing: members' open rooms show it. */
  async typing(viewer: Viewer, roomId: number, typing: boolean): Promise<void> {
    return members.typing(this.c.ctx, viewer, roomId, typing);
  }

  /** Rooms list size bound (routes). */
  static readonly perPage = CHAT_LIMITS.roomsPerPage;
}
