import { sql, type Insertable } from 'kysely';
import type { Writer } from '../../core/action.js';
import { memberTag } from '../../core/tags.js';
import type { Queryable } from '../../db/index.js';
import { runPrepared, slots } from '../../db/prepared.js';
import type { NotificationsTable } from '../../db/schema.js';
import type { NotificationRow } from '../../hooks/types.js';
import { ADMINISTRATORS, GLOBAL_MODS } from '../groups/service.js';

export type { NotificationRow };
export type NewNotification = Insertable<NotificationsTable>;

// Rows per INSERT: 18 parameters each stays far below SQLite's and PostgreSQL's limits.
const CHUNK = 500;

/**
 * Senders are kept as fixed-width tokens (',0000000007,'), newest first, so the list can be cut
 * after the newest KEPT_SENDERS in SQL (the same in both dialects) and a row stays small
 * however many members reply. A sender who dropped off the kept list and comes back counts again.
 */
export const SENDER_WIDTH = 11;
const KEPT_SENDERS = 20;

/** The stored token of one sender ('' for none): ',0000000007,'. */
export function senderToken(uid: number): string {
  return uid > 0 ? `,${String(uid).padStart(SENDER_WIDTH - 1, '0')},` : ',';
}

/**
 * Stores notifications, merging each into the reader's row with the same merge key: an
 * unread row adds the sender (newest first, counted once while kept) and moves to the top; a read row
 * becomes unread and its merge restarts with this sender. One statement per 500 readers.
 */
export async function upsertMany(w: Writer, rows: NewNotification[]): Promise<NotificationRow[]> {
  const out: NotificationRow[] = [];
  for (const r of rows) w.changed(memberTag(r.uid));
  for (let i = 0; i < rows.length; i += CHUNK) {
    // excluded.from_uids is the one sender's token ',0000000007,' (or ',' for none).
    const known = sql`notifications.from_uids like ${sql.lit('%')} || excluded.from_uids || ${sql.lit('%')}`;
    const merged = sql`excluded.from_uids || substr(replace(notifications.from_uids, excluded.from_uids, ${sql.lit(',')}), 2)`;
    const stored = await w.tx
      .insertInto('notifications')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.columns(['uid', 'merge_key']).doUpdateSet({
          from_uids: sql`case when notifications.read = 1 then excluded.from_uids else substr(${merged}, 1, ${sql.lit(1 + SENDER_WIDTH * KEPT_SENDERS)}) end`,
          from_count: sql`case when notifications.read = 1 then 1 when ${known} then notifications.from_count else notifications.from_count + 1 end`,
          from_uid: sql`excluded.from_uid`,
          type: sql`excluded.type`,
          subject_type: sql`excluded.subject_type`,
          subject_id: sql`excluded.subject_id`,
          path: sql`excluded.path`,
          body_key: sql`excluded.body_key`,
          body_params: sql`excluded.body_params`,
          pid: sql`excluded.pid`,
          tid: sql`excluded.tid`,
          cid: sql`excluded.cid`,
          importance: sql`excluded.importance`,
          read: 0,
          created: sql`excluded.created`,
        }),
      )
      .returningAll()
      .execute();
    out.push(...stored);
  }
  return out;
}

/** A page of a reader's notifications, newest first, optionally of some types. */
export async function list(db: Queryable, uid: number, opts: { types?: string[]; offset: number; limit: number; read?: 0 | 1 }): Promise<NotificationRow[]> {
  const types = opts.types;
  const read = opts.read;
  // Built once per shape (db/prepared.ts): every member's notifications page and menu reads it.
  return runPrepared<NotificationRow>(
    db,
    `notifications.list:${types ? types.length : 'all'}:${read ?? 'any'}`,
    ($) => {
      let q = db.selectFrom('notifications').selectAll().where('uid', '=', $(0));
      if (types) q = types.length ? q.where('type', 'in', slots($, 1, types.length)) : q.where(sql<boolean>`1 = 0`);
      const n = 1 + (types?.length ?? 0);
      if (read !== undefined) q = q.where('read', '=', read);
      return q.orderBy('created', 'desc').orderBy('id', 'desc').limit($(n)).offset($(n + 1));
    },
    [uid, ...(types ?? []), opts.limit, opts.offset],
  );
}

/**
 * A reader's notifications counted by type and read state, in one prepared statement: the
 * notifications page's total and unread count (of its filter's types) and every filter's
 * unread count come from it.
 */
export async function countsByType(db: Queryable, uid: number): Promise<{ type: string; read: number; n: number }[]> {
  const rows = await runPrepared<{ type: string; read: number; n: number | string }>(
    db,
    'notifications.countsByType',
    ($) =>
      db
        .selectFrom('notifications')
        .select((eb) => ['type', 'read', eb.fn.countAll<number>().as('n')])
        .where('uid', '=', $(0))
        .groupBy(['type', 'read']),
    [uid],
  );
  return rows.map((r) => ({ type: r.type, read: Number(r.read), n: Number(r.n) }));
}

