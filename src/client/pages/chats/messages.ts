/** Pure rules of the chat view: grouping, day separators, live merges, room list order. */
import type { ChatMessage, ChatRoomSummary } from './types';
import { teaserText as plainTeaser } from '../../../shared/text';

/** Consecutive messages of one sender within this time share one avatar and name. */
export const GROUP_GAP_MS = 5 * 60 * 1000;

/** One row of the message list: a day separator or a message (first of its group or not). */
export type ChatRow =
  | { kind: 'day'; key: string; day: string; timestamp: number }
  | { kind: 'message'; key: string; message: ChatMessage; first: boolean };

const flag = (v: number | boolean | undefined | null): boolean => v === true || v === 1;

/** Whether a message is deleted (NodeBB sends 0/1, some answers booleans). */
export const isDeleted = (m: Pick<ChatMessage, 'deleted'>): boolean => flag(m.deleted);
/** Whether a message is a system message (joined, left, renamed). */
export const isSystem = (m: Pick<ChatMessage, 'system'>): boolean => flag(m.system);
/** Whether a message is pinned. */
export const isPinned = (m: Pick<ChatMessage, 'pinned'>): boolean => flag(m.pinned);
/** Whether a message was edited. */
export const isEdited = (m: Pick<ChatMessage, 'edited'>): boolean => Number(m.edited) > 0;

/** A calendar day key in a time zone ("2026-11-23"), for separators. */
export function dayKey(ts: number, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone }).formatToParts(new Date(ts));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/**
 * The rows of a message list: a separator before the first message of each day, and each
 * message marked `first` when it starts a group (another sender, a gap over five minutes, a
 * new day, a reply, or next to a system message).
 */
export function chatRows(messages: readonly ChatMessage[], timeZone?: string): ChatRow[] {
  const rows: ChatRow[] = [];
  let prev: ChatMessage | null = null;
  let prevDay = '';
  for (const m of messages) {
    const day = dayKey(m.timestamp, timeZone);
    const newDay = day !== prevDay;
    if (newDay) rows.push({ kind: 'day', key: `day-${day}`, day, timestamp: m.timestamp });
    const first =
      !prev || newDay || prev.fromuid !== m.fromuid || m.timestamp - prev.timestamp > GROUP_GAP_MS || isSystem(prev) || isSystem(m) || Boolean(m.parent || m.toMid);
    rows.push({ kind: 'message', key: `m-${m.mid}`, message: m, first });
    prev = m;
    prevDay = day;
  }
  return rows;
}

/** Adds messages to a list once each (by mid), oldest first: live echoes and reloads dedupe. */
export function mergeMessages(list: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const byMid = new Map<number, ChatMessage>();
  for (const m of list) byMid.set(m.mid, m);
  for (const m of incoming) byMid.set(m.mid, { ...byMid.get(m.mid), ...m });
  return [...byMid.values()].sort((a, b) => a.timestamp - b.timestamp || a.mid - b.mid);
}

/** Replaces the fields of one message (edit, delete, restore, pin), leaving the rest. */
export function patchMessage(list: readonly ChatMessage[], mid: number, patch: Partial<ChatMessage>): ChatMessage[] {
  let changed = false;
  const next = list.map((m) => {
    if (m.mid !== mid) return m;
    changed = true;
    return { ...m, ...patch, mid };
  });
  return changed ? next : (list as ChatMessage[]);
}

/** The member's last message that may be edited (the up-arrow shortcut), or null. */
export function lastOwnMessage(list: readonly ChatMessage[], uid: number): ChatMessage | null {
  for (let i = list.length - 1; i >= 0; i -= 1) {
    const m = list[i]!;
    if (m.fromuid === uid && !isSystem(m) && !isDeleted(m)) return m;
  }
  return null;
}

/** When a room last moved (its last message, else its creation). */
export const lastActivity = (r: ChatRoomSummary): number => r.lastActivity ?? r.teaser?.timestamp ?? r.timestamp ?? 0;

/** Rooms sorted by last activity, newest first. */
export function sortRooms(rooms: readonly ChatRoomSummary[]): ChatRoomSummary[] {
  return [...rooms].sort((a, b) => lastActivity(b) - lastActivity(a) || b.roomId - a.roomId);
}

/**
 * The room list after a live message: the room gets the message as its teaser, moves to the
 * top, and is unread unless the reader is looking at it (or sent the message).
 */
export function roomsAfterMessage(rooms: readonly ChatRoomSummary[], message: ChatMessage, opts: { uid: number; openRoomId?: number }): ChatRoomSummary[] {
  const roomId = Number(message.roomId);
  const room = rooms.find((r) => r.roomId === roomId);
  if (!room) return rooms as ChatRoomSummary[];
  const mine = message.fromuid === opts.uid;
  const reading = opts.openRoomId === roomId;
  const unread = !mine && !reading;
  const next: ChatRoomSummary = {
    ...room,
    teaser: { fromuid: message.fromuid, content: teaserText(message.content), timestamp: message.timestamp, user: message.fromUser },
    lastActivity: message.timestamp,
    unread: unread || (room.unread === true && !reading),
    unreadCount: unread ? (room.unreadCount ?? 0) + 1 : reading ? 0 : room.unreadCount,
  };
  return sortRooms(rooms.map((r) => (r.roomId === roomId ? next : r)));
}

/** Plain text of message HTML for a teaser (tags dropped, entities decoded, one line). */
export function teaserText(html: string, max = 120): string {
  return plainTeaser(html, max);
}

/** A room's title: its name, else its other members' names. */
export function roomTitle(room: Pick<ChatRoomSummary, 'roomName' | 'usernames' | 'users'>, uid: number): string {
  if (room.roomName) return room.roomName;
  if (room.usernames) return room.usernames;
  const others = (room.users ?? []).filter((u) => u.uid !== uid);
  return (others.length ? others : (room.users ?? [])).map((u) => u.displayname || u.username).join(', ');
}

/** The text of the typing line: "alice is typing…" style keys for one, two or more members. */
export function typingText(names: readonly string[], t: (key: string, ...args: (string | number)[]) => string): string {
  if (!names.length) return '';
  if (names.length === 1) return t('modules:chat.user-typing-1', names[0]!);
  if (names.length === 2) return t('modules:chat.user-typing-2', names[0]!, names[1]!);
  return t('modules:chat.user-typing-n', names[0]!, names.length - 1);
}

/** System message text key and arguments: NodeBB stores "user-join", "user-leave", "room-rename, <name>". */
export function systemMessage(content: string): { key: string; arg?: string } | null {
  const text = teaserText(content, 1000);
  const m = /^(user-join|user-leave|room-rename)(?:,\s*(.*))?$/.exec(text);
  return m ? { key: `modules:chat.system.${m[1]}`, arg: m[2] } : null;
}
