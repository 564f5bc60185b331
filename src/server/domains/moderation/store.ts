import { sql, type Insertable, type Selectable } from 'kysely';
import type { Writer } from '../../core/action.js';
import { IP_BLACKLIST } from '../../core/tags.js';
import type { Queryable } from '../../db/index.js';
import type { MemberMutesTable, ModerationActionsTable, ModerationNotesTable } from '../../db/schema.js';
import { NO_NUM, type BatchPart } from '../../db/prepared.js';

export type ActionRow = Selectable<ModerationActionsTable>;
export type MuteRow = Selectable<MemberMutesTable>;
export type NoteRow = Selectable<ModerationNotesTable>;

const DAY_MS = 86_400_000;

/** Records a ban, unban, mute or unmute. */
export async function insertAction(w: Writer, row: Insertable<ModerationActionsTable>): Promise<void> {
  const db = w.tx;
  await db.insertInto('moderation_actions').values(row).execute();
}

/** A member's bans and mutes (with their lifting), newest first. */
export async function actionsOf(db: Queryable, uid: number, limit: number): Promise<ActionRow[]> {
  return db.selectFrom('moderation_actions').selectAll().where('uid', '=', uid).orderBy('id', 'desc').limit(limit).execute();
}

/** The mute in force on a member (expired ones included: the caller checks `until`). */
export async function muteOf(db: Queryable, uid: number): Promise<MuteRow | undefined> {
  return db.selectFrom('member_mutes').selectAll().where('uid', '=', uid).executeTakeFirst();
}

/** Mutes a member (replacing an earlier mute). */
export async function setMute(w: Writer, row: MuteRow): Promise<void> {
  const db = w.tx;
  await db
    .insertInto('member_mutes')
    .values(row)
    .onConflict((oc) => oc.column('uid').doUpdateSet({ until: row.until, reason: row.reason, by_uid: row.by_uid, created: row.created }))
    .execute();
}

/** Lifts a member's mute; true when there was one. */
export async function deleteMute(w: Writer, uid: number): Promise<boolean> {
  const db = w.tx;
  const res = await db.deleteFrom('member_mutes').where('uid', '=', uid).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Adds one sighting of an address for a member: one row per member, address and UTC day. */
export async function recordIp(w: Writer, uid: number, ip: string, now: number): Promise<void> {
  const db = w.tx;
  const day = Math.floor(now / DAY_MS);
  await db
    .insertInto('ip_history')
    .values({ uid, ip, day, first_seen: now, last_seen: now, hits: 1 })
    .onConflict((oc) => oc.columns(['uid', 'ip', 'day']).doUpdateSet({ last_seen: now, hits: sql`ip_history.hits + 1` }))
    .execute();
}

/** A member's addresses, each with when it was first and last seen and on how many days, newest first. */
export async function addressesOf(db: Queryable, uid: number, limit: number) {
  return db
    .selectFrom('ip_history')
    .select((eb) => ['ip', eb.fn.min('first_seen').as('first_seen'), eb.fn.max('last_seen').as('last_seen'), eb.fn.countAll<number>().as('days')])
    .where('uid', '=', uid)
    .groupBy('ip')
    .orderBy('last_seen', 'desc')
    .limit(limit)
    .execute();
}

/** The other members seen at any of these addresses, with the addresses they share (one query). */
export async function othersAt(db: Queryable, ips: string[], exceptUid: number, limit: number): Promise<{ uid: number; ip: string }[]> {
  if (!ips.length) return [];
  return db
    .selectFrom('ip_history')
    .select(['uid', 'ip'])
    .distinct()
    .where('ip', 'in', ips)
    .where('uid', '!=', exceptUid)
    .orderBy('uid')
    .limit(limit)
    .execute();
}

/** Adds a moderator's note on a member. */
export async function insertNote(w: Writer, row: Insertable<ModerationNotesTable>): Promise<NoteRow> {
  const db = w.tx;
  return db.insertInto('moderation_notes').values(row).returningAll().executeTakeFirstOrThrow();
}

/** A member's moderation notes, newest first. */
export async function notesOf(db: Queryable, uid: number, limit: number): Promise<NoteRow[]> {
  return db.selectFrom('moderation_notes').selectAll().where('uid', '=', uid).orderBy('id', 'desc').limit(limit).execute();
}

/** The blacklist's text as saved. */
export async function blacklistText(db: Queryable): Promise<string> {
  return (await db.selectFrom('ip_blacklist').select('rules').where('id', '=', 1).executeTakeFirst())?.rules ?? '';
}

/** Saves the blacklist's text. */
export async function saveBlacklist(w: Writer, rules: string, now: number): Promise<void> {
  w.changed(IP_BLACKLIST);
  const db = w.tx;
  await db
    .insertInto('ip_blacklist')
    .values({ id: 1, rules, updated: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ rules, updated: now }))
    .execute();
}

/** Counts a refusal by a rule. */
export async function countHit(w: Writer, rule: string, now: number): Promise<void> {
  const db = w.tx;
  await db
    .insertInto('ip_blacklist_hits')
    .values({ rule, hits: 1, last_hit: now })
    .onConflict((oc) => oc.column('rule').doUpdateSet({ hits: sql`ip_blacklist_hits.hits + 1`, last_hit: now }))
    .execute();
}

/** Hit counts of these rules. */
export async function hitsOf(db: Queryable, rules: string[]): Promise<Map<string, { hits: number; lastHit: number }>> {
  if (!rules.length) return new Map();
  const rows = await db.selectFrom('ip_blacklist_hits').selectAll().where('rule', 'in', rules).execute();
  return new Map(rows.map((r) => [r.rule, { hits: Number(r.hits), lastHit: Number(r.last_hit) }]));
}

/** A member's mute (until, 0 for ever, and the reason), as a part of a batched read. */
export function mutePart(uid: number): BatchPart<{ until: number; reason: string } | null> {
  return {
    shape: 'moderation.mute',
    build: (db, $) =>
      db
        .selectFrom('member_mutes')
        .select((eb) => [eb.ref('uid').as('id'), eb.ref('until').as('num'), eb.ref('reason').as('txt')])
        .where('uid', '=', $(0)),
    values: [uid],
    read: (rows) => (rows[0] ? { until: Number(rows[0].num ?? 0), reason: rows[0].txt ?? '' } : null),
  };
}

/** The latest moderation note on a member ('' when none), as a part of a batched read (null: not asked). */
export function latestNotePart(uid: number | null): BatchPart<string> {
  return {
    shape: 'moderation.latest-note',
    build: (db, $) =>
      db
        .selectFrom('moderation_notes')
        .select((eb) => [eb.ref('id').as('id'), NO_NUM.as('num'), eb.ref('note').as('txt')])
        .where('uid', '=', $(0))
        .orderBy('id', 'desc')
        .limit(1),
    values: uid === null ? null : [uid],
    read: (rows) => rows[0]?.txt ?? '',
  };
}

/** A member's latest `limit` addresses, newest first, as a part of a batched read (null: not asked). */
export function latestIpsPart(uid: number | null, limit: number): BatchPart<string[]> {
  return {
    shape: `moderation.latest-ips-${limit}`,
    build: (db, $) =>
      db
        .selectFrom('ip_history')
        .select([sql<number>`max(last_seen)`.as('id'), NO_NUM.as('num'), sql<string>`ip`.as('txt')])
        .where('uid', '=', $(0))
        .groupBy('ip')
        .orderBy(sql`max(last_seen)`, 'desc')
        .limit(limit),
    values: uid === null ? null : [uid],
    read: (rows) => rows.map((r) => r.txt ?? ''),
  };
}
