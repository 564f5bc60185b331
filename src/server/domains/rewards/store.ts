import type { Selectable } from 'kysely';
import type { Writer } from '../../core/action.js';
import { REWARDS } from '../../core/tags.js';
import type { Queryable } from '../../db/index.js';
import type { RewardsTable } from '../../db/schema.js';

export type RewardRow = Selectable<RewardsTable>;

/** Every rule with how many members got its reward. */
export async function allRules(db: Queryable): Promise<(RewardRow & { awarded: number })[]> {
  const rows = await db
    .selectFrom('rewards')
    .selectAll('rewards')
    .select((eb) => eb.selectFrom('reward_claims').whereRef('reward_claims.rid', '=', 'rewards.id').select((e) => e.fn.countAll<number>().as('n')).as('awarded'))
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, awarded: Number(r.awarded ?? 0) }));
}

export async function insertRule(w: Writer, row: { condition: string; value: number; group_name: string; created: number }): Promise<number> {
  w.changed(REWARDS);
  const db = w.tx;
  const r = await db.insertInto('rewards').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function updateRule(w: Writer, id: number, fields: Partial<Pick<RewardRow, 'condition' | 'value' | 'group_name' | 'disabled'>>): Promise<boolean> {
  w.changed(REWARDS);
  const db = w.tx;
  const r = await db.updateTable('rewards').set(fields).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteRule(w: Writer, id: number): Promise<boolean> {
  w.changed(REWARDS);
  const db = w.tx;
  const r = await db.deleteFrom('rewards').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Of these rules, the ones the member already got. */
export async function claimedBy(db: Queryable, uid: number, rids: number[]): Promise<Set<number>> {
  if (!rids.length) return new Set();
  const rows = await db.selectFrom('reward_claims').select('rid').where('uid', '=', uid).where('rid', 'in', rids).execute();
  return new Set(rows.map((r) => r.rid));
}

/** Records a claim; false when the member already had it (another process was first). */
export async function claim(w: Writer, rid: number, uid: number): Promise<boolean> {
  const db = w.tx;
  const r = await db.insertInto('reward_claims').values({ rid, uid, claimed: Date.now() }).onConflict((oc) => oc.columns(['rid', 'uid']).doNothing()).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

const COLUMN = { postcount: 'postcount', reputation: 'reputation', topiccount: 'topiccount' } as const;

/**
 * Members who meet a rule and have not got it yet, a batch at a time (the recurring job).
 * Reads the users table's counters (read only; the users domain owns the rows).
 */
export async function dueMembers(db: Queryable, rule: RewardRow, now: number, limit: number): Promise<number[]> {
  let q = db.selectFrom('users').select('uid').where('users.uid', '>', 0);
  if (rule.condition === 'days') q = q.where('joindate', '<=', now - rule.value * 24 * 3600_000);
  else q = q.where(COLUMN[rule.condition as keyof typeof COLUMN], '>=', rule.value);
  const rows = await q
    .where((eb) => eb.not(eb.exists(eb.selectFrom('reward_claims').select('reward_claims.uid').whereRef('reward_claims.uid', '=', 'users.uid').where('reward_claims.rid', '=', rule.id))))
    .orderBy('uid')
    .limit(limit)
    .execute();
  return rows.map((r) => r.uid);
}
