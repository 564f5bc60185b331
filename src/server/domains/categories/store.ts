import { sql, type Insertable, type Updateable } from 'kysely';
import type { Writer } from '../../core/action.js';
import { CATEGORIES, categoryTag, memberTag } from '../../core/tags.js';
import type { Queryable } from '../../db/index.js';
import type { CategoriesTable } from '../../db/schema.js';
import type { CategoryRow } from '../../hooks/types.js';
import { countPart, NO_TEXT, type BatchPart } from '../../db/prepared.js';

export type { CategoryRow };

/** One category by cid. */
export async function byCid(db: Queryable, cid: number): Promise<CategoryRow | undefined> {
  return db.selectFrom('categories').selectAll().where('cid', '=', cid).executeTakeFirst();
}

/** Several categories by cid (any order). */
export async function byCids(db: Queryable, cids: number[]): Promise<CategoryRow[]> {
  if (!cids.length) return [];
  return db
    .selectFrom('categories')
    .selectAll()
    .where('cid', 'in', [...new Set(cids)])
    .execute();
}

/** Every category, siblings in display order (the table is small: tens to hundreds of rows). */
export async function all(db: Queryable): Promise<CategoryRow[]> {
  return db.selectFrom('categories').selectAll().orderBy('parent_cid').orderBy('position').orderBy('cid').execute();
}

/** The children of a category (0: the top level), in display order. */
export async function children(db: Queryable, parentCid: number): Promise<CategoryRow[]> {
  return db.selectFrom('categories').selectAll().where('parent_cid', '=', parentCid).orderBy('position').orderBy('cid').execute();
}

