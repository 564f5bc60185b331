import { sql, type Selectable } from 'kysely';
import type { Writer } from '../../core/action.js';
import { topicTag } from '../../core/tags.js';
import type { Queryable } from '../../db/index.js';
import type { TopicThumbsTable, UploadsTable } from '../../db/schema.js';
import { countPart, NO_TEXT, type BatchPart } from '../../db/prepared.js';

export type UploadRow = Selectable<UploadsTable>;
export type ThumbRow = Selectable<TopicThumbsTable>;

/** Inserts an upload row; returns it. */
export async function insert(w: Writer, row: Omit<UploadRow, 'id'>): Promise<UploadRow> {
  return w.tx.insertInto('uploads').values(row).returningAll().executeTakeFirstOrThrow();
}

/** One upload by id. */
export async function byId(db: Queryable, id: number): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A member's upload of a stored path (the newest when uploaded twice). */
export async function byUidPath(db: Queryable, uid: number, path: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('uid', '=', uid).where('path', '=', path).orderBy('id', 'desc').executeTakeFirst();
}

/** Any upload row of a stored path. */
export async function anyByPath(db: Queryable, path: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('path', '=', path).orderBy('id', 'desc').executeTakeFirst();
}

/** A member's uploads, newest first. */
export async function ofMember(db: Queryable, uid: number, offset: number, limit: number): Promise<UploadRow[]> {
  return db.selectFrom('uploads').selectAll().where('uid', '=', uid).orderBy('created', 'desc').orderBy('id', 'desc').offset(offset).limit(limit).execute();
}

/** How many uploads a member has. */
export async function countOfMember(db: Queryable, uid: number): Promise<number> {
  const r = await db
    .selectFrom('uploads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('uid', '=', uid)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** Deletes an upload row. */
export async function remove(w: Writer, id: number): Promise<void> {
  await w.tx.deleteFrom('uploads').where('id', '=', id).execute();
}

/** Deletes every upload row naming a stored path (an administrator deletes the file). */
export async function removePath(w: Writer, path: string): Promise<void> {
  await w.tx.deleteFrom('uploads').where('path', '=', path).execute();
}

/** How many upload rows still name a stored path (the file goes when none does). */
export async function rowsOfPath(db: Queryable, path: string): Promise<number> {
  const r = await db
    .selectFrom('uploads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('path', '=', path)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** The ids of the items of a kind (posts) whose text uses a stored path, at most `limit`. */
export async function refIdsOfPath(db: Queryable, kind: string, path: string, limit: number): Promise<number[]> {
  return (await db.selectFrom('upload_refs').select('ref_id').where('kind', '=', kind).where('path', '=', path).limit(limit).execute()).map((r) => r.ref_id);
}

/** Replaces the stored paths one post, chat message or picture uses. */
export async function setRefs(w: Writer, kind: string, refId: number, paths: string[]): Promise<void> {
  await w.tx.deleteFrom('upload_refs').where('kind', '=', kind).where('ref_id', '=', refId).execute();
  await addRefs(w, kind, refId, paths);
}

/** Adds the stored paths a new post or chat message uses (none to replace). */
export async function addRefs(w: Writer, kind: string, refId: number, paths: string[]): Promise<void> {
  if (paths.length)
    await w.tx
      .insertInto('upload_refs')
      .values(paths.map((path) => ({ path, kind, ref_id: refId })))
      .onConflict((oc) => oc.doNothing())
      .execute();
}

/**
 * Uploads older than `before` that nothing uses: no reference (post, chat, picture) and no
 * topic thumbnail. Both checks use the path indexes; oldest first, at most `limit`.
 */
export async function orphans(db: Queryable, before: number, limit: number): Promise<UploadRow[]> {
  return db
    .selectFrom('uploads as u')
    .selectAll('u')
    .where('u.created', '<', before)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('upload_refs as r').select(sql.lit(1).as('one')).whereRef('r.path', '=', 'u.path'))))
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('topic_thumbs as t').select(sql.lit(1).as('one')).whereRef('t.path', '=', 'u.path'))))
    .orderBy('u.created')
    .limit(limit)
    .execute();
}

