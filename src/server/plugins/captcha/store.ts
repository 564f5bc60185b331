import { sql } from 'kysely';
import type { Writer } from '../../core/action.js';
import type { Queryable } from '../../db/index.js';

// Spent challenges and login failures feed no cache: their writes name no tag.

/** Records a used challenge; false when it was used already (the primary key refuses the second). */
export async function spend(w: Writer, challenge: string, expires: number): Promise<boolean> {
  const res = await w.tx.insertInto('captcha_spent').values({ challenge, expires }).onConflict((oc) => oc.column('challenge').doNothing()).executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Drops used challenges past their expiry (they could not be replayed anyway). */
export async function pruneSpent(w: Writer, now: number): Promise<void> {
  await w.tx.deleteFrom('captcha_spent').where('expires', '<', now).execute();
}

/** The failed logins counted for each key still in its window. */
export async function failures(db: Queryable, keys: string[], now: number): Promise<number> {
  const rows = await db.selectFrom('login_failures').select('count').where('key', 'in', keys).where('reset_at', '>', now).execute();
  return rows.reduce((max, r) => Math.max(max, r.count), 0);
}

/**
 * Counts one failed login for a key (a window of `windowMs` starts with the first): one
 * statement, so two failures at once both count and no transaction is needed.
 */
export async function addFailure(w: Writer, key: string, now: number, windowMs: number): Promise<void> {
  const expired = sql<boolean>`login_failures.reset_at <= ${now}`;
  await w.tx
    .insertInto('login_failures')
    .values({ key, count: 1, reset_at: now + windowMs })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when ${expired} then 1 else login_failures.count + 1 end`,
        reset_at: sql<number>`case when ${expired} then ${now + windowMs} else login_failures.reset_at end`,
      }),
    )
    .execute();
}

/** Forgets the failures of a key (a successful login). */
export async function clearFailures(w: Writer, key: string): Promise<void> {
  await w.tx.deleteFrom('login_failures').where('key', '=', key).execute();
}
