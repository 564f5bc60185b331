import { CHAT_NOTIFY, type ChatRoom, type ChatRoomFull } from '../../../shared/schemas/chat.js';
import type { Writer } from '../../core/action.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import type { Chats, ChatsDeps } from './core.js';
import * as messages from './message-store.js';
import { presentMessages, presentRoom } from './presenter.js';
import { buildRoomPart, fullRoom, roomPart } from './room-view.js';
import { access, assertCanChat, assertCanMessage, rateLimit } from './rules.js';
import * as store from './store.js';
import type { RoomRow } from './store.js';

/**
 * NodeBB's POST /chats: a room with these members. With one other member and no name it is
 * their direct message room, reused when it exists. `type: 'public'` (administrators) opens a
 * room to `groups` (none: every member).
 */
export async function createRoom(c: Chats, viewer: Viewer, input: { uids: number[]; roomName?: string; type?: 'public' | 'private'; groups?: string[] }): Promise<ChatRoom> {
  const { ctx } = c;
  await assertCanChat(ctx, viewer);
  const s = await ctx.settings.get();
  const isPublic = input.type === 'public';
  const name = (input.roomName ?? '').trim();
  if (name.length > s.maximumChatRoomNameLength) throw badRequest('error:chat-room-name-too-long', s.maximumChatRoomNameLength);
  const uids = [...new Set(input.uids)].filter((u) => u !== viewer.uid);
  if (isPublic) {
    if (!viewer.isAdmin) throw forbidden('error:no-privileges');
    if (!name) throw badRequest('error:invalid-chat-room-name');
  } else if (!uids.length) {
    throw badRequest('error:no-users-selected');
  }
  if (s.maximumUsersInChatRoom > 0 && uids.length + 1 > s.maximumUsersInChatRoom) throw badRequest('error:cant-add-more-users-to-chat-room');
  await rateLimit(ctx, viewer);
  await assertCanMessage(ctx, viewer, uids);
  const groups = isPublic ? [...new Set(input.groups ?? [])] : [];
  for (const g of groups) if (!(await ctx.groups.exists(g))) throw notFound('error:no-group');
  const dmKey = !isPublic && uids.length === 1 && !name ? [viewer.uid, uids[0]!].sort((a, b) => a - b).join(':') : null;
  const now = Date.now();
  const room = await ctx.actions.run('chat.create', async (w) => {
    if (dmKey) {
      const existing = await store.roomByDmKey(w.tx, dmKey);
      if (existing) {
        // The viewer may have left their direct message room: they come back into it.
        await store.addMembers(w, existing.room_id, [viewer.uid], { owner: false, joinedMid: await messages.maxMid(w.tx, existing.room_id), notify: CHAT_NOTIFY.all, now });
        await store.recountUsers(w, existing.room_id);
        return (await store.roomById(w.tx, existing.room_id))!;
      }
    }
    const created = await store.insertRoom(w, { owner: viewer.uid, name, public: isPublic ? 1 : 0, groups: JSON.stringify(groups), dm_key: dmKey, created: now });
    await store.addMembers(w, created.room_id, [viewer.uid], { owner: true, joinedMid: 0, notify: isPublic ? CHAT_NOTIFY.mentions : CHAT_NOTIFY.all, now });
    await store.addMembers(w, created.room_id, uids, { owner: false, joinedMid: 0, notify: CHAT_NOTIFY.all, now });
    await store.recountUsers(w, created.room_id);
    return (await store.roomById(w.tx, created.room_id))!;
  });
  const members = await store.members(ctx.db, room.room_id);
  const member = members.find((m) => m.uid === viewer.uid);
  return presentRoom(room, member?.notify ?? CHAT_NOTIFY.all, members.filter((m) => m.is_owner).map((m) => m.uid));
}

/** Renames a room (owners and administrators); a system message tells the room. */
export async function rename(c: Chats, viewer: Viewer, roomId: number, name: string): Promise<ChatRoomFull> {
  const { ctx } = c;
  await assertCanChat(ctx, viewer);
  const { room, member } = await access(ctx, viewer, roomId);
  if (!member?.is_owner && !viewer.isAdmin) throw forbidden('error:no-privileges');
  const s = await ctx.settings.get();
  const trimmed = name.trim();
  if (!trimmed) throw badRequest('error:invalid-chat-room-name');
  if (trimmed.length > s.maximumChatRoomNameLength) throw badRequest('error:chat-room-name-too-long', s.maximumChatRoomNameLength);
  await ctx.actions.run('chat.rename', async (w) => {
    await store.updateRoom(w, roomId, { name: trimmed, dm_key: null });
    await systemMessage(ctx, w, viewer.uid, room, 'room-rename', trimmed);
    await w.fire('action:chat.renamed', { roomId, newName: trimmed, uids: await store.memberUids(w.tx, roomId) });
  });
  return fullRoom(c, viewer, (await buildRoomPart(c, roomId))!, member);
}

