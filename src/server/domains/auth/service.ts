import { createHash, createHmac, hash as digest, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Writer } from '../../core/action.js';
import type { Cache, CacheRegistry } from '../../core/cache.js';
import { tagTableWrites, type ChangeBus } from '../../core/changes.js';
import { MEMBER_ROWS, memberRowTag, SESSIONS, sessionsTag } from '../../core/tags.js';
import type { Db, Queryable } from '../../db/index.js';
import type { TableWrites } from '../../db/table-writes.js';
import { badRequest } from '../../http/errors.js';
import type { AccountSession } from '../../../shared/security.js';
import type { UserRow } from '../users/store.js';
import * as store from './store.js';
import { describeUserAgent } from './user-agent.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/**
 * How long a process keeps a signed-in session with its member's row. A committed write of the
 * member's row or of their sessions drops it in every process (the tags `member-row:<uid>` and
 * `sessions:<uid>`, published by the writes of those tables); the TTL bounds what a process
 * without that message (a CLI run on a forum without Redis) can leave behind.
 */
const LIVE_SESSION_TTL_MS = 5000;
const LIVE_SESSION_MAX = 10_000;

interface LiveSession {
  session: Pick<store.SessionRow, 'uid' | 'expires' | 'last_seen'>;
  user: UserRow;
}

/** sha256 of a secret value: sessions and tokens are stored only as hashes. */
export function hashSecret(value: string): string {
  // One-shot: no Hash object per signed-in request.
  return digest('sha256', value, 'base64url');
}

/** Constant-time string comparison. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** A signed-in request or socket call: whose session, and what its rows say of the last activity. */
export interface ActivityNote {
  idHash: string;
  uid: number;
  /** The session's last_seen as read. */
  sessionSeen: number;
  /** The member's lastonline as read; absent when the caller read only the session. */
  userSeen?: number;
  days: number;
}

export interface ResolvedSession {
  uid: number;
  idHash: string;
}

/** Sessions, API tokens and CSRF tokens. */
export class AuthService {
  /** Signed-in sessions with their member's row, by id hash (null: none kept, see the constructor). */
  private live: Cache<string, LiveSession | null> | null = null;
  /** Where activity goes to be written in batches (users/activity.ts); without one, the hourly touch. */
  private activity: ((note: ActivityNote) => void) | null = null;

  constructor(
    private readonly db: Db,
    private readonly secret: string,
    shared?: { writes: TableWrites; changes: ChangeBus; cacheRegistry: CacheRegistry },
  ) {
    // Sessions are kept only where every write to them is heard: the sessions table's writes
    // name their member (touch and delete filter by uid too), so one member's log-out, ban or
    // new password drops that member's sessions alone.
    if (shared) {
      tagTableWrites(shared.writes, shared.changes, 'sessions', 'uid', { one: sessionsTag, all: SESSIONS });
      this.live = shared.cacheRegistry.create<string, LiveSession | null>({
        name: 'sessions',
        keeps: 'a signed-in session with its member\'s row, per session (every signed-in request reads it)',
        droppedBy: "a write of the member's row or of their sessions (member-row:<uid>, sessions:<uid>)",
        ttlMs: LIVE_SESSION_TTL_MS,
        max: LIVE_SESSION_MAX,
        tags: (_idHash, found) => (found ? [memberRowTag(found.user.uid), sessionsTag(found.user.uid), MEMBER_ROWS, SESSIONS] : [SESSIONS]),
      });
    }
  }

