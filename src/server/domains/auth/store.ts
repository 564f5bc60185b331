import type { Queryable } from '../../db/index.js';
import { runPrepared } from '../../db/prepared.js';
import type { UserRow } from '../users/store.js';

export interface SessionRow {
  id_hash: string;
  uid: number;
  created: number;
  expires: number;
  last_seen: number;
  ip: string;
  user_agent: string;
}

/** Stores a new session. */
export async function insertSession(db: Queryable, row: SessionRow): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

/** Finds a session by the hash of its id. */
export async function findSession(db: Queryable, idHash: string): Promise<Pick<SessionRow, 'uid' | 'expires' | 'last_seen'> | undefined> {
  // What every signed-in request needs: not the user agent (up to 512 characters) nor the address.
  return db.selectFrom('sessions').select(['uid', 'expires', 'last_seen']).where('id_hash', '=', idHash).executeTakeFirst();
}

type SessionWithUserRow = UserRow & { session_expires: number; session_last_seen: number };

/**
 * A session and its member's row in one statement: what a signed-in request reads first
 * (two statements before, one more round trip to PostgreSQL on every member request). A
 * session's member always exists: sessions.uid references users.uid, ON DELETE CASCADE.
 * Compiled once (db/prepared.ts): building a join with Kysely cost more than running it on
 * SQLite (member `/api/recent`, profiled).
 */
export async function findSessionWithUser(db: Queryable, idHash: string): Promise<{ session: Pick<SessionRow, 'uid' | 'expires' | 'last_seen'>; user: UserRow } | undefined> {
  const [row] = await runPrepared<SessionWithUserRow>(
    db,
    'auth.sessionWithUser',
    ($) =>
      db
        .selectFrom('sessions')
        .innerJoin('users', 'users.uid', 'sessions.uid')
        .selectAll('users')
        .select(['sessions.expires as session_expires', 'sessions.last_seen as session_last_seen'])
        .where('sessions.id_hash', '=', $(0)),
    [idHash],
  );
  if (!row) return undefined;
  const { session_expires: expires, session_last_seen: last_seen, ...user } = row;
  return { session: { uid: user.uid, expires: Number(expires), last_seen: Number(last_seen) }, user };
}

/** Moves a session's expiry forward. */
export async function touchSession(db: Queryable, idHash: string, uid: number, now: number, expires: number): Promise<void> {
  // The uid in the filter names whose session changed (db/table-writes.ts): only theirs drop.
  await db.updateTable('sessions').set({ last_seen: now, expires }).where('id_hash', '=', idHash).where('uid', '=', uid).execute();
}

/** Records sessions' last activity and rolls their expiry (the activity recorder's batch); never moves them back. */
export async function touchSessions(db: Queryable, seen: readonly (readonly [idHash: string, uid: number, at: number])[], days: number): Promise<void> {
  for (const [idHash, uid, at] of seen) {
    // The uid in the filter names whose session changed (db/table-writes.ts): only theirs drop.
    await db.updateTable('sessions').set({ last_seen: at, expires: at + days * 86_400_000 }).where('id_hash', '=', idHash).where('uid', '=', uid).where('last_seen', '<', at).execute();
  }
}

/** Deletes one session. */
export async function deleteSession(db: Queryable, idHash: string, uid?: number): Promise<void> {
  let q = db.deleteFrom('sessions').where('id_hash', '=', idHash);
  // Naming the member (when known) drops only their kept sessions (db/table-writes.ts).
  if (uid !== undefined) q = q.where('uid', '=', uid);
  await q.execute();
}

/** Deletes every session of a member (ban, password change, deletion). */
export async function deleteSessionsOf(db: Queryable, uid: number, exceptHash?: string): Promise<void> {
  let q = db.deleteFrom('sessions').where('uid', '=', uid);
  if (exceptHash) q = q.where('id_hash', '!=', exceptHash);
  await q.execute();
}

