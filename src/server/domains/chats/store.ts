import { sql, type Selectable } from 'kysely';
import type { Writer } from '../../core/action.js';
import { CHAT_ACTIVITY, chatMemberTag, PUBLIC_ROOMS, roomTag } from '../../core/tags.js';
import type { Queryable } from '../../db/index.js';
import { NO_NUM, NO_TEXT, runPrepared, slots, type BatchPart } from '../../db/prepared.js';
import type { ChatRoomMembersTable, ChatRoomsTable } from '../../db/schema.js';

/**
 * The only code that touches the chat tables (chat_rooms, chat_room_members, chat_messages).
 * Each write names what it changed (core/tags.ts): the room (`roomTag`: its row, members and
 * messages), a member's own chat state (`chatMemberTag`), any room's activity (CHAT_ACTIVITY:
 * every member's room list and unread count), the public rooms (PUBLIC_ROOMS).
 */

export type RoomRow = Selectable<ChatRoomsTable>;
export type MemberRow = Selectable<ChatRoomMembersTable>;
export type { MessageRow } from './message-store.js';

export async function roomById(db: Queryable, roomId: number): Promise<RoomRow | undefined> {
  return db.selectFrom('chat_rooms').selectAll().where('room_id', '=', roomId).executeTakeFirst();
}

export async function roomsByIds(db: Queryable, roomIds: number[]): Promise<RoomRow[]> {
  if (!roomIds.length) return [];
  return db.selectFrom('chat_rooms').selectAll().where('room_id', 'in', roomIds).execute();
}

export async function roomByDmKey(db: Queryable, key: string): Promise<RoomRow | undefined> {
  return db.selectFrom('chat_rooms').selectAll().where('dm_key', '=', key).executeTakeFirst();
}

export async function insertRoom(
  w: Writer,
  row: { owner: number; name: string; public: number; groups: string; dm_key: string | null; created: number },
): Promise<RoomRow> {
  const room = await w.tx
    .insertInto('chat_rooms')
    .values({ ...row, last_activity: row.created })
    .returningAll()
    .executeTakeFirstOrThrow();
  w.changed(roomTag(room.room_id));
  if (room.public) w.changed(PUBLIC_ROOMS);
  return room;
}

export async function updateRoom(
  w: Writer,
  roomId: number,
  patch: Partial<Pick<RoomRow, 'name' | 'dm_key' | 'groups' | 'public' | 'join_leave_messages' | 'owner'>>,
): Promise<void> {
  await w.tx.updateTable('chat_rooms').set(patch).where('room_id', '=', roomId).execute();
  // Rare (a rename, an administrator's change): the public rooms' names and order may change.
  w.changed(roomTag(roomId), PUBLIC_ROOMS);
}

export async function deleteRoom(w: Writer, roomId: number): Promise<void> {
  await w.tx.deleteFrom('chat_messages').where('room_id', '=', roomId).execute();
  await w.tx.deleteFrom('chat_room_members').where('room_id', '=', roomId).execute();
  await w.tx.deleteFrom('chat_rooms').where('room_id', '=', roomId).execute();
  w.changed(roomTag(roomId), PUBLIC_ROOMS, CHAT_ACTIVITY);
}

/** Keeps `user_count` equal to the member rows (after adding or removing members). */
export async function recountUsers(w: Writer, roomId: number): Promise<number> {
  const row = await w.tx
    .updateTable('chat_rooms')
    .set({ user_count: sql<number>`(select count(*) from chat_room_members m where m.room_id = ${roomId})` })
    .where('room_id', '=', roomId)
    .returning('user_count')
    .executeTakeFirst();
  w.changed(roomTag(roomId));
  return Number(row?.user_count ?? 0);
}

/** Adds members not already in the room; returns the uids added. */
export async function addMembers(
  w: Writer,
  roomId: number,
  uids: number[],
  opts: { owner: boolean; joinedMid: number; notify: number; now: number },
): Promise<number[]> {
  if (!uids.length) return [];
  const existing = new Set(
    (await w.tx.selectFrom('chat_room_members').select('uid').where('room_id', '=', roomId).where('uid', 'in', uids).execute()).map((r) => r.uid),
  );
  const fresh = [...new Set(uids)].filter((u) => !existing.has(u));
  if (!fresh.length) return [];
  await w.tx
    .insertInto('chat_room_members')
    .values(
      fresh.map((uid) => ({
        room_id: roomId,
        uid,
        is_owner: opts.owner ? 1 : 0,
        notify: opts.notify,
        last_read_mid: opts.joinedMid,
        joined_mid: opts.joinedMid,
        joined: opts.now,
      })),
    )
    .onConflict((oc) => oc.columns(['room_id', 'uid']).doNothing())
    .execute();
  w.changed(roomTag(roomId), ...fresh.map(chatMemberTag));
  return fresh;
}