  /** Starts a session; returns the opaque id for the cookie. */
  async createSession(uid: number, ip: string, userAgent: string, days: number): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const now = Date.now();
    await store.insertSession(this.db, {
      id_hash: hashSecret(id),
      uid,
      created: now,
      expires: now + days * DAY,
      last_seen: now,
      ip,
      user_agent: userAgent.slice(0, 512),
    });
    return id;
  }

  /** The session behind a cookie value, or null when unknown or expired; rolls expiry hourly. */
  async resolveSession(id: string, days: number): Promise<ResolvedSession | null> {
    const idHash = hashSecret(id);
    const row = await store.findSession(this.db, idHash);
    if (!row || !(await this.stillLive(idHash, row, days))) return null;
    this.activity?.({ idHash, uid: row.uid, sessionSeen: row.last_seen, days });
    return { uid: row.uid, idHash };
  }

  /** resolveSession with the member's row, read in the same statement (every signed-in request). */
  async resolveSessionWithUser(id: string, days: number): Promise<(ResolvedSession & { user: UserRow }) | null> {
    const idHash = hashSecret(id);
    const read = async (): Promise<LiveSession | null> => {
      const row = await store.findSessionWithUser(this.db, idHash);
      // Shared by every request of the session until a write: frozen, so none changes it.
      return row ? { session: row.session, user: Object.freeze(row.user) } : null;
    };
    const found = this.live ? await this.live.get(idHash, read) : await read();
    if (!found || !(await this.stillLive(idHash, found.session, days))) return null;
    this.activity?.({ idHash, uid: found.user.uid, sessionSeen: found.session.last_seen, userSeen: found.user.lastonline, days });
    return { uid: found.user.uid, idHash, user: found.user };
  }

  /** False for an expired session (deleted then); rolls a live one's expiry hourly. */
  private async stillLive(idHash: string, row: { uid: number; expires: number; last_seen: number }, days: number): Promise<boolean> {
    const now = Date.now();
    if (row.expires < now) {
      await store.deleteSession(this.db, idHash, row.uid);
      return false;
    }
    // With a recorder, activity is written in its batches; without one (a bare context), hourly here.
    if (!this.activity && now - row.last_seen > HOUR) await store.touchSession(this.db, idHash, row.uid, now, now + days * DAY);
    return true;
  }

  /** Hands each signed-in request's activity to a recorder that writes it in batches. */
  onActivity(record: (note: ActivityNote) => void): void {
    this.activity = record;
  }

  /** Writes a batch of sessions' last activity, rolling their expiry (inside the recorder's action). */
  async touchSessions(w: Writer, seen: readonly (readonly [idHash: string, uid: number, at: number])[], days: number): Promise<void> {
    await store.touchSessions(w.tx, seen, days);
  }

  /** Ends a session (its member's uid, when known, drops only that member's kept sessions). */
  async destroySession(idHash: string, uid?: number): Promise<void> {
    await store.deleteSession(this.db, idHash, uid);
  }

  /** Ends all of a member's sessions, except one when given (inside `db`'s transaction when given). */
  async destroySessionsOf(uid: number, exceptHash?: string, db: Queryable = this.db): Promise<void> {
    await store.deleteSessionsOf(db, uid, exceptHash);
  }

  /** Revokes every API token of a member (inside `db`'s transaction when given). */
  async revokeTokensOf(uid: number, db: Queryable = this.db): Promise<void> {
    await store.deleteTokensOf(db, uid);
  }

  /** Deletes expired sessions. */
  async pruneSessions(): Promise<void> {
    await store.deleteExpiredSessions(this.db, Date.now());
  }

  /** The CSRF token bound to a session or guest cookie: an HMAC, so nothing is stored. */
  csrfFor(kind: 'session' | 'guest', value: string): string {
    return createHmac('sha256', this.secret).update(`${kind}:${value}`).digest('base64url');
  }

  /** A new random value for a guest's CSRF cookie. */
  newGuestNonce(): string {
    return randomBytes(18).toString('base64url');
  }

  /** Creates an API token; uid 0 makes a master token. Returns the token (shown once). */
  async createToken(uid: number, description = '', created = Date.now()): Promise<string> {
    if (!Number.isInteger(uid) || uid < 0) throw badRequest('error:invalid-uid');
    const token = randomBytes(24).toString('base64url');
    await store.insertToken(this.db, { token_hash: hashSecret(token), uid: uid === 0 ? null : uid, description, created, last_seen: 0 });
    return token;
  }

  /** Looks up a bearer token: { uid, master } or null. */
  async resolveToken(token: string): Promise<{ uid: number; master: boolean } | null> {
    const hash = hashSecret(token);
    const row = await store.findToken(this.db, hash);
    if (!row) return null;
    const now = Date.now();
    if (now - row.last_seen > 60_000) await store.touchToken(this.db, hash, now);
    return row.uid === null || row.uid === 0 ? { uid: 0, master: true } : { uid: row.uid, master: false };
  }

  /** Revokes a token. */
  async revokeToken(token: string): Promise<void> {
    await store.deleteToken(this.db, hashSecret(token));
  }

  /** A member's live sessions (rows with their public uuid), newest activity first. */
  async sessionsOf(uid: number): Promise<(store.SessionRow & { uuid: string; reauth_until: number })[]> {
    const rows = await store.sessionsOf(this.db, uid, Date.now());
    return rows.map((r) => ({ ...r, uuid: publicId('session', r.id_hash) }));
  }

  /**
   * A member's sessions as the sessions page and the moderators' info page show them (NodeBB's
   * fields and ours): device from the user agent, address, start and last activity; `current`
   * marks the session whose hash is given.
   */
  async describeSessions(uid: number, currentHash: string | null): Promise<AccountSession[]> {
    return (await this.sessionsOf(uid)).map((r) => {
      const agent = describeUserAgent(r.user_agent);
      return {
        uuid: r.uuid,
        ip: r.ip,
        datetime: r.created,
        datetimeISO: new Date(r.created).toISOString(),
        lastSeen: r.last_seen,
        lastSeenISO: new Date(r.last_seen).toISOString(),
        platform: agent.platform,
        browser: agent.browser,
        version: agent.version,
        current: r.id_hash === currentHash,
      };
    });
  }

  /** The newest logins (sessions) across members, with their device, for the admin dashboard. */
  async recentLogins(limit: number): Promise<(AccountSession & { uid: number })[]> {
    const rows = await store.recentSessions(this.db, Date.now(), limit);
    return rows.map((r) => {
      const agent = describeUserAgent(r.user_agent);
      return {
        uid: r.uid,
        uuid: publicId('session', r.id_hash),
        ip: r.ip,
        datetime: r.created,
        datetimeISO: new Date(r.created).toISOString(),
        lastSeen: r.last_seen,
        lastSeenISO: new Date(r.last_seen).toISOString(),
        platform: agent.platform,
        browser: agent.browser,
        version: agent.version,
        current: false,
      };
    });
  }

  /** The session hash behind a member's session uuid, or null when it is not theirs. */
  async sessionByUuid(uid: number, uuid: string): Promise<string | null> {
    const rows = await store.sessionsOf(this.db, uid, Date.now());
    return rows.find((r) => safeEqual(publicId('session', r.id_hash), uuid))?.id_hash ?? null;
  }

  /** The public uuid of a session (derived from its hash: the cookie cannot be rebuilt from it). */
  sessionUuid(idHash: string): string {
    return publicId('session', idHash);
  }

  /** Until when a session may enter the admin area without a new two-factor check. */
  async reauthUntil(idHash: string): Promise<number> {
    return store.reauthUntil(this.db, idHash);
  }

  /**
   * Whether a session authenticated lately, as NodeBB's requireAPIReAuth asks: it logged in
   * within `windowMs` (NodeBB counts a login as a re-authentication), or it is re-authenticated
   * for the admin area now.
   */
  async recentlyAuthenticated(idHash: string, windowMs: number): Promise<boolean> {
    const t = await store.authTimes(this.db, idHash);
    const now = Date.now();
    return !!t && (t.reauthUntil > now || now - t.created <= windowMs);
  }

  /** Marks a session as re-authenticated for `ms` from now. */
  async markReauthenticated(idHash: string, ms: number): Promise<void> {
    await store.setReauthUntil(this.db, idHash, Date.now() + ms);
  }

  /** A member's API tokens with a public id for each (the token itself is never stored). */
  async tokensOf(uid: number): Promise<(store.TokenRow & { id: string })[]> {
    return (await store.tokensOf(this.db, uid)).map((r) => ({ ...r, id: publicId('token', r.token_hash) }));
  }

  /** The master API tokens with their public ids (admin: Settings > API access). */
  async masterTokens(): Promise<(store.TokenRow & { id: string })[]> {
    return (await store.masterTokens(this.db)).map((r) => ({ ...r, id: publicId('token', r.token_hash) }));
  }

  /**
   * The token an administrator names (NodeBB's /admin/tokens/{token}): a master token by its
   * public id, or any token given itself.
   */
  async adminToken(idOrToken: string, db: Queryable = this.db): Promise<store.TokenRow | undefined> {
    return (await store.masterTokens(db)).find((r) => safeEqual(publicId('token', r.token_hash), idOrToken)) ?? (await store.findToken(db, hashSecret(idOrToken)));
  }

  /** Changes a token's member (0: a master token) and description, on the caller's transaction. */
  async updateToken(db: Queryable, hash: string, uid: number, description: string): Promise<void> {
    await store.updateToken(db, hash, { uid: uid === 0 ? null : uid, description });
  }

  /**
   * Replaces a token by a new one for the same member and description (NodeBB's roll), on the
   * caller's transaction: the old one stops working. Returns the new token (shown once).
   */
  async rollToken(db: Queryable, row: store.TokenRow): Promise<string> {
    const token = randomBytes(24).toString('base64url');
    await store.insertToken(db, { ...row, token_hash: hashSecret(token), created: Date.now(), last_seen: 0 });
    await store.deleteToken(db, row.token_hash);
    return token;
  }

  /**
   * An administrator's revocation (NodeBB's DELETE /admin/tokens/{token}): a master token named
   * by its public id, or any token given itself; false when there is none.
   */
  async revokeMasterToken(idOrToken: string): Promise<boolean> {
    const row = await this.adminToken(idOrToken);
    if (!row) return false;
    await store.deleteToken(this.db, row.token_hash);
    return true;
  }

  /** Revokes a member's token named by its public id or by the token itself; false when not theirs. */
  async revokeTokenOf(uid: number, idOrToken: string): Promise<boolean> {
    const rows = await store.tokensOf(this.db, uid);
    const asToken = hashSecret(idOrToken);
    const row = rows.find((r) => r.token_hash === asToken || safeEqual(publicId('token', r.token_hash), idOrToken));
    if (!row) return false;
    await store.deleteToken(this.db, row.token_hash);
    return true;
  }
}

/** A stable public id for a stored hash, in the form of a uuid (NodeBB names sessions by uuid). */
function publicId(kind: string, hash: string): string {
  const h = createHash('sha256').update(`${kind}:${hash}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
