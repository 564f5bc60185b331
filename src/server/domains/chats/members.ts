import { CHAT_NOTIFY, type ChatRoomFull, type ChatUser } from '../../../shared/schemas/chat.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { presentUserSlim } from '../users/presenter.js';
import type { Chats, ChatsDeps } from './core.js';
import * as messages from './message-store.js';
import { buildRoomPart, fullRoom, loadRoom, partUsers } from './room-view.js';
import { systemMessage } from './rooms.js';
import { access, assertCanChat, assertCanMessage } from './rules.js';
import type { RoomUserSearch } from './schemas.js';
import * as store from './store.js';
import type { RoomRow } from './store.js';

/** The room's members (members only). */
export async function roomUsers(c: Chats, viewer: Viewer, roomId: number): Promise<{ users: ChatUser[] }> {
  await access(c.ctx, viewer, roomId);
  return { users: partUsers(viewer, (await buildRoomPart(c, roomId))!) };
}

/** Adds members (owners and administrators); each must accept the viewer's chats. */
export async function addUsers(c: Chats, viewer: Viewer, roomId: number, uids: number[]): Promise<{ users: ChatUser[] }> {
  const { ctx } = c;
  await assertCanChat(ctx, viewer);
  const { room, member } = await access(ctx, viewer, roomId);
  if (room.public) throw forbidden('error:no-privileges');
  if (!member?.is_owner && !viewer.isAdmin) throw forbidden('error:no-privileges');
  const s = await ctx.settings.get();
  const fresh = [...new Set(uids)].filter((u) => u !== viewer.uid);
  if (!fresh.length) throw badRequest('error:no-users-selected');
  if (s.maximumUsersInChatRoom > 0 && room.user_count + fresh.length > s.maximumUsersInChatRoom) throw badRequest('error:cant-add-more-users-to-chat-room');
  await assertCanMessage(ctx, viewer, fresh);
  await ctx.actions.run('chat.addUsers', async (w) => {
    const added = await store.addMembers(w, roomId, fresh, { owner: false, joinedMid: await messages.maxMid(w.tx, roomId), notify: CHAT_NOTIFY.all, now: Date.now() });
    await store.recountUsers(w, roomId);
    // Once a third member is in, it is no longer the two members' direct message room.
    await store.updateRoom(w, roomId, { dm_key: null });
    for (const uid of added) await systemMessage(ctx, w, uid, room, 'user-join');
  });
  return roomUsers(c, viewer, roomId);
}

/** Removes members (owners and administrators), or the viewer leaves when it is only them. */
export async function removeUsers(c: Chats, viewer: Viewer, roomId: number, uids: number[]): Promise<{ users: ChatUser[] }> {
  const { ctx } = c;
  const { room, member } = await access(ctx, viewer, roomId);
  const targets = [...new Set(uids)];
  if (targets.length === 1 && targets[0] === viewer.uid) {
    await leave(ctx, viewer, roomId);
    return { users: [] };
  }
  if (!member?.is_owner && !viewer.isAdmin) throw forbidden('error:no-privileges');
  if (targets.includes(viewer.uid)) throw badRequest('error:cant-remove-self');
  const present = (await store.membersAmong(ctx.db, roomId, targets)).map((m) => m.uid);
  if (present.length !== targets.length) throw notFound('error:no-user');
  await removeMembers(ctx, room, present);
  return roomUsers(c, viewer, roomId);
}

/** The viewer leaves the room. */
export async function leave(ctx: ChatsDeps, viewer: Viewer, roomId: number): Promise<void> {
  const { room, member } = await access(ctx, viewer, roomId);
  if (!member) throw forbidden('error:no-privileges');
  await removeMembers(ctx, room, [viewer.uid]);
}

async function removeMembers(ctx: ChatsDeps, room: RoomRow, uids: number[]): Promise<void> {
  await ctx.actions.run('chat.removeMembers', async (w) => {
    for (const uid of uids) await systemMessage(ctx, w, uid, room, 'user-leave');
    await store.removeMembers(w, room.room_id, uids);
    const left = await store.recountUsers(w, room.room_id);
    // A room nobody owns any more gets its longest-standing member as owner.
    const rest = await store.members(w.tx, room.room_id, 1);
    if (left > 0 && rest[0] && !rest[0].is_owner) await store.updateMember(w, room.room_id, rest[0].uid, { is_owner: 1 });
    await w.fire('action:chat.left', { roomId: room.room_id, uids });
  });
}

/** Makes a member an owner (on) or not (owners and administrators). */
export async function setOwner(ctx: ChatsDeps, viewer: Viewer, roomId: number, uid: number, on: boolean): Promise<void> {
  const { member } = await access(ctx, viewer, roomId);
  if (!member?.is_owner && !viewer.isAdmin) throw forbidden('error:no-privileges');
  const target = await store.member(ctx.db, roomId, uid);
  if (!target) throw notFound('error:no-user');
  await ctx.actions.run('chat.setOwner', (w) => store.updateMember(w, roomId, uid, { is_owner: on ? 1 : 0 }));
}