/**
 * Writes a system message (user-join, user-leave, room-rename) in the action's transaction and
 * tells the room (action:chat.sent); join and leave messages only in rooms that show them.
 */
export async function systemMessage(ctx: ChatsDeps, w: Writer, uid: number, room: RoomRow, event: 'user-join' | 'user-leave' | 'room-rename', param?: string): Promise<void> {
  if (event !== 'room-rename' && !room.join_leave_messages) return;
  const now = Date.now();
  const { idx } = await store.claimIndex(w, room.room_id, now);
  const user = await ctx.users.get(uid);
  const clean = (v: string) => v.replace(/[[\],]/g, ' ');
  // join/leave: %1 is the member; rename: %1 the new name, %2 who renamed it.
  const params = event === 'room-rename' ? [param ?? '', user?.username ?? ''] : [user?.username ?? ''];
  const text = `[[modules:chat.system.${event}, ${params.map(clean).join(', ')}]]`;
  const row = await messages.insertMessage(w, { room_id: room.room_id, uid, idx, content: text, content_html: text, system: 1, created: now, to_mid: null, ip: '' });
  const uids = await store.memberUids(w.tx, room.room_id);
  const [message] = presentMessages([row], { reader: 0, readerIsAdmin: false, users: new Map(user ? [[uid, user]] : []), owners: new Set(), parents: new Map() });
  await w.fire('action:chat.sent', { roomId: room.room_id, public: room.public === 1, message: message!, uids, newlyUnread: [] });
}

/** An administrator reads any room (logged as the event `chat-room-read`). */
export async function adminRead(c: Chats, viewer: Viewer, roomId: number, ip: string, opts: { index?: number } = {}): Promise<ChatRoomFull> {
  if (!viewer.isAdmin) throw forbidden('error:no-privileges');
  const part = await roomPart(c, roomId);
  if (!part) throw notFound('error:no-chat-room');
  await c.ctx.actions.run('chat.adminRead', (w) => c.ctx.events.log('chat-room-read', viewer.uid, { roomId }, ip, w));
  const member = await store.member(c.ctx.db, roomId, viewer.uid);
  return fullRoom(c, viewer, part, member, opts.index);
}

/** An administrator deletes a room and its messages (logged as `chat-room-delete`). */
export async function adminDelete(ctx: ChatsDeps, viewer: Viewer, roomId: number, ip: string): Promise<void> {
  if (!viewer.isAdmin) throw forbidden('error:no-privileges');
  const room = await store.roomById(ctx.db, roomId);
  if (!room) throw notFound('error:no-chat-room');
  await ctx.actions.run('chat.delete', async (w) => {
    const uids = await store.memberUids(w.tx, roomId);
    await store.deleteRoom(w, roomId);
    await ctx.events.log('chat-room-delete', viewer.uid, { roomId }, ip, w);
    await w.fire('action:chat.left', { roomId, uids });
  });
}

/**
 * NodeBB's PUT /chats/sort: an administrator orders the public rooms; `scores[i]` is the
 * order of `roomIds[i]` (a room named twice takes its last score). Every id must be a public
 * room. Logged as the event `chat-rooms-sort`.
 */
export async function sortPublicRooms(ctx: ChatsDeps, viewer: Viewer, roomIds: number[], scores: number[], ip: string): Promise<void> {
  if (!viewer.isAdmin) throw forbidden('error:no-privileges');
  if (roomIds.length !== scores.length) throw badRequest('error:invalid-data');
  if (!roomIds.length) return;
  const order = new Map(roomIds.map((id, i) => [id, scores[i]!]));
  const rooms = await store.roomsByIds(ctx.db, [...order.keys()]);
  if (rooms.length !== order.size || rooms.some((r) => r.public !== 1)) throw badRequest('error:not-a-public-chat-room');
  await ctx.actions.run('chat.sortPublic', async (w) => {
    await store.setSortOrder(w, order);
    await ctx.events.log('chat-rooms-sort', viewer.uid, { roomIds, scores }, ip, w);
  });
}