/** How many notifications a reader has (of some types), and how many of them are unread. */
export async function counts(db: Queryable, uid: number, types?: string[]): Promise<{ total: number; unread: number }> {
  let q = db
    .selectFrom('notifications')
    .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.sum<number>(sql`case when read = 0 then 1 else 0 end`).as('unread')])
    .where('uid', '=', uid);
  if (types) q = types.length ? q.where('type', 'in', types) : q.where(sql<boolean>`1 = 0`);
  const row = await q.executeTakeFirst();
  return { total: Number(row?.total ?? 0), unread: Number(row?.unread ?? 0) };
}

/** Unread counts of several readers (a reader with none is absent). */
export async function unreadCounts(db: Queryable, uids: number[]): Promise<Map<number, number>> {
  if (!uids.length) return new Map();
  const rows = await db
    .selectFrom('notifications')
    .select((eb) => ['uid', eb.fn.countAll<number>().as('n')])
    .where('uid', 'in', uids)
    .where('read', '=', 0)
    .groupBy('uid')
    .execute();
  return new Map(rows.map((r) => [r.uid, Number(r.n)]));
}

/** Unread counts per type of one reader. */
export async function unreadByType(db: Queryable, uid: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('notifications')
    .select((eb) => ['type', eb.fn.countAll<number>().as('n')])
    .where('uid', '=', uid)
    .where('read', '=', 0)
    .groupBy('type')
    .execute();
  return new Map(rows.map((r) => [r.type, Number(r.n)]));
}

/** One notification by id. */
export async function byId(db: Queryable, id: number): Promise<NotificationRow | undefined> {
  return db.selectFrom('notifications').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Marks one of a reader's notifications read (1) or unread (0); the uid tells the write hook whose it is. */
export async function setRead(w: Writer, uid: number, id: number, read: 0 | 1): Promise<void> {
  w.changed(memberTag(uid));
  await w.tx.updateTable('notifications').set({ read }).where('id', '=', id).where('uid', '=', uid).execute();
}

/** Marks a reader's unread notifications with this merge key read; the number changed. */
export async function setReadByKey(w: Writer, uid: number, mergeKey: string): Promise<number> {
  w.changed(memberTag(uid));
  const res = await w.tx.updateTable('notifications').set({ read: 1 }).where('uid', '=', uid).where('merge_key', '=', mergeKey).where('read', '=', 0).executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Marks all of a reader's notifications read. */
export async function setAllRead(w: Writer, uid: number): Promise<void> {
  w.changed(memberTag(uid));
  await w.tx.updateTable('notifications').set({ read: 1 }).where('uid', '=', uid).where('read', '=', 0).execute();
}

/** Deletes one of a reader's notifications (the uid tells the write hook whose it is). */
export async function remove(w: Writer, uid: number, id: number): Promise<void> {
  w.changed(memberTag(uid));
  await w.tx.deleteFrom('notifications').where('id', '=', id).where('uid', '=', uid).execute();
}

/** Deletes every notification about a topic; returns the readers who had one unread. */
export async function removeForTopic(w: Writer, tid: number): Promise<number[]> {
  const had = await w.tx.selectFrom('notifications').select(['uid', 'read']).distinct().where('tid', '=', tid).execute();
  for (const r of had) w.changed(memberTag(r.uid));
  await w.tx.deleteFrom('notifications').where('tid', '=', tid).execute();
  return [...new Set(had.filter((r) => r.read === 0).map((r) => r.uid))];
}

/** The members who moderate a category: administrators, global moderators and its own moderators. */
export async function moderatorsOf(db: Queryable, cid: number): Promise<number[]> {
  const rows = await db
    .selectFrom('group_members')
    .select('uid')
    .where('group_name', 'in', [ADMINISTRATORS, GLOBAL_MODS])
    .union(
      db
        .selectFrom('privileges')
        .select(sql<number>`cast(substr(subject, 5) as integer)`.as('uid'))
        .where('cid', '=', cid)
        .where('privilege', '=', 'moderate')
        .where('subject', 'like', 'uid:%'),
    )
    .execute();
  return [...new Set(rows.map((r) => Number(r.uid)))];
}

/**
 * Records that these readers are told of the event `key` (`mention:<pid>`, …); returns those told
 * now for the first time. The receipts make telling idempotent: an event told twice (its
 * outbox row run again after a crash) finds every reader's receipt and tells nobody twice.
 */
export async function receive(w: Writer, key: string, uids: number[], now: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < uids.length; i += CHUNK) {
    const rows = await w.tx
      .insertInto('notification_receipts')
      .values(uids.slice(i, i + CHUNK).map((uid) => ({ event_key: key, uid, created: now })))
      .onConflict((oc) => oc.columns(['event_key', 'uid']).doNothing())
      .returning('uid')
      .execute();
    out.push(...rows.map((r) => r.uid));
  }
  return out;
}

/** Forgets receipts older than `before` (the outbox retries a row for hours, not days). */
export async function pruneReceipts(w: Writer, before: number): Promise<void> {
  await w.tx.deleteFrom('notification_receipts').where('created', '<', before).execute();
}

/**
 * Claims the mail of an event for the readers not mailed about this merge key within
 * `againAfterMs` (or since they read it: reading forgets the mark). One conditional upsert per
 * 500 readers, so two processes delivering one flood mail each reader once. Returns the claimed uids.
 */
export async function claimMail(w: Writer, uids: number[], mergeKey: string, now: number, againAfterMs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < uids.length; i += CHUNK) {
    const rows = await w.tx
      .insertInto('notification_mail_marks')
      .values(uids.slice(i, i + CHUNK).map((uid) => ({ uid, merge_key: mergeKey, mailed_at: now })))
      .onConflict((oc) =>
        oc
          .columns(['uid', 'merge_key'])
          .doUpdateSet({ mailed_at: sql`excluded.mailed_at` })
          .where('notification_mail_marks.mailed_at', '<=', now - againAfterMs),
      )
      .returning('uid')
      .execute();
    out.push(...rows.map((r) => r.uid));
  }
  return out;
}