/** Adds one reference (kept until the referring item's references are replaced). */
export async function addRef(w: Writer, kind: string, refId: number, path: string): Promise<void> {
  await w.tx
    .insertInto('upload_refs')
    .values({ path, kind, ref_id: refId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** A topic's thumbnails in order. */
export async function thumbsOf(db: Queryable, tid: number): Promise<ThumbRow[]> {
  return db.selectFrom('topic_thumbs').selectAll().where('tid', '=', tid).orderBy('sort').orderBy('path').execute();
}

/** The thumbnails of many topics in one query. */
export async function thumbsOfMany(db: Queryable, tids: number[]): Promise<Map<number, ThumbRow[]>> {
  const out = new Map<number, ThumbRow[]>();
  if (!tids.length) return out;
  const rows = await db.selectFrom('topic_thumbs').selectAll().where('tid', 'in', tids).orderBy('tid').orderBy('sort').orderBy('path').execute();
  for (const r of rows) {
    const list = out.get(r.tid);
    if (list) list.push(r);
    else out.set(r.tid, [r]);
  }
  return out;
}

/** Adds a thumbnail at the end of a topic's list (no change when it is there already). */
export async function addThumb(w: Writer, tid: number, path: string, name: string): Promise<void> {
  w.changed(topicTag(tid));
  const last = await w.tx
    .selectFrom('topic_thumbs')
    .select((eb) => eb.fn.max('sort').as('m'))
    .where('tid', '=', tid)
    .executeTakeFirst();
  const sort = last?.m === null || last?.m === undefined ? 0 : Number(last.m) + 1;
  await w.tx
    .insertInto('topic_thumbs')
    .values({ tid, path, name, sort })
    .onConflict((oc) => oc.columns(['tid', 'path']).doNothing())
    .execute();
}

/** Moves a thumbnail to `order`, renumbering the others; false when the topic has no such thumbnail. */
export async function orderThumb(w: Writer, tid: number, path: string, order: number): Promise<boolean> {
  w.changed(topicTag(tid));
  const list = await thumbsOf(w.tx, tid);
  const i = list.findIndex((t) => t.path === path);
  if (i < 0) return false;
  const [moved] = list.splice(i, 1);
  list.splice(Math.min(Math.max(order, 0), list.length), 0, moved!);
  for (const [n, t] of list.entries()) {
    if (t.sort !== n) await w.tx.updateTable('topic_thumbs').set({ sort: n }).where('tid', '=', tid).where('path', '=', t.path).execute();
  }
  return true;
}

/** Removes a thumbnail; false when the topic had none by that path. */
export async function removeThumb(w: Writer, tid: number, path: string): Promise<boolean> {
  w.changed(topicTag(tid));
  const r = await w.tx.deleteFrom('topic_thumbs').where('tid', '=', tid).where('path', '=', path).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The first image of each topic's main post (kind 'topic-first', kept by the listeners), one query, with an uploaded name. */
export async function firstImages(db: Queryable, tids: number[]): Promise<Map<number, { path: string; name: string }>> {
  const out = new Map<number, { path: string; name: string }>();
  if (!tids.length) return out;
  const rows = await db
    .selectFrom('upload_refs as r')
    .leftJoin('uploads as u', 'u.path', 'r.path')
    .select(['r.ref_id as tid', 'r.path'])
    .select((eb) => eb.fn.min('u.name').as('name'))
    .where('r.kind', '=', 'topic-first')
    .where('r.ref_id', 'in', tids)
    .groupBy(['r.ref_id', 'r.path'])
    .execute();
  for (const r of rows) out.set(r.tid, { path: r.path, name: r.name ?? r.path.slice(r.path.lastIndexOf('/') + 1) });
  return out;
}

/** The stored images a post references (its upload_refs), for a topic's thumbnails beyond the chosen ones. */
export async function postImages(db: Queryable, pid: number): Promise<{ path: string; name: string }[]> {
  const rows = await db
    .selectFrom('upload_refs as r')
    .innerJoin('uploads as u', 'u.path', 'r.path')
    .select('r.path')
    .select((eb) => eb.fn.min('u.name').as('name'))
    .where('r.kind', '=', 'post')
    .where('r.ref_id', '=', pid)
    .where('u.mime', 'like', 'image/%')
    .groupBy('r.path')
    .orderBy('r.path')
    .execute();
  return rows.map((r) => ({ path: r.path, name: String(r.name) }));
}

/** Every upload row, newest first, optionally only those nothing uses (no reference, no thumbnail), with the total. */
export async function adminList(db: Queryable, orphansOnly: boolean, offset: number, limit: number): Promise<{ rows: UploadRow[]; count: number }> {
  let base = db.selectFrom('uploads as u');
  if (orphansOnly) {
    base = base
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('upload_refs as r').select(sql.lit(1).as('one')).whereRef('r.path', '=', 'u.path'))))
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('topic_thumbs as t').select(sql.lit(1).as('one')).whereRef('t.path', '=', 'u.path'))));
  }
  const rows = await base.selectAll('u').orderBy('u.created', 'desc').orderBy('u.id', 'desc').offset(offset).limit(limit).execute();
  const c = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return { rows, count: Number(c?.n ?? 0) };
}

/** Where each of these paths is used: references (posts, chats, pictures) and topic thumbnails, in two queries. */
export async function usesOf(db: Queryable, paths: string[]): Promise<Map<string, { kind: string; refId: number }[]>> {
  const out = new Map<string, { kind: string; refId: number }[]>();
  if (!paths.length) return out;
  const unique = [...new Set(paths)];
  const refs = await db.selectFrom('upload_refs').select(['path', 'kind', 'ref_id']).where('path', 'in', unique).execute();
  const thumbs = await db.selectFrom('topic_thumbs').select(['path', 'tid']).where('path', 'in', unique).execute();
  for (const r of refs) out.set(r.path, [...(out.get(r.path) ?? []), { kind: r.kind, refId: r.ref_id }]);
  for (const t of thumbs) out.set(t.path, [...(out.get(t.path) ?? []), { kind: 'thumb', refId: t.tid }]);
  return out;
}

/** How many files a member uploaded, as a part of a batched read (null: not asked). */
export function uploadCountPart(uid: number | null): BatchPart<number> {
  return countPart(
    'uploads.count-of-member',
    (db, $) =>
      db
        .selectFrom('uploads')
        .select([sql<number>`0`.as('id'), sql<number>`count(*)`.as('num'), NO_TEXT.as('txt')])
        .where('uid', '=', $(0)),
    uid === null ? null : [uid],
  );
}
