import { CHAT_LIMITS, CHAT_NOTIFY, type ChatMessage, type ChatRoomFull, type ChatUser } from '../../../shared/schemas/chat.js';
import { deepFreeze, Variants } from '../../cache/page-cache.js';
import { forbidden, notAuthorised, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { VARIANTS_PER_PART, type Chats, type MemberWithLastMid, type MessagePart, type RoomPart } from './core.js';
import * as messages from './message-store.js';
import type { MessageRow } from './message-store.js';
import { presentChatUser, presentMessage, presentMessages, roomGroups, usernamesOf, type MessageContext } from './presenter.js';
import { joinPublic, mayEnterPublic } from './rules.js';
import * as store from './store.js';
import type { MemberRow } from './store.js';

/** Readers' versions of a shared message (sent by them, or a deleted one shown to its sender or an administrator). */
const messageVariants = new Variants<ChatMessage>();
/** Readers' versions of a room member (whether they may remove them, whether they are online). */
const userVariants = new Variants<ChatUser>();

/**
 * The room's shared part (roomPart) and the viewer's row in it (with the room's newest message
 * id now), read together; 404 for an unknown room, 403 when not a member (a public room the
 * viewer may enter is joined).
 */
export async function loadRoom(c: Chats, viewer: Viewer, roomId: number, opts: { index?: number }): Promise<{ room: ChatRoomFull; member: MemberWithLastMid }> {
  if (viewer.uid <= 0) throw notAuthorised();
  const { db } = c.ctx;
  let [part, member] = await Promise.all([roomPart(c, roomId), c.caches.memberRows.get(`${roomId}:${viewer.uid}`, async () => Object.freeze(await store.memberWithLastMid(db, roomId, viewer.uid)) ?? null)]);
  if (!part) throw notFound('error:no-chat-room');
  if (!member && part.room.public && mayEnterPublic(viewer, part.room)) {
    await joinPublic(c.ctx, viewer, part.room);
    // The join changed the room (its members and count): read afresh.
    [part, member] = await Promise.all([buildRoomPart(c, roomId), store.memberWithLastMid(db, roomId, viewer.uid).then((m) => m ?? null)]);
    if (!part) throw notFound('error:no-chat-room');
  }
  if (!member) throw forbidden('error:no-privileges');
  return { room: await fullRoom(c, viewer, part, member, opts.index), member };
}

/** The room as every reader sees it, kept per room (core.ts roomParts); null when there is no such room. */
export async function roomPart(c: Chats, roomId: number): Promise<RoomPart | null> {
  return c.caches.roomParts.get(roomId, () => buildRoomPart(c, roomId));
}

/** The room's part read now (write paths answer what they have just written). */
export async function buildRoomPart(c: Chats, roomId: number): Promise<RoomPart | null> {
  const [room, members] = await Promise.all([store.roomById(c.ctx.db, roomId), store.members(c.ctx.db, roomId)]);
  if (!room) return null;
  const briefs = await c.ctx.users.briefs(members.map((m) => m.uid));
  return {
    room: Object.freeze(room),
    members,
    briefs,
    views: members.map((m) => deepFreeze(presentChatUser(briefs.get(m.uid), m.uid))),
    owners: members.filter((m) => m.is_owner).map((m) => m.uid),
    pages: new Map(),
    lists: new Map(),
    usernames: new Map(),
  };
}

/** NodeBB's loadRoom answer for the viewer: the room, its members and a page of messages (around `index`, or the newest). */
export async function fullRoom(c: Chats, viewer: Viewer, part: RoomPart, member: MemberRow | undefined, index?: number): Promise<ChatRoomFull> {
  const { room } = part;
  const s = await c.ctx.settings.get();
  const joinedMid = member?.joined_mid ?? 0;
  const per = CHAT_LIMITS.messagesPerPage;
  // A window around the message (some before it, the rest after), or the newest.
  const from = index !== undefined && index >= 0 && index < room.message_count ? Math.max(0, index - Math.floor(per / 2)) : undefined;
  const [page, canChat] = await Promise.all([messagePart(c, part, joinedMid, from), c.ctx.privileges.can(viewer, 'chat')]);
  const users = partUsers(viewer, part);
  const isOwner = part.members.some((m) => m.uid === viewer.uid && m.is_owner === 1);
  const usernames = usernamesFor(part, viewer.uid);
  // Every field written out (presentRoom's first), not spread: a literal's fields make one
  // hidden class, where a spread and fields added after it allocated new ones per request.
  const notify = member?.notify ?? CHAT_NOTIFY.none;
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
    owners: part.owners,
    isOwner,
    users,
    messages: pageMessages(viewer, page),
    canReply: !!member && canChat && !s.disableChat,
    usernames,
    chatWithMessage: room.name ? '' : usernames,
    maximumUsersInChatRoom: s.maximumUsersInChatRoom,
    maximumChatMessageLength: s.maximumChatMessageLength,
    showUserInput: !!member && canChat && !s.disableChat,
    isAdminOrGlobalMod: viewer.isAdmin || viewer.isGlobalMod,
    isAdmin: viewer.isAdmin,
    lastReadMid: member?.last_read_mid ?? 0,
    scrollToIndex: from === undefined ? null : index!,
  };
}