/** The viewer's notification setting for the room (NodeBB: 0 none, 1 mentions, 2 all; -1 the default). */
export async function watch(ctx: ChatsDeps, viewer: Viewer, roomId: number, value: number): Promise<void> {
  const { room, member } = await access(ctx, viewer, roomId);
  if (!member) throw forbidden('error:no-privileges');
  const notify = value === -1 ? (room.public ? CHAT_NOTIFY.mentions : CHAT_NOTIFY.all) : value;
  if (![0, 1, 2].includes(notify)) throw badRequest('error:invalid-data');
  await ctx.actions.run('chat.watch', (w) => store.updateMember(w, roomId, viewer.uid, { notify }));
}

/** Marks the room read up to its newest message for the viewer, and tells their sockets. */
async function writeRead(ctx: ChatsDeps, viewer: Viewer, roomId: number): Promise<void> {
  await ctx.actions.run('chat.read', async (w) => {
    await store.markRead(w, roomId, viewer.uid);
    await w.fire('action:chat.read', { roomId, uid: viewer.uid, state: 0 });
  });
}

/** Marks the room read (state 0) or unread (1) for the viewer. */
export async function mark(c: Chats, viewer: Viewer, roomId: number, state: 0 | 1): Promise<ChatRoomFull> {
  const { ctx } = c;
  const { room, member } = await access(ctx, viewer, roomId);
  if (!member) throw forbidden('error:no-privileges');
  if (state === 0) {
    await writeRead(ctx, viewer, roomId);
  } else {
    const before = room.last_mid > 0 ? await messages.previousMid(ctx.db, roomId, room.last_mid) : null;
    await ctx.actions.run('chat.unread', async (w) => {
      if (before !== null) await store.markUnread(w, roomId, viewer.uid, before);
      await w.fire('action:chat.read', { roomId, uid: viewer.uid, state });
    });
  }
  const [part, after] = await Promise.all([buildRoomPart(c, roomId), store.member(ctx.db, roomId, viewer.uid)]);
  return fullRoom(c, viewer, part!, after!);
}

/** Marks read without answering the room (the page opening it); nothing when there is nothing unread. */
export async function markRead(ctx: ChatsDeps, viewer: Viewer, roomId: number): Promise<void> {
  const member = await store.member(ctx.db, roomId, viewer.uid);
  if (!member) return;
  const room = await store.roomById(ctx.db, roomId);
  if (!room || member.last_read_mid >= room.last_mid) return;
  await writeRead(ctx, viewer, roomId);
}

/**
 * The chats page's room: loaded, then marked read for the viewer when it has a message they
 * have not read (no write otherwise), as markRead.
 */
export async function openRoom(c: Chats, viewer: Viewer, roomId: number, opts: { index?: number } = {}): Promise<ChatRoomFull> {
  const { room, member } = await loadRoom(c, viewer, roomId, opts);
  if (member.last_read_mid < member.room_last_mid) await writeRead(c.ctx, viewer, roomId);
  return room;
}

/** The viewer is (or stops) typing: members' open rooms show it (nothing is written). */
export async function typing(ctx: ChatsDeps, viewer: Viewer, roomId: number, on: boolean): Promise<void> {
  const { member } = await access(ctx, viewer, roomId);
  if (!member) throw forbidden('error:no-privileges');
  const user = await ctx.users.ofViewer(viewer);
  void ctx.hooks.fire('action:chat.typing', { roomId, uid: viewer.uid, username: user?.username ?? '', typing: on });
}

/**
 * Members of the room whose name starts with the query, as NodeBB's UserObjectSlim with
 * `isOwner` and `canKick` (the viewer owns the room or is an administrator, and it is not
 * them). One query for the members, one for their user rows.
 */
export async function searchUsers(ctx: ChatsDeps, viewer: Viewer, roomId: number, query: string): Promise<RoomUserSearch> {
  await access(ctx, viewer, roomId);
  const members = await store.members(ctx.db, roomId);
  const rows = await ctx.users.getMany(members.map((m) => m.uid));
  const viewerOwns = viewer.isAdmin || members.some((m) => m.uid === viewer.uid && m.is_owner);
  const q = query.trim().toLowerCase();
  const users: RoomUserSearch['users'] = [];
  for (const m of members) {
    const row = rows.get(m.uid);
    if (!row || (q && !row.username.toLowerCase().startsWith(q) && !row.userslug.startsWith(q))) continue;
    users.push({ ...presentUserSlim(row), isOwner: m.is_owner === 1, canKick: viewerOwns && m.uid !== viewer.uid });
  }
  return { users };
}
