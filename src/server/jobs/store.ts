import type { Selectable, Updateable } from 'kysely';
import type { Queryable } from '../db/index.js';
import type { JobsTable } from '../db/schema.js';

export type JobRow = Selectable<JobsTable>;

/** Queues a one-off run; returns its id (0 when a run with its key was queued before). */
export async function insertRun(db: Queryable, run: { name: string; payload: string; runAt: number; maxAttempts: number; key?: string }): Promise<number> {
  const row = await db
    .insertInto('jobs')
    .values({ name: run.name, payload: run.payload, run_at: run.runAt, max_attempts: run.maxAttempts, lease_owner: null, key: run.key ?? null, created: Date.now() })
    .$if(run.key !== undefined, (q) => q.onConflict((oc) => oc.column('key').doNothing()))
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? 0;
}

/** The schedule row of a recurring job, keyed by its name: created once, whoever comes first. */
export async function ensureSchedule(db: Queryable, s: { name: string; everyMs: number; runAt: number; maxAttempts: number }): Promise<void> {
  await db
    .insertInto('jobs')
    .values({ name: s.name, key: `every:${s.name}`, every_ms: s.everyMs, run_at: s.runAt, max_attempts: s.maxAttempts, lease_owner: null, created: s.runAt })
    .onConflict((oc) => oc.column('key').doUpdateSet({ every_ms: s.everyMs }))
    .execute();
}

/** Marks failed the one-off runs that used their attempts and whose last lease ran out (a process died on each). */
export async function failExhausted(db: Queryable, now: number): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ state: 'failed', finished: now, lease_owner: null })
    .where('state', '=', 'queued')
    .where('every_ms', '=', 0)
    .where((eb) => eb('attempts', '>=', eb.ref('max_attempts')))
    .where('lease_until', '<', now)
    .execute();
}

/** Due runs of the given jobs whose lease is free, oldest first. */
export async function dueRuns(db: Queryable, names: string[], now: number, limit: number): Promise<JobRow[]> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('state', '=', 'queued')
    .where('name', 'in', names)
    .where('run_at', '<=', now)
    .where('lease_until', '<', now)
    .orderBy('run_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Takes a run's lease: one conditional UPDATE, so of several processes racing for the same
 * row exactly one changes it. True when this owner got it.
 */
export async function takeLease(db: Queryable, id: number, owner: string, now: number, leaseUntil: number): Promise<boolean> {
  const res = await db
    .updateTable('jobs')
    .set((eb) => ({ lease_owner: owner, lease_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('state', '=', 'queued')
    .where('lease_until', '<', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Renews a running run's lease until `leaseUntil`; false when this owner no longer holds it. */
export async function extendLease(db: Queryable, id: number, owner: string, leaseUntil: number): Promise<boolean> {
  const res = await db.updateTable('jobs').set({ lease_until: leaseUntil }).where('id', '=', id).where('state', '=', 'queued').where('lease_owner', '=', owner).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Ends a run that succeeded: a one-off is done, a schedule moves to its next time. Only the lease holder may. */
export async function finish(db: Queryable, row: JobRow, owner: string, now: number): Promise<void> {
  const next = row.every_ms > 0 ? { run_at: now + row.every_ms, attempts: 0, last_error: '' } : { state: 'done', finished: now };
  await db
    .updateTable('jobs')
    .set({ ...next, lease_owner: null, lease_until: 0 })
    .where('id', '=', row.id)
    .where('lease_owner', '=', owner)
    .execute();
}

/** Ends a run that failed: retried after `backoffMs`, or (out of attempts) failed, or for a schedule, its next time. */
export async function fail(db: Queryable, row: JobRow, owner: string, now: number, backoffMs: number, error: string): Promise<void> {
  const out = row.attempts >= row.max_attempts;
  let next: Updateable<JobsTable>;
  if (!out) next = { run_at: now + backoffMs };
  else if (row.every_ms > 0) next = { run_at: now + row.every_ms, attempts: 0 };
  else next = { state: 'failed', finished: now };
  await db
    .updateTable('jobs')
    .set({ ...next, last_error: error.slice(0, 1000), lease_owner: null, lease_until: 0 })
    .where('id', '=', row.id)
    .where('lease_owner', '=', owner)
    .execute();
}

/** Deletes finished one-off runs older than `before`. */
export async function pruneFinished(db: Queryable, before: number): Promise<void> {
  await db.deleteFrom('jobs').where('state', 'in', ['done', 'failed']).where('finished', '<', before).execute();
}

/** One run's row (tests and diagnostics). */
export async function byId(db: Queryable, id: number): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}