/** Forgets that a reader was mailed (about one merge key, or all): they read it. */
export async function forgetMailed(w: Writer, uid: number, mergeKey?: string): Promise<void> {
  await w.tx
    .deleteFrom('notification_mail_marks')
    .where('uid', '=', uid)
    .$if(mergeKey !== undefined, (q) => q.where('merge_key', '=', mergeKey!))
    .execute();
}

/**
 * Members who may get a digest, by uid after `after`: live, with a confirmed address, and
 * (unless the forum's default sends digests) who chose a frequency; with their last digest.
 */
export async function digestCandidates(
  db: Queryable,
  after: number,
  everyone: boolean,
  limit: number,
): Promise<{ uid: number; settings: string; last_sent: number | null }[]> {
  const rows = await db
    .selectFrom('users as u')
    .leftJoin('digest_sends as d', 'd.uid', 'u.uid')
    .select(['u.uid', 'u.settings', 'd.last_sent'])
    .where('u.uid', '>', after)
    .where('u.deleted', '=', 0)
    .where('u.email_confirmed', '=', 1)
    .$if(!everyone, (q) => q.where('u.settings', 'like', '%"dailyDigestFreq"%'))
    .orderBy('u.uid')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ uid: r.uid, settings: r.settings, last_sent: r.last_sent === null ? null : Number(r.last_sent) }));
}

/** Claims a member's digest: moves their last-digest time to `now` unless it is after `dueBefore` (another run took it). */
export async function claimDigest(w: Writer, uid: number, now: number, dueBefore: number): Promise<boolean> {
  const rows = await w.tx
    .insertInto('digest_sends')
    .values({ uid, last_sent: now })
    .onConflict((oc) => oc.column('uid').doUpdateSet({ last_sent: now }).where('digest_sends.last_sent', '<=', dueBefore))
    .returning('uid')
    .execute();
  return rows.length > 0;
}

/**
 * A page of the topics a member watches (topic_follows 'follow') in the given categories,
 * newest activity first, and how many there are: the account page "watched". Deleted topics
 * are left out.
 */
export async function watchedTopicIds(db: Queryable, uid: number, cids: number[], offset: number, limit: number): Promise<{ tids: number[]; count: number }> {
  if (!cids.length) return { tids: [], count: 0 };
  const base = db
    .selectFrom('topic_follows as f')
    .innerJoin('topics as t', 't.tid', 'f.tid')
    .where('f.uid', '=', uid)
    .where('f.state', '=', 'follow')
    .where('t.deleted', '=', 0)
    .where('t.cid', 'in', cids);
  const [rows, total] = await Promise.all([
    base.select('t.tid').orderBy('t.last_post_time', 'desc').orderBy('t.tid', 'desc').offset(offset).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { tids: rows.map((r) => r.tid), count: Number(total?.n ?? 0) };
}

/** The tags a member follows, by name. */
export async function followedTags(db: Queryable, uid: number): Promise<string[]> {
  const rows = await db.selectFrom('tag_follows').select('tag').where('uid', '=', uid).orderBy('tag').execute();
  return rows.map((r) => r.tag);
}
