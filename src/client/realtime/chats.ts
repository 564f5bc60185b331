/**
 * Live chat for the socket client: NodeBB's chat events go to the runtime's bus (the chats
 * page applies them) and to the chats store (sidebar badge, room list, title count); the
 * chats page enters its room with `modules.chats.enter` and leaves it on close, and the room
 * is entered again after a reconnection (spec §4, §7).
 */
import type { Socket } from 'socket.io-client';
import type { Runtime } from '../app/runtime';
import { applyRoomMark, dropRoom, receiveChatCount, refreshChatCount, receiveChatMessage, renameInList, setRoomOpen } from '../components/chats/store';
import type { ChatMessage } from '../pages/chats/types';

/** Chat events forwarded to the bus for the chats page. */
export const CHAT_EVENTS = [
  'event:chats.receive', 'event:chats.edit', 'event:chats.delete', 'event:chats.restore', 'event:chats.pin', 'event:chats.typing',
  'event:chats.markedAsRead', 'event:chats.mark', 'event:chats.roomRename', 'event:chats.left', 'event:chats.public.unread',
] as const;

/** Bus event after the socket came back (the open room reloads its newest messages). */
export const CHATS_RECONNECTED = 'chats:reconnected';

/** What the chats page asks of the live connection. */
export interface ChatLink {
  /**
   * Joins a room's live events (again after each reconnection). Each view of a room (the chats
   * page, a floating window) enters and leaves it; the socket leaves once the last view does.
   */
  enter(roomId: number): void;
  leave(roomId: number): void;
  /** Follows public rooms' new messages (the chats page's unread marks), once each. */
  enterPublic(roomIds: number[]): void;
  leavePublic(roomIds: number[]): void;
}

const NOOP: ChatLink = { enter: () => undefined, leave: () => undefined, enterPublic: () => undefined, leavePublic: () => undefined };
const links = new WeakMap<object, ChatLink>();

/** The chat link of a runtime (does nothing without a socket: visitors, server render). */
export function chatLink(rt: object): ChatLink {
  return links.get(rt) ?? NOOP;
}

/** The message a receive event carries: NodeBB sends `{ roomId, fromUid, message }`. */
export function receivedMessage(data: unknown): ChatMessage | null {
  const d = data as { message?: unknown; roomId?: unknown } | null;
  const m = (d && typeof d === 'object' && d.message && typeof d.message === 'object' ? d.message : d) as Partial<ChatMessage> | null;
  if (!m || typeof m !== 'object' || typeof m.mid !== 'number') return null;
  return { ...m, roomId: m.roomId ?? Number(d?.roomId) } as ChatMessage;
}

/** Wires chat events on the member's socket. */
export function startChatLive(rt: Runtime, socket: Socket): void {
  const uid = rt.page.get().page.loggedInUser?.uid ?? 0;
  // Room → how many views have it open.
  const entered = new Map<number, number>();
  const publicRooms = new Set<number>();
  const emit = (event: string, ...args: unknown[]) =>
    new Promise<void>((resolve, reject) => {
      socket.emit(event, ...args, (err: { message?: string } | null) => (err ? reject(new Error(err.message ?? String(err))) : resolve()));
    });
  links.set(rt, {
    enter(roomId) {
      const views = entered.get(roomId) ?? 0;
      entered.set(roomId, views + 1);
      setRoomOpen(rt, roomId, true);
      if (socket.connected && !views) emit('modules.chats.enter', roomId).catch((err: Error) => console.warn('[chats] enter', err.message));
    },
    leave(roomId) {
      const views = entered.get(roomId) ?? 0;
      if (!views) return;
      setRoomOpen(rt, roomId, false);
      if (views > 1) {
        entered.set(roomId, views - 1);
        return;
      }
      entered.delete(roomId);
      if (socket.connected) emit('modules.chats.leave', roomId).catch(() => undefined);
    },
    enterPublic(roomIds) {
      roomIds.forEach((id) => publicRooms.add(id));
      if (socket.connected && roomIds.length) emit('modules.chats.enterPublic', roomIds).catch((err: Error) => console.warn('[chats] enterPublic', err.message));
    },
    leavePublic(roomIds) {
      roomIds.forEach((id) => publicRooms.delete(id));
      if (socket.connected && roomIds.length) emit('modules.chats.leavePublic', roomIds).catch(() => undefined);
    },
  });
  for (const event of CHAT_EVENTS) socket.on(event, (data: unknown) => rt.live.emit(event, data));
  socket.on('event:chats.receive', (data: unknown) => {
    const message = receivedMessage(data);
    if (message) receiveChatMessage(rt, message, uid);
  });
  // The server pushes the member's unread room count after every message and read mark.
  socket.on('event:unread.updateChatCount', (data: unknown) => receiveChatCount(rt, data));
  // Read or marked unread in another tab or device.
  socket.on('event:chats.markedAsRead', (data: { roomId?: unknown } | null) => applyRoomMark(rt, Number(data?.roomId), false));
  socket.on('event:chats.mark', (data: { roomId?: unknown; state?: unknown } | null) => applyRoomMark(rt, Number(data?.roomId), data?.state === 1));
  socket.on('event:chats.roomRename', (data: { roomId?: unknown; newName?: unknown } | null) => renameInList(rt, Number(data?.roomId), String(data?.newName ?? '')));
  socket.on('event:chats.left', (data: { roomId?: unknown } | null) => dropRoom(rt, Number(data?.roomId)));
  socket.on('event:chats.public.unread', () => void refreshChatCount(rt));
  let connectedBefore = false;
  socket.on('connect', () => {
    void refreshChatCount(rt);
    // After a reconnection the open room fetches what it missed meanwhile.
    if (connectedBefore) rt.live.emit(CHATS_RECONNECTED, null);
    connectedBefore = true;
    // Rooms were lost with the old connection.
    for (const roomId of entered.keys()) emit('modules.chats.enter', roomId).catch(() => undefined);
    if (publicRooms.size) emit('modules.chats.enterPublic', [...publicRooms]).catch(() => undefined);
  });
}
