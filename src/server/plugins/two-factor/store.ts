import type { Writer } from '../../core/action.js';
import type { Queryable } from '../../db/index.js';

// Second factors feed no cache: their writes name no tag.

export interface TwoFactorRow {
  uid: number;
  secret: string;
  confirmed: number;
  last_step: number;
  created: number;
}

/** A member's key (confirmed or still enrolling), or undefined. */
export async function keyOf(db: Queryable, uid: number): Promise<TwoFactorRow | undefined> {
  return db.selectFrom('two_factor').selectAll().where('uid', '=', uid).executeTakeFirst();
}

/** Starts (or restarts) an enrolment with a new unconfirmed secret. */
export async function putPendingKey(w: Writer, uid: number, secret: string, now: number): Promise<void> {
  const db = w.tx;
  await db.deleteFrom('two_factor').where('uid', '=', uid).where('confirmed', '=', 0).execute();
  await db.insertInto('two_factor').values({ uid, secret, confirmed: 0, last_step: 0, created: now }).execute();
}

/** Confirms a pending key with the step of the code that confirmed it; false when there was none. */
export async function confirmKey(w: Writer, uid: number, step: number): Promise<boolean> {
  const db = w.tx;
  const res = await db.updateTable('two_factor').set({ confirmed: 1, last_step: step }).where('uid', '=', uid).where('confirmed', '=', 0).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Records the use of a code's time step; false when that step (or a later one) was used
 * already: the conditional update makes a replay fail even in another process.
 */
export async function useStep(w: Writer, uid: number, step: number): Promise<boolean> {
  const db = w.tx;
  const res = await db.updateTable('two_factor').set({ last_step: step }).where('uid', '=', uid).where('confirmed', '=', 1).where('last_step', '<', step).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Removes a member's key, and their backup codes unless `keepBackupCodes`. */
export async function deleteKey(w: Writer, uid: number, keepBackupCodes = false): Promise<void> {
  const db = w.tx;
  if (!keepBackupCodes) await db.deleteFrom('two_factor_backup').where('uid', '=', uid).execute();
  await db.deleteFrom('two_factor').where('uid', '=', uid).execute();
}

/** Replaces a member's backup codes. */
export async function replaceBackupCodes(w: Writer, uid: number, hashes: string[]): Promise<void> {
  const db = w.tx;
  await db.deleteFrom('two_factor_backup').where('uid', '=', uid).execute();
  if (hashes.length === 0) return;
  await db
    .insertInto('two_factor_backup')
    .values(hashes.map((code_hash) => ({ uid, code_hash, used_at: 0 })))
    .execute();
}

/** Marks a backup code used; false when unknown or used already (conditional: works once). */
export async function useBackupCode(w: Writer, uid: number, hash: string, now: number): Promise<boolean> {
  const db = w.tx;
  const res = await db.updateTable('two_factor_backup').set({ used_at: now }).where('uid', '=', uid).where('code_hash', '=', hash).where('used_at', '=', 0).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** How many unused backup codes a member has left. */
export async function backupCodesLeft(db: Queryable, uid: number): Promise<number> {
  const row = await db
    .selectFrom('two_factor_backup')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('uid', '=', uid)
    .where('used_at', '=', 0)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