/** How many categories exist. */
export async function count(db: Queryable): Promise<number> {
  const row = await db
    .selectFrom('categories')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** True when another category uses the handle. */
export async function handleTaken(db: Queryable, handle: string, exceptCid = 0): Promise<boolean> {
  const row = await db.selectFrom('categories').select('cid').where('handle', '=', handle).where('cid', '!=', exceptCid).executeTakeFirst();
  return !!row;
}

/**
 * The handles starting with a prefix (to pick the next free "-N" suffix in one query).
 * Handles are slugs, so the prefix holds no LIKE wildcards; callers compare exactly.
 */
export async function handlesLike(db: Queryable, prefix: string): Promise<string[]> {
  const rows = await db.selectFrom('categories').select('handle').where('handle', 'like', `${prefix}%`).execute();
  return rows.map((r) => r.handle);
}

/** Inserts a category and returns the row. */
export async function insert(w: Writer, row: Insertable<CategoriesTable>): Promise<CategoryRow> {
  const category = await w.tx.insertInto('categories').values(row).returningAll().executeTakeFirstOrThrow();
  w.changed(categoryTag(category.cid), CATEGORIES);
  return category;
}

/** Changes a category's fields. */
export async function update(w: Writer, cid: number, fields: Updateable<CategoriesTable>): Promise<void> {
  if (!Object.keys(fields).length) return;
  await w.tx.updateTable('categories').set(fields).where('cid', '=', cid).execute();
  w.changed(categoryTag(cid), CATEGORIES);
}

/** Sets the position of several categories (after a reorder). */
export async function setPositions(w: Writer, positions: { cid: number; position: number }[]): Promise<void> {
  for (const p of positions) await w.tx.updateTable('categories').set({ position: p.position }).where('cid', '=', p.cid).execute();
  w.changed(CATEGORIES, ...positions.map((p) => categoryTag(p.cid)));
}

/** Moves every child of a category under another parent. */
export async function reparentChildren(w: Writer, fromCid: number, toCid: number): Promise<void> {
  await w.tx.updateTable('categories').set({ parent_cid: toCid }).where('parent_cid', '=', fromCid).execute();
  w.changed(CATEGORIES, categoryTag(fromCid), categoryTag(toCid));
}

/** Deletes a category row. */
export async function remove(w: Writer, cid: number): Promise<void> {
  await w.tx.deleteFrom('categories').where('cid', '=', cid).execute();
  w.changed(CATEGORIES, categoryTag(cid));
}

/** Adds to the topic and post counters in one statement, so concurrent writers never lose an update. */
export async function bump(w: Writer, cid: number, topics: number, posts: number): Promise<void> {
  if (!topics && !posts) return;
  w.changed(categoryTag(cid));
  await w.tx
    .updateTable('categories')
    .set((eb) => ({ topic_count: eb('topic_count', '+', topics), post_count: eb('post_count', '+', posts) }))
    .where('cid', '=', cid)
    .execute();
}

/** Every watch state a member chose, by cid (categories without a row follow the default). */
export async function watchStates(db: Queryable, uid: number): Promise<Map<number, string>> {
  if (uid <= 0) return new Map();
  return new Map((await db.selectFrom('category_watches').select(['cid', 'state']).where('uid', '=', uid).execute()).map((r) => [r.cid, r.state]));
}

/** Sets a member's watch state of categories, or clears it (null: back to the default). */
export async function setWatchState(w: Writer, uid: number, cids: number[], state: string | null): Promise<void> {
  if (!cids.length) return;
  w.changed(memberTag(uid));
  const db = w.tx;
  if (state === null) {
    await db.deleteFrom('category_watches').where('uid', '=', uid).where('cid', 'in', cids).execute();
    return;
  }
  await db
    .insertInto('category_watches')
    .values(cids.map((cid) => ({ cid, uid, state })))
    .onConflict((oc) => oc.columns(['cid', 'uid']).doUpdateSet({ state }))
    .execute();
}

/** The members whose chosen state of a category is the given one (e.g. its watchers). */
export async function uidsInState(db: Queryable, cid: number, state: string): Promise<number[]> {
  return (await db.selectFrom('category_watches').select('uid').where('cid', '=', cid).where('state', '=', state).execute()).map((r) => r.uid);
}

/** Of these members, those who ignore the category. */
export async function ignoring(db: Queryable, cid: number, uids: number[]): Promise<Set<number>> {
  if (!uids.length) return new Set();
  const rows = await db
    .selectFrom('category_watches')
    .select('uid')
    .where('cid', '=', cid)
    .where('state', '=', 'ignoring')
    .where('uid', 'in', [...new Set(uids)])
    .execute();
  return new Set(rows.map((r) => r.uid));
}

/**
 * Topics started in a category per day (UTC day number → count) since `since`: one grouped
 * query over the topics' timestamps (deleted and scheduled topics left out).
 */
export async function topicsPerDay(db: Queryable, cid: number, since: number): Promise<Map<number, number>> {
  const day = sql<number>`(${sql.ref('created')} / 86400000)`;
  const rows = await db
    .selectFrom('topics')
    .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
    .where('cid', '=', cid)
    .where('created', '>=', since)
    .where('deleted', '=', 0)
    .where('scheduled', '=', 0)
    .groupBy(day)
    .execute();
  return new Map(rows.map((r) => [Number(r.day), Number(r.n)]));
}

/** Posts made in a category per day (UTC day number → count) since `since`: one grouped query. */
export async function postsPerDay(db: Queryable, cid: number, since: number): Promise<Map<number, number>> {
  const day = sql<number>`(${sql.ref('posts.created')} / 86400000)`;
  const rows = await db
    .selectFrom('posts')
    .innerJoin('topics', 'topics.tid', 'posts.tid')
    .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
    .where('topics.cid', '=', cid)
    .where('posts.created', '>=', since)
    .where('posts.deleted', '=', 0)
    .groupBy(day)
    .execute();
  return new Map(rows.map((r) => [Number(r.day), Number(r.n)]));
}

/** How many categories a member watches, as a part of a batched read (null: not asked). */
export function watchedCategoryCountPart(uid: number | null): BatchPart<number> {
  return countPart(
    'categories.count-watched',
    (db, $) =>
      db
        .selectFrom('category_watches')
        .select([sql<number>`0`.as('id'), sql<number>`count(*)`.as('num'), NO_TEXT.as('txt')])
        .where('uid', '=', $(0))
        .where('state', '=', 'watching'),
    uid === null ? null : [uid],
  );
}
