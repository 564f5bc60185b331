/** The chat page's calls to NodeBB's write API (`/api/v3/chats/...`). */
import { api } from '../../app/api';
import type { Runtime } from '../../app/runtime';
import { socketCall } from '../../components/composer/socket-call';
import type { ChatMessage, ChatRoomSummary, ChatUser } from './types';

type Cfg = Runtime['config'];

/** Sends a message (optionally a reply to `toMid`); answers the stored message. */
export const sendMessage = (c: Cfg, roomId: number, message: string, toMid?: number) =>
  api<ChatMessage>(c, 'POST', `/chats/${roomId}`, toMid ? { message, toMid } : { message });

/** Older messages: NodeBB counts `start` from the newest message. */
export async function olderMessages(c: Cfg, roomId: number, uid: number, start: number): Promise<ChatMessage[]> {
  const res = await api<{ messages?: ChatMessage[] }>(c, 'GET', `/chats/${roomId}/messages?uid=${uid}&start=${start}`);
  return res?.messages ?? [];
}

/** Edits a message's text; answers the message as rendered. */
export const editMessage = (c: Cfg, roomId: number, mid: number, message: string) => api<ChatMessage>(c, 'PUT', `/chats/${roomId}/messages/${mid}`, { message });
/** Deletes a message (it stays as a placeholder that its author or an admin may restore). */
export const deleteMessage = (c: Cfg, roomId: number, mid: number) => api(c, 'DELETE', `/chats/${roomId}/messages/${mid}`);
/** Restores a deleted message. */
export const restoreMessage = (c: Cfg, roomId: number, mid: number) => api(c, 'POST', `/chats/${roomId}/messages/${mid}`);
/** Pins or unpins a message. */
export const pinMessage = (c: Cfg, roomId: number, mid: number, pin: boolean) => api(c, pin ? 'PUT' : 'DELETE', `/chats/${roomId}/messages/${mid}/pin`);
/** The text of a message as written. */
export async function rawMessage(c: Cfg, roomId: number, mid: number): Promise<string> {
  const res = await api<{ content?: string } | string>(c, 'GET', `/chats/${roomId}/messages/${mid}/raw`);
  return typeof res === 'string' ? res : (res?.content ?? '');
}
/** Pinned messages (50 per call from `start`). */
export async function pinnedMessages(c: Cfg, roomId: number, start = 0): Promise<ChatMessage[]> {
  const res = await api<{ messages?: ChatMessage[] }>(c, 'GET', `/chats/${roomId}/messages/pinned?start=${start}`);
  return res?.messages ?? [];
}
/** Messages of the room matching words. */
export async function searchMessages(c: Cfg, roomId: number, query: string): Promise<ChatMessage[]> {
  const res = await api<{ messages?: ChatMessage[] }>(c, 'GET', `/search/chats/${roomId}/messages?query=${encodeURIComponent(query)}`);
  return res?.messages ?? [];
}
/** Tells the room the member is typing (or stopped). */
export const setTyping = (c: Cfg, roomId: number, typing: boolean) => api(c, 'PUT', `/chats/${roomId}/typing`, { typing });
/** Renames a room (owners). */
export const renameRoom = (c: Cfg, roomId: number, name: string) => api(c, 'PUT', `/chats/${roomId}`, { name });
/** The member's notification setting for the room: 0 none, 1 mentions, 2 all. */
export const setNotification = (c: Cfg, roomId: number, value: number) => api(c, 'PUT', `/chats/${roomId}/watch`, { value });

/** The room's members, with what the reader may do to each. */
export async function roomUsers(c: Cfg, roomId: number): Promise<ChatUser[]> {
  const res = await api<{ users?: ChatUser[] }>(c, 'GET', `/chats/${roomId}/users`);
  return res?.users ?? [];
}
/** Adds members; answers the new list. */
export async function addUsers(c: Cfg, roomId: number, uids: number[]): Promise<ChatUser[]> {
  const res = await api<{ users?: ChatUser[] }>(c, 'POST', `/chats/${roomId}/users`, { uids });
  return res?.users ?? [];
}
/** Removes a member (or leaves, for oneself). */
export const removeUser = (c: Cfg, roomId: number, uid: number) => api<{ users?: ChatUser[] }>(c, 'DELETE', `/chats/${roomId}/users/${uid}`);
/** Makes a member an owner or takes it back. */
export const setOwner = (c: Cfg, roomId: number, uid: number, owner: boolean) => api(c, owner ? 'PUT' : 'DELETE', `/chats/${roomId}/owners/${uid}`);

/** Opens a room with members (a direct message with one member reuses their room). */
export const createRoom = (c: Cfg, uids: number[], roomName?: string) =>
  api<ChatRoomSummary>(c, 'POST', '/chats', roomName ? { uids, roomName } : { uids });

/**
 * Members whose name matches `query`, for "new chat" and "add member": the mentions search
 * over the live connection (it leaves the searcher out), else the users page data (NodeBB's
 * `/api/users?term=`) filtered here.
 */
export async function searchUsers(rt: Runtime, query: string, exclude: number[] = []): Promise<ChatUser[]> {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const keep = (list: ChatUser[]) => list.filter((u) => !exclude.includes(u.uid)).slice(0, 10);
  try {
    return keep(await socketCall<ChatUser[]>(rt, 'plugins.mentions.userSearch', { query: q, composerObj: {} }));
  } catch {
    // No live connection: fall back to the users page.
  }
  const c = rt.config;
  const res = await fetch(`${c.relative_path}/api/users?term=${encodeURIComponent(q)}`, { headers: { Accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' });
  if (!res.ok) return [];
  const data = (await res.json()) as { users?: ChatUser[] };
  return keep((data.users ?? []).filter((u) => `${u.username} ${u.displayname ?? ''} ${u.userslug ?? ''}`.toLowerCase().includes(q)));
}
