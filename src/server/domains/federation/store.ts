import { sql } from 'kysely';
import type { Writer } from '../../core/action.js';
import type { Db, Queryable } from '../../db/index.js';

/** A remote actor following a local one. */
export interface FollowerRow {
  actor: string;
  follower: string;
  inbox: string;
  shared_inbox: string;
  follow_id: string;
  created: number;
}

/** A local actor's stored key pair (JWK text). */
export interface KeyRow {
  actor: string;
  algorithm: string;
  private_jwk: string;
  public_jwk: string;
  created: number;
}

// --- Fedify's key-value store (kv.ts) ---

export async function kvGet(db: Queryable, key: string, now: number): Promise<string | undefined> {
  const row = await db.selectFrom('federation_kv').select(['value', 'expires']).where('key', '=', key).executeTakeFirst();
  if (!row || (row.expires > 0 && row.expires <= now)) return undefined;
  return row.value;
}

export async function kvSet(db: Queryable, key: string, value: string, expires: number): Promise<void> {
  await db
    .insertInto('federation_kv')
    .values({ key, value, expires })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, expires }))
    .execute();
}

export async function kvDelete(db: Queryable, key: string): Promise<void> {
  await db.deleteFrom('federation_kv').where('key', '=', key).execute();
}

/** Entries whose key starts with `prefix` (the JSON text of a key array, without its closing bracket). */
export async function kvList(db: Queryable, prefix: string, now: number): Promise<{ key: string; value: string }[]> {
  return db
    .selectFrom('federation_kv')
    .select(['key', 'value'])
    .where(sql<boolean>`substr(key, 1, ${prefix.length}) = ${prefix}`)
    .where((eb) => eb.or([eb('expires', '=', 0), eb('expires', '>', now)]))
    .orderBy('key')
    .execute();
}

/** Drops expired entries (the recurring clean-up job). */
export async function kvPrune(db: Queryable, now: number): Promise<number> {
  const res = await db.deleteFrom('federation_kv').where('expires', '>', 0).where('expires', '<=', now).executeTakeFirst();
  return Number(res.numDeletedRows ?? 0);
}

// --- Key pairs ---

export async function keysOf(db: Queryable, actor: string): Promise<KeyRow[]> {
  return db.selectFrom('federation_keys').selectAll().where('actor', '=', actor).orderBy('algorithm').execute();
}

/** Stores a key pair unless one exists (two processes racing keep the first). */
export async function insertKeys(db: Db, rows: KeyRow[]): Promise<void> {
  if (!rows.length) return;
  await db
    .insertInto('federation_keys')
    .values(rows)
    .onConflict((oc) => oc.columns(['actor', 'algorithm']).doNothing())
    .execute();
}

// --- Followers ---

export async function addFollower(w: Writer, row: FollowerRow): Promise<void> {
  await w.tx
    .insertInto('federation_followers')
    .values(row)
    .onConflict((oc) => oc.columns(['actor', 'follower']).doUpdateSet({ inbox: row.inbox, shared_inbox: row.shared_inbox, follow_id: row.follow_id }))
    .execute();
}

export async function removeFollower(w: Writer, actor: string, follower: string): Promise<number> {
  const res = await w.tx.deleteFrom('federation_followers').where('actor', '=', actor).where('follower', '=', follower).executeTakeFirst();
  return Number(res.numDeletedRows ?? 0);
}

export async function followersOf(db: Queryable, actor: string): Promise<FollowerRow[]> {
  return db.selectFrom('federation_followers').selectAll().where('actor', '=', actor).orderBy('created').orderBy('follower').execute();
}

export async function followerCount(db: Queryable, actor: string): Promise<number> {
  const row = await db.selectFrom('federation_followers').select((eb) => eb.fn.countAll<number>().as('n')).where('actor', '=', actor).executeTakeFirst();
  return Number(row?.n ?? 0);
}

// --- Received activities ---

/** Keeps a received activity once (a second delivery of the same id is dropped); true when new. */
export async function insertReceived(w: Writer, row: { activity_id: string; type: string; actor: string; recipient: string; body: string; received: number }): Promise<boolean> {
  const res = await w.tx
    .insertInto('federation_received')
    .values(row)
    .onConflict((oc) => oc.column('activity_id').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function received(db: Queryable, limit: number): Promise<{ id: number; activity_id: string; type: string; actor: string; recipient: string; body: string; received: number }[]> {
  return db.selectFrom('federation_received').selectAll().orderBy('id', 'desc').limit(limit).execute();
}