export async function removeMembers(w: Writer, roomId: number, uids: number[]): Promise<void> {
  if (!uids.length) return;
  await w.tx.deleteFrom('chat_room_members').where('room_id', '=', roomId).where('uid', 'in', uids).execute();
  w.changed(roomTag(roomId), ...uids.map(chatMemberTag));
}

export async function member(db: Queryable, roomId: number, uid: number): Promise<MemberRow | undefined> {
  return db.selectFrom('chat_room_members').selectAll().where('room_id', '=', roomId).where('uid', '=', uid).executeTakeFirst();
}

/** The member rows of several rooms for one member (access checks of a list of rooms). */
export async function membershipsOf(db: Queryable, uid: number, roomIds: number[]): Promise<MemberRow[]> {
  if (!roomIds.length) return [];
  return db.selectFrom('chat_room_members').selectAll().where('uid', '=', uid).where('room_id', 'in', roomIds).execute();
}

/** A room's members, owners first then by join time. */
export async function members(db: Queryable, roomId: number, limit = 500): Promise<MemberRow[]> {
  return db
    .selectFrom('chat_room_members')
    .selectAll()
    .where('room_id', '=', roomId)
    .orderBy('is_owner', 'desc')
    .orderBy('joined')
    .orderBy('uid')
    .limit(limit)
    .execute();
}

/** What sending a message needs of each member (who owns the room, notification setting, read state), unordered. */
export type MemberState = Pick<MemberRow, 'uid' | 'is_owner' | 'notify' | 'last_read_mid'>;

export async function memberStates(db: Queryable, roomId: number): Promise<MemberState[]> {
  return db.selectFrom('chat_room_members').select(['uid', 'is_owner', 'notify', 'last_read_mid']).where('room_id', '=', roomId).execute();
}

/**
 * What sending a message needs of a room's members, in two lean reads: every member's uid
 * (who hears of it), and the full state only of the owners and of those who had read up to
 * `lastMid` (for them the room becomes unread). In a busy room that is a handful of rows
 * instead of one object of four fields per member.
 */
export async function sendStates(db: Queryable, roomId: number, lastMid: number): Promise<{ uids: number[]; states: MemberState[] }> {
  const all = await db.selectFrom('chat_room_members').select('uid').where('room_id', '=', roomId).execute();
  const states = await db
    .selectFrom('chat_room_members')
    .select(['uid', 'is_owner', 'notify', 'last_read_mid'])
    .where('room_id', '=', roomId)
    .where((eb) => eb.or([eb('is_owner', '=', 1), eb('last_read_mid', '>=', lastMid)]))
    .execute();
  return { uids: all.map((m) => m.uid), states };
}

export async function memberUids(db: Queryable, roomId: number): Promise<number[]> {
  return (await db.selectFrom('chat_room_members').select('uid').where('room_id', '=', roomId).execute()).map((r) => r.uid);
}

export async function updateMember(
  w: Writer,
  roomId: number,
  uid: number,
  patch: Partial<Pick<MemberRow, 'is_owner' | 'notify' | 'last_read_mid'>>,
): Promise<void> {
  await w.tx.updateTable('chat_room_members').set(patch).where('room_id', '=', roomId).where('uid', '=', uid).execute();
  w.changed(roomTag(roomId), chatMemberTag(uid));
}

/**
 * Gives the next message its index and moves the room's activity; the room row is locked
 * until commit. Also answers the room's last message id before this one.
 */
export async function claimIndex(w: Writer, roomId: number, now: number): Promise<{ idx: number; lastMid: number }> {
  const row = await w.tx
    .updateTable('chat_rooms')
    .set({ message_count: sql<number>`message_count + 1`, last_activity: now })
    .where('room_id', '=', roomId)
    .returning(['message_count', 'last_mid'])
    .executeTakeFirstOrThrow();
  // The room moves up every member's list, and becomes unread for those who had read it.
  w.changed(roomTag(roomId), CHAT_ACTIVITY);
  return { idx: Number(row.message_count) - 1, lastMid: Number(row.last_mid) };
}

