import { sql, type Selectable } from 'kysely';
import type { Writer } from '../../core/action.js';
import type { Queryable } from '../../db/index.js';
import type { FlagHistoryTable, FlagNotesTable, FlagReportsTable, FlagsTable } from '../../db/schema.js';
import { countPart, NO_NUM, NO_TEXT, type BatchPart } from '../../db/prepared.js';

export type FlagRow = Selectable<FlagsTable>;
export type ReportRow = Selectable<FlagReportsTable>;
export type NoteRow = Selectable<FlagNotesTable>;
export type HistoryRow = Selectable<FlagHistoryTable>;
/** A flag with its number of reports (NodeBB's `heat`). */
export type FlagWithHeat = FlagRow & { heat: number };

/** What the flags list may be narrowed by (every field optional; `cids` null: every category). */
export interface FlagFilter {
  state?: string;
  type?: string;
  assignee?: number;
  cid?: number;
  reporterId?: number;
  targetUid?: number;
  /** Category moderators: only post flags of these categories. null: every flag. */
  cids: number[] | null;
}

export type FlagSort = 'newest' | 'oldest' | 'reports';

const heat = sql<number>`(select count(*) from flag_reports r where r.flag_id = flags.flag_id)`;

/** The flag of a target, or undefined. */
export async function byTarget(db: Queryable, type: string, targetId: number): Promise<FlagRow | undefined> {
  return db.selectFrom('flags').selectAll().where('type', '=', type).where('target_id', '=', targetId).executeTakeFirst();
}

/** One flag, or undefined. */
export async function byId(db: Queryable, flagId: number): Promise<FlagRow | undefined> {
  return db.selectFrom('flags').selectAll().where('flag_id', '=', flagId).executeTakeFirst();
}

