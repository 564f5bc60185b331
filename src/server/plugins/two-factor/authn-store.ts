import type { Writer } from '../../core/action.js';
import type { Queryable } from '../../db/index.js';

// Second factors feed no cache: their writes name no tag.

export interface CredentialRow {
  id: string;
  uid: number;
  public_key: string;
  counter: number;
  transports: string;
  label: string;
  created: number;
  last_used: number;
}

/** A member's security keys, oldest first. */
export async function credentialsOf(db: Queryable, uid: number): Promise<CredentialRow[]> {
  const rows = await db.selectFrom('webauthn_credentials').selectAll().where('uid', '=', uid).orderBy('created', 'asc').orderBy('id', 'asc').execute();
  return rows.map(norm);
}

/** How many security keys a member has. */
export async function countOf(db: Queryable, uid: number): Promise<number> {
  const row = await db
    .selectFrom('webauthn_credentials')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('uid', '=', uid)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A key by its credential id (whoever owns it), or undefined. */
export async function credential(db: Queryable, id: string): Promise<CredentialRow | undefined> {
  const row = await db.selectFrom('webauthn_credentials').selectAll().where('id', '=', id).executeTakeFirst();
  return row && norm(row);
}

/** Stores a new key; false when that credential id is registered already (to anyone). */
export async function insertCredential(w: Writer, row: Omit<CredentialRow, 'last_used'>): Promise<boolean> {
  const db = w.tx;
  const res = await db
    .insertInto('webauthn_credentials')
    .values({ ...row, last_used: 0 })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Renames a member's key; false when the member has no such key. */
export async function renameCredential(w: Writer, uid: number, id: string, label: string): Promise<boolean> {
  const db = w.tx;
  const res = await db.updateTable('webauthn_credentials').set({ label }).where('uid', '=', uid).where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Removes a member's key; false when the member has no such key. */
export async function deleteCredential(w: Writer, uid: number, id: string): Promise<boolean> {
  const db = w.tx;
  const res = await db.deleteFrom('webauthn_credentials').where('uid', '=', uid).where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

/**
 * Records a use of a key: the new signature counter and the time. Conditional on the counter
 * read before the check (compare and set), so of two responses checked at once only one counts.
 */
export async function useCredential(w: Writer, id: string, uid: number, oldCounter: number, newCounter: number, now: number): Promise<boolean> {
  const db = w.tx;
  const res = await db
    .updateTable('webauthn_credentials')
    .set({ counter: newCounter, last_used: now })
    .where('id', '=', id)
    .where('uid', '=', uid)
    .where('counter', '=', oldCounter)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Keeps a new challenge for an owner (a session or a waiting login) and purpose: it replaces
 * the owner's earlier one for that purpose, and expired challenges of anyone go.
 */
export async function putChallenge(
  w: Writer,
  row: { challenge: string; owner: string; purpose: string; uid: number; expires: number },
  now: number,
): Promise<void> {
  const db = w.tx;
  await db.deleteFrom('webauthn_challenges').where('expires', '<=', now).execute();
  await db.deleteFrom('webauthn_challenges').where('owner', '=', row.owner).where('purpose', '=', row.purpose).execute();
  await db.insertInto('webauthn_challenges').values(row).execute();
}

/**
 * Uses up a challenge: true when it was handed to this owner for this purpose and member and
 * has not expired. The delete is the check, so a challenge works once, in any process.
 */
export async function takeChallenge(w: Writer, key: { challenge: string; owner: string; purpose: string; uid: number }, now: number): Promise<boolean> {
  const db = w.tx;
  const res = await db
    .deleteFrom('webauthn_challenges')
    .where('challenge', '=', key.challenge)
    .where('owner', '=', key.owner)
    .where('purpose', '=', key.purpose)
    .where('uid', '=', key.uid)
    .where('expires', '>', now)
    .executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

// PostgreSQL answers bigint columns as they are configured to; numbers here either way.
function norm(row: CredentialRow): CredentialRow {
  return { ...row, counter: Number(row.counter), created: Number(row.created), last_used: Number(row.last_used) };
}