/** "alice, bob" of the members other than the reader (NodeBB's `usernames`), made once per reader and part. */
function usernamesFor(part: RoomPart, uid: number): string {
  let names = part.usernames.get(uid);
  if (names === undefined) {
    names = usernamesOf(part.views, uid);
    if (part.usernames.size >= VARIANTS_PER_PART) part.usernames.clear();
    part.usernames.set(uid, names);
  }
  return names;
}

/** A page of the room's messages (the newest, or from index `from`) the reader may see, kept with the room's part. */
function messagePart(c: Chats, part: RoomPart, joinedMid: number, from: number | undefined): Promise<MessagePart> {
  const key = `${joinedMid}:${from ?? ''}`;
  let page = part.pages.get(key);
  if (!page) {
    if (part.pages.size >= VARIANTS_PER_PART) part.pages.clear();
    page = buildMessagePart(c, part, joinedMid, from);
    part.pages.set(key, page);
    page.catch(() => {
      if (part.pages.get(key) === page) part.pages.delete(key);
    });
  }
  return page;
}

async function buildMessagePart(c: Chats, part: RoomPart, joinedMid: number, from: number | undefined): Promise<MessagePart> {
  const { db } = c.ctx;
  const roomId = part.room.room_id;
  const per = CHAT_LIMITS.messagesPerPage;
  const rows = from === undefined ? await messages.messagesPage(db, roomId, joinedMid, per) : await messages.messagesFrom(db, roomId, joinedMid, from, per);
  const parentIds = [...new Set(rows.map((r) => r.to_mid).filter((m): m is number => !!m))];
  const parents = await messages.messagesByIds(db, parentIds);
  const users = await c.ctx.users.briefs([...new Set([...rows.map((r) => r.uid), ...parents.map((p) => p.uid)])]);
  const context = { users, owners: new Set(part.owners), parents: new Map(parents.filter((p) => p.room_id === roomId).map((p) => [p.mid, p])) };
  const shared: MessageContext = { ...context, reader: 0, readerIsAdmin: false };
  let prev: MessageRow | null = null;
  const entries = rows.map((row) => {
    const entry = { row, prev, base: deepFreeze(presentMessage(row, shared, prev)), parent: row.to_mid ? context.parents.get(row.to_mid) : undefined };
    prev = row;
    return entry;
  });
  return { entries, context, lists: new Map() };
}

/**
 * The page's messages for the reader: the shared view of each, or the reader's variant of it
 * (theirs; a deleted one shown to its sender or an administrator), made once per kind of
 * reader; the page as one frozen array per set of variants, so that its JSON is made once
 * (http/page-json.ts) and goes out as one piece.
 */
