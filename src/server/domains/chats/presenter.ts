import type { ChatMessage, ChatRoom, ChatUser } from '../../../shared/schemas/chat.js';
import { bannedUntilReadable, presentUser } from '../users/presenter.js';
import type { UserBrief } from '../users/store.js';
import type { MessageRow, RoomRow } from './store.js';
import { teaserText as plainTeaser } from '../../../shared/text.js';

// NodeBB starts a new "set" of messages after a gap of five minutes or another sender.
const NEW_SET_GAP_MS = 5 * 60_000;

/** A member as chats show them (NodeBB's chat user fields). */
export function presentChatUser(row: UserBrief | undefined, uid: number): ChatUser {
  const u = presentUser(row, uid);
  const lastonline = row?.lastonline ?? 0;
  return {
    uid: u.uid,
    username: u.username,
    displayname: u.displayname,
    userslug: u.userslug,
    picture: u.picture || null,
    status: u.status,
    isLocal: true,
    banned: u.banned,
    deleted: !row || row.deleted === 1,
    lastonline,
    lastonlineISO: new Date(lastonline).toISOString(),
    banned_until: u.banned ? Number(row?.banned_until ?? 0) : 0,
    banned_until_readable: bannedUntilReadable(u.banned, Number(row?.banned_until ?? 0)),
    'icon:text': u['icon:text'],
    'icon:bgColor': u['icon:bgColor'],
  };
}

/** What presenting messages to one reader needs, loaded in batches by the service. */
export interface MessageContext {
  reader: number;
  /** Administrators see deleted messages' content and may restore them. */
  readerIsAdmin: boolean;
  users: Map<number, UserBrief>;
  owners: Set<number>;
  /** Messages replied to, by mid. */
  parents: Map<number, MessageRow>;
}

const iso = (ms: number) => (ms > 0 ? new Date(ms).toISOString() : '');

function visibleContent(row: MessageRow, c: MessageContext): string {
  if (!row.deleted) return row.content_html;
  return row.uid === c.reader || c.readerIsAdmin ? row.content_html : '';
}

/** Presents messages in room order; `prev` is the message before the first (for `newSet`). */
export function presentMessages(rows: MessageRow[], c: MessageContext, prev?: MessageRow | null): ChatMessage[] {
  let before = prev ?? null;
  return rows.map((row) => {
    const m = presentMessage(row, c, before);
    before = row;
    return m;
  });
}

export function presentMessage(row: MessageRow, c: MessageContext, prev: MessageRow | null): ChatMessage {
  const parentRow = row.to_mid ? c.parents.get(row.to_mid) : undefined;
  return {
    mid: row.mid,
    messageId: row.mid,
    roomId: row.room_id,
    fromuid: row.uid,
    content: visibleContent(row, c),
    timestamp: Number(row.created),
    timestampISO: iso(Number(row.created)),
    edited: Number(row.edited),
    editedISO: iso(Number(row.edited)),
    deleted: row.deleted ? 1 : 0,
    system: row.system ? 1 : 0,
    index: row.idx,
    self: row.uid === c.reader ? 1 : 0,
    newSet: !prev || prev.uid !== row.uid || Number(row.created) - Number(prev.created) > NEW_SET_GAP_MS || prev.system !== row.system,
    isOwner: c.owners.has(row.uid),
    fromUser: presentChatUser(c.users.get(row.uid), row.uid),
    ...(Number(row.pinned) > 0 ? { pinned: 1 } : {}),
    ...(row.to_mid ? { toMid: row.to_mid } : {}),
    ...(parentRow
      ? {
          parent: {
            mid: parentRow.mid,
            fromuid: parentRow.uid,
            content: visibleContent(parentRow, c),
            deleted: parentRow.deleted ? 1 : 0,
            timestamp: Number(parentRow.created),
            fromUser: presentChatUser(c.users.get(parentRow.uid), parentRow.uid),
          },
        }
      : {}),
  };
}

/** The room's groups, as stored (a JSON array of names). */
export function roomGroups(room: RoomRow): string[] {
  try {
    const v: unknown = JSON.parse(room.groups);
    return Array.isArray(v) ? v.filter((g): g is string => typeof g === 'string') : [];
  } catch {
    return [];
  }
}

/** NodeBB's RoomObject for one reader. */
export function presentRoom(room: RoomRow, notify: number, owners: number[]): ChatRoom {
  return {
    roomId: room.room_id,
    roomName: room.name,
    groupChat: room.public === 1 || room.user_count > 2,
    public: room.public === 1,
    userCount: room.user_count,
    messageCount: room.message_count,
    groups: roomGroups(room),
    timestamp: Number(room.created),
    notificationSetting: notify,
    joinLeaveMessages: room.join_leave_messages,
    owners,
  };
}

/** "alice, bob" of the members other than the reader (NodeBB's `usernames`). */
export function usernamesOf(users: ChatUser[], reader: number): string {
  const others = users.filter((u) => u.uid !== reader);
  return (others.length ? others : users).map((u) => u.displayname).join(', ');
}

/** The room list's teaser: plain text of a message, 200 characters at most. */
export function teaserText(html: string): string {
  return plainTeaser(html, 200);
}

/** Parts of the account pages' batched read (users/account-fields.ts). */
export { privateRoomPart } from './store.js';
