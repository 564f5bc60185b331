import { CHAT_NOTIFY } from '../../../shared/schemas/chat.js';
import { badRequest, forbidden, notAuthorised, notFound, tooMany } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { userSettings } from '../users/presenter.js';
import type { UserRow } from '../users/store.js';
import type { ChatsDeps } from './core.js';
import type { MessageRow } from './message-store.js';
import { roomGroups } from './presenter.js';
import * as store from './store.js';
import type { MemberRow, RoomRow } from './store.js';

// Rate limit window: chatMessageDelay (ms) becomes a count of messages per 10 s, shared across processes.
const RATE_WINDOW_SEC = 10;

/** A room the viewer may read, with their member row (absent for an administrator's read of a room they are not in). */
export interface Access {
  room: RoomRow;
  member: MemberRow | undefined;
}

/** Chat is on, the viewer is a member and holds the `chat` privilege. */
export async function assertCanChat(ctx: ChatsDeps, viewer: Viewer): Promise<void> {
  if (viewer.uid <= 0) throw notAuthorised();
  const s = await ctx.settings.get();
  if (s.disableChat) throw badRequest('error:chat-disabled');
  if (!(await ctx.privileges.can(viewer, 'chat'))) throw forbidden('error:no-privileges');
}

async function privileged(ctx: ChatsDeps, viewer: Viewer): Promise<boolean> {
  return viewer.isAdmin || viewer.isGlobalMod || (await ctx.privileges.can(viewer, 'chat:privileged'));
}

/**
 * The viewer may message each of these members: they exist, have not blocked the viewer, and
 * accept chats from the viewer (disableIncomingChats: only from members they follow, unless the viewer
 * is an administrator, a global moderator or holds `chat:privileged`).
 */
export async function assertCanMessage(ctx: ChatsDeps, viewer: Viewer, uids: number[]): Promise<Map<number, UserRow>> {
  const rows = await ctx.users.getMany(uids);
  for (const uid of uids) {
    const row = rows.get(uid);
    if (!row || row.deleted) throw notFound('error:no-user');
  }
  const blockers = await ctx.users.blockersAmong(uids, viewer.uid);
  if (blockers.size) throw badRequest('error:chat-user-blocked');
  const restricted = uids.filter((uid) => userSettings(rows.get(uid)!).disableIncomingChats);
  if (restricted.length && !(await privileged(ctx, viewer))) {
    const followers = await ctx.users.followersAmong(restricted, viewer.uid);
    if (restricted.some((uid) => !followers.has(uid))) throw badRequest('error:chat-restricted');
  }
  return rows;
}

/** chatMessageDelay as a count of messages per window, shared across processes; administrators are not limited. */
export async function rateLimit(ctx: ChatsDeps, viewer: Viewer): Promise<void> {
  if (viewer.master || viewer.isAdmin) return;
  const delay = (await ctx.settings.get()).chatMessageDelay;
  if (delay <= 0) return;
  const limit = Math.max(1, Math.floor((RATE_WINDOW_SEC * 1000) / delay));
  const wait = await ctx.limiter.hit(`chat:${viewer.uid}`, limit, RATE_WINDOW_SEC);
  if (wait > 0) throw tooMany('error:too-many-messages', wait);
}

/** Whether the viewer may enter a public room: administrators any, members those open to a group of theirs (or to all). */
export function mayEnterPublic(viewer: Viewer, room: RoomRow): boolean {
  if (!room.public || viewer.uid <= 0) return false;
  if (viewer.isAdmin) return true;
  const groups = roomGroups(room);
  return groups.length === 0 || groups.some((g) => viewer.groups.includes(g));
}

/** The viewer joins a public room they may enter (on first load or message); their member row. */
export async function joinPublic(ctx: ChatsDeps, viewer: Viewer, room: RoomRow): Promise<MemberRow> {
  await ctx.actions.run('chat.joinPublic', async (w) => {
    await store.addMembers(w, room.room_id, [viewer.uid], { owner: false, joinedMid: 0, notify: CHAT_NOTIFY.mentions, now: Date.now() });
    await store.recountUsers(w, room.room_id);
  });
  return (await store.member(ctx.db, room.room_id, viewer.uid))!;
}

/** The room and the viewer's place in it; 404 for an unknown room, 403 when not a member (`joinPublic`: a public room they may enter is joined). */
export async function access(ctx: ChatsDeps, viewer: Viewer, roomId: number, opts: { joinPublic?: boolean } = {}): Promise<Access> {
  if (viewer.uid <= 0) throw notAuthorised();
  const room = await store.roomById(ctx.db, roomId);
  if (!room) throw notFound('error:no-chat-room');
  let member = await store.member(ctx.db, roomId, viewer.uid);
  if (!member && room.public && mayEnterPublic(viewer, room)) {
    if (!opts.joinPublic) return { room, member: undefined };
    member = await joinPublic(ctx, viewer, room);
  }
  if (!member) throw forbidden('error:no-privileges');
  return { room, member };
}

/** Which of these rooms the viewer may follow live (modules.chats.enter / enterPublic). */
export async function liveAccess(ctx: ChatsDeps, viewer: Viewer, roomIds: number[], publicOnly: boolean): Promise<boolean[]> {
  if (viewer.uid <= 0) return roomIds.map(() => false);
  const [rooms, members] = await Promise.all([store.roomsByIds(ctx.db, roomIds), store.membershipsOf(ctx.db, viewer.uid, roomIds)]);
  const byId = new Map(rooms.map((r) => [r.room_id, r]));
  const mine = new Set(members.map((m) => m.room_id));
  return roomIds.map((id) => {
    const room = byId.get(id);
    if (!room) return false;
    if (publicOnly) return room.public === 1 && mayEnterPublic(viewer, room);
    return mine.has(id) || (room.public === 1 && mayEnterPublic(viewer, room));
  });
}

/** A message's text, trimmed: not empty, not over maximumChatMessageLength. */
export async function checkContent(ctx: ChatsDeps, content: string): Promise<string> {
  const text = typeof content === 'string' ? content.trim() : '';
  if (!text) throw badRequest('error:invalid-chat-message');
  const max = (await ctx.settings.get()).maximumChatMessageLength;
  if (text.length > max) throw badRequest('error:chat-message-too-long', max);
  return text;
}

/** A message's HTML, through the forum's parser (filter:parse.post). */
export async function render(ctx: ChatsDeps, text: string, uid: number): Promise<string> {
  return (await ctx.hooks.runFilter('filter:parse.post', { content: text, html: '', kind: 'post', uid })).html;
}

/** Only the sender edits or deletes, within chatEditDuration / chatDeleteDuration; administrators always. */
export async function assertMayChange(ctx: ChatsDeps, viewer: Viewer, row: MessageRow, kind: 'edit' | 'delete'): Promise<void> {
  if (row.system) throw badRequest('error:cant-edit-chat-message');
  if (viewer.isAdmin) return;
  if (row.uid !== viewer.uid) throw forbidden(kind === 'edit' ? 'error:cant-edit-chat-message' : 'error:cant-delete-chat-message');
  const s = await ctx.settings.get();
  const seconds = kind === 'edit' ? s.chatEditDuration : s.chatDeleteDuration;
  if (seconds > 0 && Date.now() - Number(row.created) > seconds * 1000) {
    throw badRequest(kind === 'edit' ? 'error:chat-edit-duration-expired' : 'error:chat-delete-duration-expired', seconds);
  }
}
