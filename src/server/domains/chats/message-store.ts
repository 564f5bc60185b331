import { sql, type Selectable } from 'kysely';
import type { Writer } from '../../core/action.js';
import { roomTag } from '../../core/tags.js';
import type { Queryable } from '../../db/index.js';
import type { ChatMessagesTable } from '../../db/schema.js';

/** The chat messages' queries (chat_messages): the only code besides store.ts that touches a chat table. */

export type MessageRow = Selectable<ChatMessagesTable>;

/**
 * `mid > afterMid` written so that no index serves it (`+mid`): the page is a range of the
 * (room_id, idx) index. Left as a plain column, SQLite may read it as a rowid range once the
 * tables are analysed, scanning every room's messages after `afterMid` and sorting them (the
 * chat bench's previous-message read took 120 µs at 1,000 messages, growing with the table).
 */
const visibleAfter = sql<number>`+${sql.ref('chat_messages.mid')}`;

export async function insertMessage(w: Writer, row: Omit<MessageRow, 'mid' | 'edited' | 'deleted' | 'pinned'>): Promise<MessageRow> {
  const message = await w.tx.insertInto('chat_messages').values(row).returningAll().executeTakeFirstOrThrow();
  w.changed(roomTag(row.room_id));
  return message;
}

export async function messageById(db: Queryable, mid: number): Promise<MessageRow | undefined> {
  return db.selectFrom('chat_messages').selectAll().where('mid', '=', mid).executeTakeFirst();
}

export async function messagesByIds(db: Queryable, mids: number[]): Promise<MessageRow[]> {
  if (!mids.length) return [];
  return db.selectFrom('chat_messages').selectAll().where('mid', 'in', mids).execute();
}

export async function updateMessage(
  w: Writer,
  mid: number,
  patch: Partial<Pick<MessageRow, 'content' | 'content_html' | 'edited' | 'deleted' | 'pinned'>>,
): Promise<void> {
  const row = await w.tx.updateTable('chat_messages').set(patch).where('mid', '=', mid).returning('room_id').executeTakeFirst();
  if (row) w.changed(roomTag(row.room_id));
}

/**
 * A page of a room's messages the member may see (after `afterMid`), newest `limit` before
 * index `beforeIdx` (exclusive; undefined: the newest), returned oldest first.
 */
export async function messagesPage(db: Queryable, roomId: number, afterMid: number, limit: number, beforeIdx?: number): Promise<MessageRow[]> {
  let q = db.selectFrom('chat_messages').selectAll().where('room_id', '=', roomId).where(visibleAfter, '>', afterMid);
  if (beforeIdx !== undefined) q = q.where('idx', '<', beforeIdx);
  const rows = await q.orderBy('idx', 'desc').limit(limit).execute();
  return rows.reverse();
}

/** The room's message at index `idx`. */
export async function messageAt(db: Queryable, roomId: number, idx: number): Promise<MessageRow | undefined> {
  return db.selectFrom('chat_messages').selectAll().where('room_id', '=', roomId).where('idx', '=', idx).executeTakeFirst();
}

/** Messages from index `fromIdx` on (a jump to a message), oldest first. */
export async function messagesFrom(db: Queryable, roomId: number, afterMid: number, fromIdx: number, limit: number): Promise<MessageRow[]> {
  return db
    .selectFrom('chat_messages')
    .selectAll()
    .where('room_id', '=', roomId)
    .where(visibleAfter, '>', afterMid)
    .where('idx', '>=', fromIdx)
    .orderBy('idx')
    .limit(limit)
    .execute();
}

export async function pinnedMessages(db: Queryable, roomId: number, afterMid: number, start: number, limit: number): Promise<MessageRow[]> {
  return db
    .selectFrom('chat_messages')
    .selectAll()
    .where('room_id', '=', roomId)
    .where('mid', '>', afterMid)
    .where('pinned', '>', 0)
    .where('deleted', '=', 0)
    .orderBy('pinned', 'desc')
    .orderBy('mid', 'desc')
    .offset(start)
    .limit(limit)
    .execute();
}

/** Messages whose text contains `query` (case-insensitive), newest first. */
export async function searchMessages(db: Queryable, roomId: number, afterMid: number, query: string, limit: number): Promise<MessageRow[]> {
  const pattern = `%${query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db
    .selectFrom('chat_messages')
    .selectAll()
    .where('room_id', '=', roomId)
    .where('mid', '>', afterMid)
    .where('system', '=', 0)
    .where('deleted', '=', 0)
    .where(sql<boolean>`lower(content) like ${pattern} escape '\\'`)
    .orderBy('mid', 'desc')
    .limit(limit)
    .execute();
}

/** The message a new one gets if several wait: the room's newest mid. */
export async function lastMessages(db: Queryable, mids: number[]): Promise<MessageRow[]> {
  return messagesByIds(
    db,
    mids.filter((m) => m > 0),
  );
}

/** The mid of the message before `mid` in the room (0: none). */
export async function previousMid(db: Queryable, roomId: number, mid: number): Promise<number> {
  const row = await db
    .selectFrom('chat_messages')
    .select('mid')
    .where('room_id', '=', roomId)
    .where('mid', '<', mid)
    .orderBy('mid', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.mid ?? 0;
}

/** The room's newest message index below or at `idx` the member may see (for page positions). */
export async function countVisible(db: Queryable, roomId: number, afterMid: number): Promise<number> {
  const row = await db
    .selectFrom('chat_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('room_id', '=', roomId)
    .where('mid', '>', afterMid)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The room's newest message id of any kind (0: none): what a member joining now has already "seen". */
export async function maxMid(db: Queryable, roomId: number): Promise<number> {
  const row = await db
    .selectFrom('chat_messages')
    .select((eb) => eb.fn.max('mid').as('m'))
    .where('room_id', '=', roomId)
    .executeTakeFirst();
  return Number(row?.m ?? 0);
}
