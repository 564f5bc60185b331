import type { Insertable, Selectable } from 'kysely';
import type { Queryable } from '../db/index.js';
import type { OutboxTable } from '../db/schema.js';

export type OutboxRow = Selectable<OutboxTable>;

/** Writes a row (in the caller's transaction when the database joins one). */
export async function insert(db: Queryable, row: Insertable<OutboxTable>): Promise<OutboxRow> {
  return db.insertInto('outbox').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * Takes the leases of up to `limit` due rows whose lease ended, oldest first, in one UPDATE: the
 * outer condition is checked again on each row, so of two processes racing for a row one gets it.
 */
export async function claim(db: Queryable, owner: string, now: number, leaseUntil: number, limit: number): Promise<OutboxRow[]> {
  return db
    .updateTable('outbox')
    .set({ lease_owner: owner, lease_until: leaseUntil })
    .where('id', 'in', (eb) =>
      eb.selectFrom('outbox').select('id').where('state', '=', 'queued').where('lease_until', '<', now).where('run_at', '<=', now).orderBy('id').limit(limit),
    )
    .where('state', '=', 'queued')
    .where('lease_until', '<', now)
    .returningAll()
    .execute();
}

/** Puts a row back for a later try of the listeners that failed (or marks it failed for good). */
export async function retry(db: Queryable, id: number, owner: string, r: { pending: string; attempts: number; runAt: number; failed: boolean; error: string }): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ pending: r.pending, attempts: r.attempts, run_at: r.runAt, state: r.failed ? 'failed' : 'queued', last_error: r.error.slice(0, 1000), lease_owner: null, lease_until: 0 })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

/** Deletes rows this owner ran to the end. */
export async function remove(db: Queryable, ids: number[], owner: string): Promise<void> {
  if (ids.length) await db.deleteFrom('outbox').where('id', 'in', ids).where('lease_owner', '=', owner).execute();
}

/** Rows waiting or failed (the admin's page, tests). */
export async function list(db: Queryable, state: 'queued' | 'failed', limit = 100): Promise<OutboxRow[]> {
  return db.selectFrom('outbox').selectAll().where('state', '=', state).orderBy('id').limit(limit).execute();
}

/** Puts failed rows (one by id, or all) back in the queue, due now with their tries reset; returns how many. */
export async function requeue(db: Queryable, now: number, id?: number): Promise<number> {
  const res = await db
    .updateTable('outbox')
    .set({ state: 'queued', attempts: 0, run_at: now, lease_owner: null, lease_until: 0 })
    .where('state', '=', 'failed')
    .$if(id !== undefined, (q) => q.where('id', '=', id!))
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** How many rows wait and how many failed for good. */
export async function counts(db: Queryable): Promise<{ queued: number; failed: number }> {
  const rows = await db.selectFrom('outbox').select((eb) => ['state', eb.fn.countAll<number>().as('n')]).groupBy('state').execute();
  const of = (state: string) => Number(rows.find((r) => r.state === state)?.n ?? 0);
  return { queued: of('queued'), failed: of('failed') };
}
