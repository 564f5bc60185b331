/** The member's chat state shared by the sidebar, the bottom bar, the title and the chats page. */
import { api } from '../../app/api';
import type { Runtime } from '../../app/runtime';
import { createStore, type Store } from '../../state/store';
import { roomsAfterMessage, sortRooms } from '../../pages/chats/messages';
import type { ChatMessage, ChatRoomSummary } from '../../pages/chats/types';

export interface ChatsState {
  /** Rooms with unread messages (NodeBB's `/chats/unread` count): the badge and the title. */
  unread: number;
  /** The recent rooms (dropdown, page list), or null until loaded. */
  rooms: ChatRoomSummary[] | null;
  /** Rooms open in this tab, on the chats page or in a floating window (their messages are read as they arrive); one entry per view. */
  openRoomIds: number[];
}

const stores = new WeakMap<object, Store<ChatsState>>();

/** The unread room count the page data brought (`unreadChatCount`), so the badge is right before the socket connects. */
function initialUnread(rt: object): number {
  const count = (rt as Partial<Runtime>).page?.get().page.unreadChatCount;
  return typeof count === 'number' && Number.isFinite(count) && count > 0 ? count : 0;
}

/** The chats store of one runtime (one per tab), created on first use. */
export function chatsOf(rt: object): Store<ChatsState> {
  let s = stores.get(rt);
  if (!s) {
    s = createStore<ChatsState>({ unread: initialUnread(rt), rooms: null, openRoomIds: [] });
    stores.set(rt, s);
  }
  return s;
}

/** Reads the member's unread room count from the server into the store. */
export async function refreshChatCount(rt: Runtime): Promise<void> {
  try {
    const res = await api<{ count?: number }>(rt.config, 'GET', '/chats/unread');
    if (typeof res?.count === 'number') chatsOf(rt).set((s) => ({ ...s, unread: res.count! }));
  } catch (err) {
    console.warn('[chats] count', err);
  }
}

/** NodeBB answers `/chats` with `{ rooms, nextStart }`; accept a bare list too. */
export function roomsOf(res: unknown): ChatRoomSummary[] {
  if (Array.isArray(res)) return res as ChatRoomSummary[];
  const rooms = (res as { rooms?: unknown } | null)?.rooms;
  return Array.isArray(rooms) ? (rooms as ChatRoomSummary[]) : [];
}

/** Loads the recent rooms (the dropdown's list). */
export async function loadRecentRooms(rt: Runtime): Promise<void> {
  try {
    const rooms = roomsOf(await api(rt.config, 'GET', '/chats?perPage=20'));
    chatsOf(rt).set((s) => ({ ...s, rooms: sortRooms(rooms) }));
  } catch (err) {
    console.warn('[chats] rooms', err);
    chatsOf(rt).set((s) => ({ ...s, rooms: s.rooms ?? [] }));
  }
}

/** Seeds the list from page data (the chats page carries the rooms already). */
export function setRooms(rt: Runtime, rooms: ChatRoomSummary[]): void {
  // The open room is being read (the page data may predate that).
  chatsOf(rt).set((s) => ({ ...s, rooms: sortRooms(rooms.map((r) => (s.openRoomIds.includes(r.roomId) ? { ...r, unread: false, unreadCount: 0 } : r))) }));
}

/**
 * Applies a live message to the room list (teaser, order, unread dot). The count itself comes
 * from the server's `event:unread.updateChatCount`, which follows every message and read mark.
 */
export function receiveChatMessage(rt: Runtime, message: ChatMessage, uid: number): void {
  const store = chatsOf(rt);
  const before = store.get();
  const roomId = Number(message.roomId);
  const reading = before.openRoomIds.includes(roomId) && isVisible();
  if (!before.rooms) return;
  // A room this tab has not listed yet (new, or just joined): ask the server for the list.
  if (!before.rooms.some((r) => r.roomId === roomId)) {
    void loadRecentRooms(rt);
    return;
  }
  store.set((s) => ({ ...s, rooms: s.rooms && roomsAfterMessage(s.rooms, message, { uid, openRoomId: reading ? roomId : undefined }) }));
}

/** Sets the unread room count the server pushed (`{ count }` or a bare number). */
export function receiveChatCount(rt: Runtime, data: unknown): void {
  const count = typeof data === 'number' ? data : (data as { count?: unknown } | null)?.count;
  if (typeof count === 'number' && Number.isFinite(count) && count >= 0) chatsOf(rt).set((s) => ({ ...s, unread: count }));
}

/** A room marked read or unread elsewhere (another tab, another device). */
export function applyRoomMark(rt: Runtime, roomId: number, unread: boolean): void {
  if (!roomId) return;
  chatsOf(rt).set((s) => ({ ...s, rooms: s.rooms && s.rooms.map((r) => (r.roomId === roomId ? { ...r, unread, unreadCount: unread ? r.unreadCount : 0 } : r)) }));
}

/** A room's new name, in the list. */
export function renameInList(rt: Runtime, roomId: number, roomName: string): void {
  chatsOf(rt).set((s) => ({ ...s, rooms: s.rooms && s.rooms.map((r) => (r.roomId === roomId ? { ...r, roomName } : r)) }));
}

/** The member left the room or was removed: it leaves the list. */
export function dropRoom(rt: Runtime, roomId: number): void {
  chatsOf(rt).set((s) => ({ ...s, rooms: s.rooms && s.rooms.filter((r) => r.roomId !== roomId) }));
}

/** Marks a room read here (the server is told by markRoomRead). */
export function applyRoomRead(rt: Runtime, roomId: number): void {
  chatsOf(rt).set((s) => {
    const room = s.rooms?.find((r) => r.roomId === roomId);
    const wasUnread = room?.unread === true;
    return {
      ...s,
      rooms: s.rooms && s.rooms.map((r) => (r.roomId === roomId ? { ...r, unread: false, unreadCount: 0 } : r)),
      unread: wasUnread ? Math.max(0, s.unread - 1) : s.unread,
    };
  });
}

/** Tells the server the member has read a room (NodeBB: DELETE /chats/{roomId}/state). */
export async function markRoomRead(rt: Runtime, roomId: number): Promise<void> {
  applyRoomRead(rt, roomId);
  try {
    await api(rt.config, 'DELETE', `/chats/${roomId}/state`);
  } catch (err) {
    console.warn('[chats] mark read', err);
    // The server's count event did not come: read the count again.
    void refreshChatCount(rt);
  }
}

/** A view of a room opened (`on`) or closed in this tab. */
export function setRoomOpen(rt: object, roomId: number, on: boolean): void {
  chatsOf(rt).set((s) => {
    if (on) return { ...s, openRoomIds: [...s.openRoomIds, roomId] };
    const i = s.openRoomIds.indexOf(roomId);
    return i < 0 ? s : { ...s, openRoomIds: [...s.openRoomIds.slice(0, i), ...s.openRoomIds.slice(i + 1)] };
  });
}

/** Whether the tab is in front (a hidden tab does not read what arrives). */
export function isVisible(): boolean {
  return typeof document === 'undefined' || document.visibilityState !== 'hidden';
}