/** Deletes sessions past their expiry. */
export async function deleteExpiredSessions(db: Queryable, now: number): Promise<void> {
  await db.deleteFrom('sessions').where('expires', '<', now).execute();
}

export interface TokenRow {
  token_hash: string;
  /** NULL for a master token (it belongs to no member). */
  uid: number | null;
  description: string;
  created: number;
  last_seen: number;
}

/** Stores an API token (by hash). */
export async function insertToken(db: Queryable, row: TokenRow): Promise<void> {
  await db.insertInto('api_tokens').values(row).execute();
}

/** Finds an API token by hash. */
export async function findToken(db: Queryable, hash: string): Promise<TokenRow | undefined> {
  return db.selectFrom('api_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
}

/** Records when a token was last used. */
export async function touchToken(db: Queryable, hash: string, now: number): Promise<void> {
  await db.updateTable('api_tokens').set({ last_seen: now }).where('token_hash', '=', hash).execute();
}

/** Deletes an API token. */
export async function deleteToken(db: Queryable, hash: string): Promise<void> {
  await db.deleteFrom('api_tokens').where('token_hash', '=', hash).execute();
}

/** Changes an API token's member (NULL: a master token) and description. */
export async function updateToken(db: Queryable, hash: string, fields: { uid: number | null; description: string }): Promise<void> {
  await db.updateTable('api_tokens').set(fields).where('token_hash', '=', hash).execute();
}

/** Deletes every API token of a member (ban, deletion). */
export async function deleteTokensOf(db: Queryable, uid: number): Promise<void> {
  await db.deleteFrom('api_tokens').where('uid', '=', uid).execute();
}

/** Every unexpired session of a member, newest activity first. */
export async function sessionsOf(db: Queryable, uid: number, now: number): Promise<(SessionRow & { reauth_until: number })[]> {
  return db.selectFrom('sessions').selectAll().where('uid', '=', uid).where('expires', '>=', now).orderBy('last_seen', 'desc').execute();
}

/** The newest sessions across members (the admin dashboard's logins), newest first. */
export async function recentSessions(db: Queryable, now: number, limit: number): Promise<(SessionRow & { reauth_until: number })[]> {
  return db.selectFrom('sessions').selectAll().where('expires', '>=', now).orderBy('created', 'desc').limit(limit).execute();
}

/** Until when a session may enter the admin area without passing /login/2fa (0: not now). */
export async function reauthUntil(db: Queryable, idHash: string): Promise<number> {
  const row = await db.selectFrom('sessions').select('reauth_until').where('id_hash', '=', idHash).executeTakeFirst();
  return Number(row?.reauth_until ?? 0);
}

/** When a session logged in and until when it may enter the admin area without passing /login/2fa (null: no such session). */
export async function authTimes(db: Queryable, idHash: string): Promise<{ created: number; reauthUntil: number } | null> {
  const row = await db.selectFrom('sessions').select(['created', 'reauth_until']).where('id_hash', '=', idHash).executeTakeFirst();
  return row ? { created: Number(row.created), reauthUntil: Number(row.reauth_until ?? 0) } : null;
}

/** Sets a session's admin re-authentication expiry. */
export async function setReauthUntil(db: Queryable, idHash: string, until: number): Promise<void> {
  await db.updateTable('sessions').set({ reauth_until: until }).where('id_hash', '=', idHash).execute();
}

/** The master API tokens (they belong to no member), newest first. */
export async function masterTokens(db: Queryable): Promise<TokenRow[]> {
  return db.selectFrom('api_tokens').selectAll().where('uid', 'is', null).orderBy('created', 'desc').execute();
}

/** A member's API tokens (never master tokens), newest first. */
export async function tokensOf(db: Queryable, uid: number): Promise<TokenRow[]> {
  return db.selectFrom('api_tokens').selectAll().where('uid', '=', uid).orderBy('created', 'desc').execute();
}