function pageMessages(viewer: Viewer, page: MessagePart): ChatMessage[] {
  const { entries } = page;
  const codes = new Array<number>(entries.length);
  let key = '';
  for (let i = 0; i < entries.length; i++) {
    const { row, parent } = entries[i]!;
    const self = row.uid === viewer.uid;
    const code = (self ? 1 : 0) | (row.deleted && (self || viewer.isAdmin) ? 2 : 0) | (parent?.deleted && (parent.uid === viewer.uid || viewer.isAdmin) ? 4 : 0);
    codes[i] = code;
    if (code) key += `${i}.${code},`;
  }
  let list = page.lists.get(key);
  if (!list) {
    let c: MessageContext | undefined;
    list = Object.freeze(
      entries.map(({ row, prev, base }, i) => {
        const code = codes[i]!;
        if (!code) return base;
        return messageVariants.of(base, [!!(code & 1), !!(code & 2), !!(code & 4)], () => presentMessage(row, (c ??= { ...page.context, reader: viewer.uid, readerIsAdmin: viewer.isAdmin }), prev));
      }),
    ) as ChatMessage[];
    if (page.lists.size >= VARIANTS_PER_PART) page.lists.clear();
    page.lists.set(key, list);
  }
  return list;
}

/**
 * The room's members for the reader: each member's shared view with whether the reader may
 * remove them and whether they are online, frozen, in one frozen array per such set.
 */
export function partUsers(viewer: Viewer, part: RoomPart): ChatUser[] {
  const viewerOwns = viewer.isAdmin || part.members.some((m) => m.uid === viewer.uid && m.is_owner);
  const now = Date.now();
  const { members } = part;
  const flags = new Array<number>(members.length);
  let key = '';
  for (let i = 0; i < members.length; i++) {
    const m = members[i]!;
    const brief = part.briefs.get(m.uid);
    const online = brief?.status !== 'offline' && now - Number(brief?.lastonline ?? 0) < 5 * 60_000;
    const f = (viewerOwns && m.uid !== viewer.uid ? 1 : 0) | (online ? 2 : 0);
    flags[i] = f;
    key += f;
  }
  let list = part.lists.get(key);
  if (!list) {
    list = Object.freeze(
      members.map((m, index) => {
        const kick = !!(flags[index]! & 1);
        const online = !!(flags[index]! & 2);
        const view = part.views[index]!;
        return userVariants.of(view, [kick, online], () => ({ ...view, isOwner: m.is_owner === 1, canKick: kick, canToggleOwner: kick, online, index }));
      }),
    ) as ChatUser[];
    if (part.lists.size >= VARIANTS_PER_PART) part.lists.clear();
    part.lists.set(key, list);
  }
  return list;
}

/** Presents message rows for the viewer (users, owners, replied-to messages in batches). */
export async function presentFor(c: Chats, viewer: Viewer, roomId: number, rows: MessageRow[], prev?: MessageRow | null): Promise<ChatMessage[]> {
  if (!rows.length) return [];
  const { db } = c.ctx;
  const parentIds = [...new Set(rows.map((r) => r.to_mid).filter((m): m is number => !!m))];
  const [parents, members] = await Promise.all([messages.messagesByIds(db, parentIds), store.members(db, roomId)]);
  const users = await c.ctx.users.briefs([...new Set([...rows.map((r) => r.uid), ...parents.map((p) => p.uid)])]);
  const context: MessageContext = {
    reader: viewer.uid,
    readerIsAdmin: viewer.isAdmin,
    users,
    owners: new Set(members.filter((m) => m.is_owner).map((m) => m.uid)),
    parents: new Map(parents.filter((p) => p.room_id === roomId).map((p) => [p.mid, p])),
  };
  return presentMessages(rows, context, prev);
}
