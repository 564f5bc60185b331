import type { Selectable } from 'kysely';
import type { Writer } from '../../core/action.js';
import type { Queryable } from '../../db/index.js';
import type { MailCodesTable, MailOutboxTable } from '../../db/schema.js';

export type OutboxRow = Selectable<MailOutboxTable>;
export type CodeRow = Selectable<MailCodesTable>;

/** Writes a mail to the outbox, due now; returns its id, 0 when a mail with its `key` was written before. */
export async function insertMail(
  w: Writer,
  m: { uid: number; to: string; template: string; subject: string; text: string; html: string; headers: Record<string, string>; now: number; key?: string },
): Promise<number> {
  const row = await w.tx
    .insertInto('mail_outbox')
    .values({ uid: m.uid, to_address: m.to, template: m.template, subject: m.subject, text: m.text, html: m.html, headers: JSON.stringify(m.headers), next_attempt: m.now, created: m.now, dedupe_key: m.key ?? null })
    .$if(m.key !== undefined, (q) => q.onConflict((oc) => oc.column('dedupe_key').doNothing()))
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? 0;
}

/** Ids of mails due now: queued and past their back-off, or left 'sending' by a process whose lease ran out. */
export async function dueIds(db: Queryable, now: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('mail_outbox')
    .select('id')
    .where((eb) => eb.or([eb.and([eb('status', '=', 'queued'), eb('next_attempt', '<=', now)]), eb.and([eb('status', '=', 'sending'), eb('lease_until', '<', now)])]))
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** How many mails wait in the outbox (queued or being sent), and the oldest one's time (0: none). */
export async function waiting(db: Queryable): Promise<{ count: number; oldest: number }> {
  const row = await db
    .selectFrom('mail_outbox')
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min<number | string | null>('created').as('oldest')])
    .where('status', 'in', ['queued', 'sending'])
    .executeTakeFirst();
  return { count: Number(row?.n ?? 0), oldest: Number(row?.oldest ?? 0) };
}

/**
 * Takes one mail for sending with a conditional UPDATE: of two processes racing for it,
 * exactly one changes the row, so a mail is handed to the SMTP server once.
 */
export async function claim(db: Queryable, id: number, now: number, leaseMs: number): Promise<OutboxRow | null> {
  const res = await db
    .updateTable('mail_outbox')
    .set((eb) => ({ status: 'sending', lease_until: now + leaseMs, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where((eb) => eb.or([eb.and([eb('status', '=', 'queued'), eb('next_attempt', '<=', now)]), eb.and([eb('status', '=', 'sending'), eb('lease_until', '<', now)])]))
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return null;
  return (await db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** Marks a mail sent. */
export async function markSent(db: Queryable, id: number, now: number): Promise<void> {
  await db.updateTable('mail_outbox').set({ status: 'sent', sent_at: now, lease_until: 0, last_error: '' }).where('id', '=', id).execute();
}

/** Puts a mail back in the queue for a later attempt (or gives up: 'failed'). */
export async function markRetry(db: Queryable, id: number, error: string, nextAttempt: number, failed: boolean): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ status: failed ? 'failed' : 'queued', next_attempt: nextAttempt, lease_until: 0, last_error: error.slice(0, 1000) })
    .where('id', '=', id)
    .execute();
}


/** Stores a code's hash. */
export async function insertCode(w: Writer, c: { hash: string; uid: number; kind: string; email: string; now: number; expires: number }): Promise<void> {
  await w.tx.insertInto('mail_codes').values({ code_hash: c.hash, uid: c.uid, kind: c.kind, email: c.email, created: c.now, expires: c.expires }).execute();
}

/** A code by its hash and kind. */
export async function codeByHash(db: Queryable, hash: string, kind: string): Promise<CodeRow | undefined> {
  return db.selectFrom('mail_codes').selectAll().where('code_hash', '=', hash).where('kind', '=', kind).executeTakeFirst();
}

/** When the member's newest code of a kind was made (0: never). */
export async function lastCodeTime(db: Queryable, uid: number, kind: string): Promise<number> {
  const row = await db.selectFrom('mail_codes').select((eb) => eb.fn.max('created').as('t')).where('uid', '=', uid).where('kind', '=', kind).executeTakeFirst();
  return Number(row?.t ?? 0);
}

/** Marks a code used if it still is unused and unexpired; false when another request got there first. */
export async function useCode(w: Writer, hash: string, now: number): Promise<boolean> {
  const res = await w.tx.updateTable('mail_codes').set({ used_at: now }).where('code_hash', '=', hash).where('used_at', '=', 0).where('expires', '>', now).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Ends a member's earlier unused codes of a kind (a new reset link voids the old one). */
export async function voidCodes(w: Writer, uid: number, kind: string, now: number): Promise<void> {
  await w.tx.updateTable('mail_codes').set({ used_at: now }).where('uid', '=', uid).where('kind', '=', kind).where('used_at', '=', 0).execute();
}

/** Records that a member wants no more mail of a notification type. */
export async function unsubscribe(w: Writer, uid: number, type: string, now: number): Promise<void> {
  await w.tx.insertInto('mail_unsubscribes').values({ uid, type, created: now }).onConflict((oc) => oc.columns(['uid', 'type']).doNothing()).execute();
}

/** True when the member unsubscribed from this notification type by email. */
export async function isUnsubscribed(db: Queryable, uid: number, type: string): Promise<boolean> {
  return !!(await db.selectFrom('mail_unsubscribes').select('uid').where('uid', '=', uid).where('type', '=', type).executeTakeFirst());
}

/** The notification types a member unsubscribed from by email. */
export async function unsubscribedTypes(db: Queryable, uid: number): Promise<string[]> {
  return (await db.selectFrom('mail_unsubscribes').select('type').where('uid', '=', uid).execute()).map((r) => r.type);
}

/** Forgets a member's unsubscribes of these types (they turned the mail on again in their settings). */
export async function resubscribe(w: Writer, uid: number, types: string[]): Promise<void> {
  if (types.length) await w.tx.deleteFrom('mail_unsubscribes').where('uid', '=', uid).where('type', 'in', types).execute();
}

/** The address of a member's newest usable code of a kind (an email change waiting for its link), or null. */
export async function openCodeEmail(db: Queryable, uid: number, kind: string, now: number): Promise<string | null> {
  const row = await db
    .selectFrom('mail_codes')
    .select('email')
    .where('uid', '=', uid)
    .where('kind', '=', kind)
    .where('used_at', '=', 0)
    .where('expires', '>', now)
    .orderBy('created', 'desc')
    .executeTakeFirst();
  return row?.email ?? null;
}