/** The flag of a target, created when there is none (of two concurrent creations, one row). */
export async function ensure(
  w: Writer,
  row: { type: string; target_id: number; target_uid: number; cid: number; room_id: number; created: number },
): Promise<{ flag: FlagRow; created: boolean }> {
  const inserted = await w.tx
    .insertInto('flags')
    .values({ ...row, last_report: row.created })
    .onConflict((oc) => oc.columns(['type', 'target_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { flag: inserted, created: true };
  return { flag: (await byTarget(w.tx, row.type, row.target_id))!, created: false };
}

/** A member's report of a flag, or undefined. */
export async function reportOf(db: Queryable, flagId: number, uid: number): Promise<ReportRow | undefined> {
  return db.selectFrom('flag_reports').selectAll().where('flag_id', '=', flagId).where('reporter_uid', '=', uid).executeTakeFirst();
}

/** Adds (or renews) a member's report and stamps the flag's last report time. */
export async function putReport(w: Writer, row: ReportRow): Promise<void> {
  await w.tx
    .insertInto('flag_reports')
    .values(row)
    .onConflict((oc) => oc.columns(['flag_id', 'reporter_uid']).doUpdateSet({ reason: row.reason, created: row.created }))
    .execute();
  await w.tx.updateTable('flags').set({ last_report: row.created }).where('flag_id', '=', row.flag_id).execute();
}

/** Removes a member's report; true when there was one. */
export async function removeReport(w: Writer, flagId: number, uid: number): Promise<boolean> {
  const r = await w.tx.deleteFrom('flag_reports').where('flag_id', '=', flagId).where('reporter_uid', '=', uid).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** How many reports of this type a member made since `since` (the daily limits). */
export async function reportsSince(db: Queryable, uid: number, type: string, since: number): Promise<number> {
  const r = await db
    .selectFrom('flag_reports')
    .innerJoin('flags', 'flags.flag_id', 'flag_reports.flag_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('flag_reports.reporter_uid', '=', uid)
    .where('flags.type', '=', type)
    .where('flag_reports.created', '>=', since)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** The number of reports of one flag. */
export async function heatOf(db: Queryable, flagId: number): Promise<number> {
  const r = await db
    .selectFrom('flag_reports')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('flag_id', '=', flagId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** Changes a flag's state and/or assignee. */
export async function update(w: Writer, flagId: number, fields: { state?: string; assignee?: number }): Promise<void> {
  await w.tx.updateTable('flags').set(fields).where('flag_id', '=', flagId).execute();
}

/** Deletes a flag with its reports, notes and history. */
export async function remove(w: Writer, flagId: number): Promise<void> {
  await w.tx.deleteFrom('flags').where('flag_id', '=', flagId).execute();
}

/** A page of flags by the filter and sort, with their heat, and the total. */
export async function list(db: Queryable, filter: FlagFilter, sort: FlagSort, offset: number, limit: number): Promise<{ rows: FlagWithHeat[]; count: number }> {
  if (filter.cids && !filter.cids.length) return { rows: [], count: 0 };
  let base = db.selectFrom('flags');
  if (filter.cids) base = base.where('type', '=', 'post').where('cid', 'in', filter.cids);
  if (filter.state) base = base.where('state', '=', filter.state);
  if (filter.type) base = base.where('type', '=', filter.type);
  if (filter.assignee !== undefined) base = base.where('assignee', '=', filter.assignee);
  if (filter.cid !== undefined) base = base.where('cid', '=', filter.cid);
  if (filter.targetUid !== undefined) base = base.where('target_uid', '=', filter.targetUid);
  if (filter.reporterId !== undefined) {
    const reporter = filter.reporterId;
    base = base.where((eb) =>
      eb.exists(eb.selectFrom('flag_reports as fr').select('fr.flag_id').whereRef('fr.flag_id', '=', 'flags.flag_id').where('fr.reporter_uid', '=', reporter)),
    );
  }
  let q = base.selectAll('flags').select(heat.as('heat'));
  if (sort === 'reports') q = q.orderBy(heat, 'desc').orderBy('flags.flag_id', 'desc');
  else q = q.orderBy('flags.flag_id', sort === 'oldest' ? 'asc' : 'desc');
  const [rows, count] = await Promise.all([q.offset(offset).limit(limit).execute(), base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst()]);
  return { rows: rows.map((r) => ({ ...r, heat: Number(r.heat) })), count: Number(count?.n ?? 0) };
}

/** When each flag the viewer may see was made since `since` (post flags of `cids` only, unless null: all). */
export async function createdSince(db: Queryable, cids: number[] | null, since: number): Promise<number[]> {
  if (cids && !cids.length) return [];
  let q = db.selectFrom('flags').select('created').where('created', '>=', since);
  if (cids) q = q.where('type', '=', 'post').where('cid', 'in', cids);
  return (await q.execute()).map((r) => Number(r.created));
}

/** The reports of one flag, oldest first. */
export async function reports(db: Queryable, flagId: number): Promise<ReportRow[]> {
  return db.selectFrom('flag_reports').selectAll().where('flag_id', '=', flagId).orderBy('created').orderBy('reporter_uid').execute();
}

/** The notes of one flag, newest first (NodeBB's order). */
export async function notes(db: Queryable, flagId: number): Promise<NoteRow[]> {
  return db.selectFrom('flag_notes').selectAll().where('flag_id', '=', flagId).orderBy('datetime', 'desc').execute();
}

/** Adds a note at the first free millisecond from `datetime` (a note is named by its flag and time). */
export async function addNote(w: Writer, row: { flag_id: number; uid: number; content: string; datetime: number }): Promise<NoteRow> {
  for (let at = row.datetime; ; at += 1) {
    const inserted = await w.tx
      .insertInto('flag_notes')
      .values({ ...row, datetime: at })
      .onConflict((oc) => oc.columns(['flag_id', 'datetime']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return inserted;
  }
}

/** One note of a flag by its time, or undefined. */
export async function noteAt(db: Queryable, flagId: number, datetime: number): Promise<NoteRow | undefined> {
  return db.selectFrom('flag_notes').selectAll().where('flag_id', '=', flagId).where('datetime', '=', datetime).executeTakeFirst();
}

/** Deletes one note. */
export async function removeNote(w: Writer, id: number): Promise<void> {
  await w.tx.deleteFrom('flag_notes').where('id', '=', id).execute();
}

/** Records a change of a flag. */
export async function addHistory(w: Writer, flagId: number, uid: number, fields: Record<string, unknown>, datetime: number): Promise<void> {
  await w.tx
    .insertInto('flag_history')
    .values({ flag_id: flagId, uid, fields: JSON.stringify(fields), datetime })
    .execute();
}

/** The history of one flag, newest first. */
export async function history(db: Queryable, flagId: number): Promise<HistoryRow[]> {
  return db.selectFrom('flag_history').selectAll().where('flag_id', '=', flagId).orderBy('id', 'desc').execute();
}

/** The members who reported a flag. */
export async function reporterUids(db: Queryable, flagId: number): Promise<number[]> {
  return (await db.selectFrom('flag_reports').select('reporter_uid').where('flag_id', '=', flagId).execute()).map((r) => r.reporter_uid);
}

/** The categories that have post flags (to work out which ones a category moderator sees). */
export async function flaggedCids(db: Queryable): Promise<number[]> {
  return (await db.selectFrom('flags').select('cid').distinct().where('type', '=', 'post').execute()).map((r) => r.cid);
}

/** Which of these flag ids exist (bulk actions). */
export async function byIds(db: Queryable, flagIds: number[]): Promise<FlagRow[]> {
  if (!flagIds.length) return [];
  return db.selectFrom('flags').selectAll().where('flag_id', 'in', flagIds).execute();
}

/** How many flags name a member as their target, as a part of a batched read. */
export function flagsOfMemberCountPart(uid: number): BatchPart<number> {
  return countPart(
    'flags.count-of-member',
    (db, $) =>
      db
        .selectFrom('flags')
        .select([sql<number>`0`.as('id'), sql<number>`count(*)`.as('num'), NO_TEXT.as('txt')])
        .where('target_uid', '=', $(0)),
    [uid],
  );
}

/** The id of the reader's own report of a member (NodeBB: flags.exists('user', uid, reader)), as a part of a batched read. */
export function readerFlagOfMemberPart(uid: number, reader: number): BatchPart<number | null> {
  return {
    shape: 'flags.reader-flag-of-member',
    build: (db, $) =>
      db
        .selectFrom('flags')
        .innerJoin('flag_reports', 'flag_reports.flag_id', 'flags.flag_id')
        .select((eb) => [eb.ref('flags.flag_id').as('id'), NO_NUM.as('num'), NO_TEXT.as('txt')])
        .where('flags.type', '=', 'user')
        .where('flags.target_id', '=', $(0))
        .where('flag_reports.reporter_uid', '=', $(1)),
    values: reader > 0 ? [uid, reader] : null,
    read: (rows) => (rows[0] ? Number(rows[0].id) : null),
  };
}