export async function setLastMid(w: Writer, roomId: number, mid: number): Promise<void> {
  await w.tx.updateTable('chat_rooms').set({ last_mid: mid }).where('room_id', '=', roomId).where('last_mid', '<', mid).execute();
  w.changed(roomTag(roomId), CHAT_ACTIVITY);
}

/** Public rooms in the administrators' order (sort_order, then room id). */
export async function publicRooms(db: Queryable, limit = 100): Promise<RoomRow[]> {
  return db.selectFrom('chat_rooms').selectAll().where('public', '=', 1).orderBy('sort_order').orderBy('room_id').limit(limit).execute();
}

/** Sets the sort order of several rooms in one statement (room id → order). */
export async function setSortOrder(w: Writer, order: Map<number, number>): Promise<void> {
  if (!order.size) return;
  const cases = [...order].map(([roomId, score]) => sql`when ${roomId} then cast(${score} as integer)`);
  await w.tx
    .updateTable('chat_rooms')
    .set({ sort_order: sql<number>`case room_id ${sql.join(cases, sql` `)} else sort_order end` })
    .where('room_id', 'in', [...order.keys()])
    .execute();
  w.changed(PUBLIC_ROOMS, ...[...order.keys()].map(roomTag));
}

/** Per room: the member's unread messages (others' non-system ones after their last read), in one query. */
export async function unreadPerRoom(db: Queryable, uid: number, roomIds: number[]): Promise<Map<number, number>> {
  if (!roomIds.length) return new Map();
  const rows = await db
    .selectFrom('chat_messages as c')
    .innerJoin('chat_room_members as m', (j) => j.onRef('m.room_id', '=', 'c.room_id').on('m.uid', '=', uid))
    .select(['c.room_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('c.room_id', 'in', roomIds)
    .whereRef('c.mid', '>', 'm.last_read_mid')
    .where('c.uid', '<>', uid)
    .where('c.system', '=', 0)
    .groupBy('c.room_id')
    .execute();
  return new Map(rows.map((r) => [r.room_id, Number(r.n)]));
}

/** Per member: how many of their private rooms have unread messages (the badge), in one query. */
export async function unreadRoomCounts(db: Queryable, uids: number[]): Promise<Map<number, number>> {
  const out = new Map(uids.map((u) => [u, 0]));
  if (!uids.length) return out;
  // Every member's HTML page reads it (the chat badge): compiled once per number of members.
  const rows = await runPrepared(
    db,
    `chats.unreadRoomCounts:${uids.length}`,
    ($) =>
      db
        .selectFrom('chat_room_members as m')
        .innerJoin('chat_rooms as r', 'r.room_id', 'm.room_id')
        .select(['m.uid', (eb) => eb.fn.countAll<number>().as('n')])
        .where('m.uid', 'in', slots($, 0, uids.length))
        .where('r.public', '=', 0)
        .whereRef('r.last_mid', '>', 'm.last_read_mid')
        .groupBy('m.uid'),
    uids,
  );
  for (const r of rows) out.set(r.uid, Number(r.n));
  return out;
}

/** Up to `per` members of each room (owners first), for the list's avatars, in one query. */
export async function previewMembers(db: Queryable, roomIds: number[], per: number): Promise<MemberRow[]> {
  if (!roomIds.length) return [];
  const ranked = db
    .selectFrom('chat_room_members')
    .selectAll()
    .select(sql<number>`row_number() over (partition by room_id order by is_owner desc, joined, uid)`.as('rn'))
    .where('room_id', 'in', roomIds)
    .as('ranked');
  const rows = await db.selectFrom(ranked).selectAll().where('rn', '<=', per).execute();
  return rows.map(({ rn: _rn, ...r }) => r as MemberRow);
}

/** Member rows of these uids in a room (who of them is in it). */
export async function membersAmong(db: Queryable, roomId: number, uids: number[]): Promise<MemberRow[]> {
  if (!uids.length) return [];
  return db.selectFrom('chat_room_members').selectAll().where('room_id', '=', roomId).where('uid', 'in', uids).execute();
}

/** Marks the room read up to its newest message for a member. */
export async function markRead(w: Writer, roomId: number, uid: number): Promise<void> {
  await w.tx
    .updateTable('chat_room_members')
    .set({ last_read_mid: sql<number>`(select r.last_mid from chat_rooms r where r.room_id = ${roomId})` })
    .where('room_id', '=', roomId)
    .where('uid', '=', uid)
    .execute();
  w.changed(chatMemberTag(uid));
}

/** Marks the room unread for a member: back to just before its newest message. */
export async function markUnread(w: Writer, roomId: number, uid: number, beforeMid: number): Promise<void> {
  await w.tx.updateTable('chat_room_members').set({ last_read_mid: beforeMid }).where('room_id', '=', roomId).where('uid', '=', uid).execute();
  w.changed(chatMemberTag(uid));
}

/** A member's place in one of their rooms, with their count of unread messages in it (the room list's per-member part). */
export interface MyRoom {
  room_id: number;
  notify: number;
  last_read_mid: number;
  joined_mid: number;
  unread: number;
}

/**
 * A member's rooms, most recent activity first, each with the member's own row and their
 * unread messages in it (others' non-system messages after their last read, as unreadPerRoom),
 * in one statement compiled once (runPrepared): every member's chats page reads it. The
 * rooms' own fields are the shared parts' (ChatsService listParts).
 */
export async function myRooms(db: Queryable, uid: number, offset: number, limit: number): Promise<MyRoom[]> {
  const rows = await runPrepared(
    db,
    'chats.myRooms',
    ($) =>
      db
        .selectFrom('chat_room_members as m')
        .innerJoin('chat_rooms as r', 'r.room_id', 'm.room_id')
        .select([
          'm.room_id',
          'm.notify',
          'm.last_read_mid',
          'm.joined_mid',
          (eb) =>
            eb
              .selectFrom('chat_messages as c')
              .select((e) => e.fn.countAll<number>().as('n'))
              .whereRef('c.room_id', '=', 'm.room_id')
              .whereRef('c.mid', '>', 'm.last_read_mid')
              .whereRef('c.uid', '<>', 'm.uid')
              .where('c.system', '=', 0)
              .as('unread'),
        ])
        .where('m.uid', '=', $(0))
        .orderBy('r.last_activity', 'desc')
        .orderBy('r.room_id', 'desc')
        .limit($(2))
        .offset($(1)),
    [uid, offset, limit],
  );
  return rows.map((r) => ({
    room_id: r.room_id,
    notify: r.notify,
    last_read_mid: Number(r.last_read_mid),
    joined_mid: Number(r.joined_mid),
    unread: Number(r.unread ?? 0),
  }));
}

/** A member's row in a room with the room's newest message id now (whether opening it has something to mark read), compiled once. */
export async function memberWithLastMid(db: Queryable, roomId: number, uid: number): Promise<(MemberRow & { room_last_mid: number }) | undefined> {
  const [row] = await runPrepared(
    db,
    'chats.memberWithLastMid',
    ($) =>
      db
        .selectFrom('chat_room_members as m')
        .innerJoin('chat_rooms as r', 'r.room_id', 'm.room_id')
        .select(['m.room_id', 'm.uid', 'm.is_owner', 'm.notify', 'm.last_read_mid', 'm.joined_mid', 'm.joined', 'r.last_mid as room_last_mid'])
        .where('m.room_id', '=', $(0))
        .where('m.uid', '=', $(1)),
    [roomId, uid],
  );
  return row ? { ...row, last_read_mid: Number(row.last_read_mid), joined_mid: Number(row.joined_mid), room_last_mid: Number(row.room_last_mid) } : undefined;
}

/** The room id of two members' private chat (its `dm_key`, "<low>:<high>"), 0 when none, as a part of a batched read (null: not asked). */
export function privateRoomPart(pair: string | null): BatchPart<number> {
  return {
    shape: 'chats.private-room',
    build: (db, $) =>
      db
        .selectFrom('chat_rooms')
        .select((eb) => [eb.ref('room_id').as('id'), NO_NUM.as('num'), NO_TEXT.as('txt')])
        .where('dm_key', '=', $(0)),
    values: pair ? [pair] : null,
    read: (rows) => Number(rows[0]?.id ?? 0),
  };
}
