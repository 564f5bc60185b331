import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Writer } from '../../core/action.js';
import type { Queryable } from '../../db/index.js';
import type { PostQueueTable } from '../../db/schema.js';

export type QueuedRow = Selectable<PostQueueTable>;

/** Stores a queued topic or reply. */
export async function insert(w: Writer, row: Insertable<PostQueueTable>): Promise<QueuedRow> {
  return w.tx.insertInto('post_queue').values(row).returningAll().executeTakeFirstOrThrow();
}

/** One queued post, or undefined. */
export async function byId(db: Queryable, id: number): Promise<QueuedRow | undefined> {
  return db.selectFrom('post_queue').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The categories that have queued posts (to work out which the viewer moderates). */
export async function cidsInQueue(db: Queryable): Promise<number[]> {
  return (await db.selectFrom('post_queue').select('cid').distinct().execute()).map((r) => r.cid);
}

/** A page of queued posts in these categories (null: all), oldest first, and the total. */
export async function list(db: Queryable, cids: number[] | null, offset: number, limit: number, id?: number): Promise<{ rows: QueuedRow[]; count: number }> {
  if (cids && !cids.length) return { rows: [], count: 0 };
  let base = db.selectFrom('post_queue');
  if (cids) base = base.where('cid', 'in', cids);
  if (id !== undefined) base = base.where('id', '=', id);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('created').orderBy('id').offset(offset).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows, count: Number(count?.n ?? 0) };
}

/** A member's own queued posts (newest first). */
export async function ofUser(db: Queryable, uid: number, limit: number): Promise<QueuedRow[]> {
  return db.selectFrom('post_queue').selectAll().where('uid', '=', uid).orderBy('created', 'desc').limit(limit).execute();
}

/** Changes a queued post's content, title or category. */
export async function update(w: Writer, id: number, fields: Updateable<PostQueueTable>): Promise<void> {
  await w.tx.updateTable('post_queue').set(fields).where('id', '=', id).execute();
}

/** Takes a queued post out of the queue; the row when this call took it (of two concurrent calls, one). */
export async function take(w: Writer, id: number): Promise<QueuedRow | undefined> {
  return w.tx.deleteFrom('post_queue').where('id', '=', id).returningAll().executeTakeFirst();
}

/** How many posts wait in a category's queue. */
export async function countInCategory(db: Queryable, cid: number): Promise<number> {
  const row = await db.selectFrom('post_queue').select((eb) => eb.fn.countAll<number>().as('n')).where('cid', '=', cid).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Which of these strings some queued post's content contains (one query over the queue). */
export async function mentioned(db: Queryable, needles: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  if (!needles.length) return out;
  const like = (n: string) => `%${n.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .selectFrom('post_queue')
    .select('content')
    .where((eb) => eb.or(needles.map((n) => sql<boolean>`content like ${like(n)} escape '\\'`)))
    .execute();
  for (const r of rows) for (const n of needles) if (r.content.includes(n)) out.add(n);
  return out;
}
