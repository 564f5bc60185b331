import type { Insertable, Selectable } from 'kysely';
import type { Writer } from '../../core/action.js';
import type { Queryable } from '../../db/index.js';

// The queue, invitations, consent and known addresses feed no cache: their writes name no tag.
import type { InvitationsTable, RegistrationQueueTable } from '../../db/schema.js';

export type QueueRow = Selectable<RegistrationQueueTable>;
export type InvitationRow = Selectable<InvitationsTable>;

/** Adds a registration to the queue. */
export async function enqueue(w: Writer, row: Insertable<RegistrationQueueTable>): Promise<void> {
  const db = w.tx;
  await db.insertInto('registration_queue').values(row).execute();
}

/** The waiting registrations, oldest first, and how many there are. */
export async function listQueue(db: Queryable, offset: number, limit: number): Promise<{ rows: QueueRow[]; count: number }> {
  const [rows, c] = await Promise.all([
    db.selectFrom('registration_queue').selectAll().orderBy('created', 'asc').orderBy('id', 'asc').offset(offset).limit(limit).execute(),
    db.selectFrom('registration_queue').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(c.n) };
}

/** A waiting registration by username (case-insensitive, through its slug). */
export async function queuedBySlug(db: Queryable, slug: string): Promise<QueueRow | undefined> {
  return db.selectFrom('registration_queue').selectAll().where('userslug', '=', slug).executeTakeFirst();
}

/** True when a waiting registration holds this slug or address. */
export async function queueHolds(db: Queryable, slug: string, email: string): Promise<'username' | 'email' | null> {
  const row = await db.selectFrom('registration_queue').select(['userslug', 'email']).where((eb) => eb.or([eb('userslug', '=', slug), eb('email', '=', email)])).executeTakeFirst();
  if (!row) return null;
  return row.userslug === slug ? 'username' : 'email';
}

/** True when a waiting registration holds this username slug. */
export async function queueHoldsName(db: Queryable, slug: string): Promise<boolean> {
  return !!(await db.selectFrom('registration_queue').select('id').where('userslug', '=', slug).executeTakeFirst());
}

/** Removes a waiting registration; false when another request took it first. */
export async function dequeue(w: Writer, id: number): Promise<boolean> {
  const db = w.tx;
  const res = await db.deleteFrom('registration_queue').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Stores an invitation. */
export async function insertInvitation(w: Writer, row: Insertable<InvitationsTable>): Promise<void> {
  const db = w.tx;
  await db.insertInto('invitations').values(row).execute();
}

/** An invitation by its token's hash. */
export async function invitationByHash(db: Queryable, hash: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('invitations').selectAll().where('token_hash', '=', hash).executeTakeFirst();
}

/** Takes an unused, unexpired invitation for a new member; false when it was used (or expired) meanwhile. */
export async function useInvitation(w: Writer, hash: string, uid: number, now: number): Promise<boolean> {
  const db = w.tx;
  const res = await db.updateTable('invitations').set({ used_at: now, used_by: uid }).where('token_hash', '=', hash).where('used_at', '=', 0).where('expires', '>', now).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** How many invitations a member has sent. */
export async function countInvitationsBy(db: Queryable, uid: number): Promise<number> {
  const r = await db.selectFrom('invitations').select((eb) => eb.fn.countAll<number>().as('n')).where('inviter', '=', uid).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Pending (unused, unexpired) invitations grouped by inviter, for the queue page. */
export async function pendingInvitations(db: Queryable, now: number): Promise<{ inviter: number; email: string }[]> {
  return db.selectFrom('invitations').select(['inviter', 'email']).where('used_at', '=', 0).where('expires', '>', now).orderBy('inviter').orderBy('created').limit(500).execute();
}

/** Records (or renews) a member's consent; `gdpr`/`tos` set the time now when true. */
export async function setConsent(w: Writer, uid: number, c: { gdpr?: boolean; tos?: boolean }, now: number): Promise<void> {
  const db = w.tx;
  const values = { uid, gdpr_consent: c.gdpr ? 1 : 0, gdpr_at: c.gdpr ? now : 0, tos_at: c.tos ? now : 0 };
  const set: { gdpr_consent?: number; gdpr_at?: number; tos_at?: number } = {};
  if (c.gdpr) Object.assign(set, { gdpr_consent: 1, gdpr_at: now });
  if (c.tos) set.tos_at = now;
  await db
    .insertInto('user_consents')
    .values(values)
    .onConflict((oc) => (Object.keys(set).length ? oc.column('uid').doUpdateSet(set) : oc.column('uid').doNothing()))
    .execute();
}

/** A member's consent row. */
export async function consentOf(db: Queryable, uid: number) {
  return db.selectFrom('user_consents').selectAll().where('uid', '=', uid).executeTakeFirst();
}

/** Remembers the address a member registered from. */
export async function addIp(w: Writer, ip: string, uid: number, now: number): Promise<void> {
  const db = w.tx;
  if (ip) await db.insertInto('registration_ips').values({ ip, uid, created: now }).execute();
}

/** True when some member registered from this address. */
export async function ipKnown(db: Queryable, ip: string): Promise<boolean> {
  return !!(await db.selectFrom('registration_ips').select('uid').where('ip', '=', ip).limit(1).executeTakeFirst());
}

/** Members who registered from each of these addresses (the queue's ipMatch), one query. */
export async function uidsByIps(db: Queryable, ips: string[]): Promise<{ ip: string; uid: number }[]> {
  if (!ips.length) return [];
  return db.selectFrom('registration_ips').select(['ip', 'uid']).where('ip', 'in', ips).limit(1000).execute();
}
