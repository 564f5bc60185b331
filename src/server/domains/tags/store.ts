import { sql } from 'kysely';
import type { Writer } from '../../core/action.js';
import { memberTag, TAGS, topicTag } from '../../core/tags.js';
import type { Queryable } from '../../db/index.js';
import { countPart, NO_TEXT, type BatchPart } from '../../db/prepared.js';

/** The tags of the given topics, keyed by tid, each with its topic count. */
export async function tagsOfTopics(db: Queryable, tids: number[]): Promise<Map<number, { tag: string; count: number }[]>> {
  const out = new Map<number, { tag: string; count: number }[]>();
  if (!tids.length) return out;
  const rows = await db
    .selectFrom('topic_tags')
    .innerJoin('tags', 'tags.tag', 'topic_tags.tag')
    .select(['topic_tags.tid', 'topic_tags.tag', 'tags.topic_count'])
    .where('topic_tags.tid', 'in', [...new Set(tids)])
    .orderBy('topic_tags.tag')
    .execute();
  for (const r of rows) {
    let list = out.get(r.tid);
    if (!list) out.set(r.tid, (list = []));
    list.push({ tag: r.tag, count: r.topic_count });
  }
  return out;
}

/** The tag names of one topic. */
export async function tagNamesOf(db: Queryable, tid: number): Promise<string[]> {
  const rows = await db.selectFrom('topic_tags').select('tag').where('tid', '=', tid).orderBy('tag').execute();
  return rows.map((r) => r.tag);
}

/** Links tags to a topic, creating missing tags. */
export async function addTopicTags(w: Writer, tid: number, tags: string[]): Promise<void> {
  if (!tags.length) return;
  w.changed(topicTag(tid), TAGS);
  const db = w.tx;
  await db
    .insertInto('tags')
    .values(tags.map((tag) => ({ tag, topic_count: 0 })))
    .onConflict((oc) => oc.column('tag').doNothing())
    .execute();
  await db
    .insertInto('topic_tags')
    .values(tags.map((tag) => ({ tid, tag })))
    .onConflict((oc) => oc.columns(['tid', 'tag']).doNothing())
    .execute();
}

/** Unlinks tags from a topic. */
export async function removeTopicTags(w: Writer, tid: number, tags: string[]): Promise<void> {
  if (!tags.length) return;
  w.changed(topicTag(tid), TAGS);
  await w.tx.deleteFrom('topic_tags').where('tid', '=', tid).where('tag', 'in', tags).execute();
}

/** Adds to the topic counts of tags. */
export async function bumpTagCounts(w: Writer, tags: string[], by: number): Promise<void> {
  if (!tags.length || by === 0) return;
  w.changed(TAGS);
  await w.tx
    .updateTable('tags')
    .set((eb) => ({ topic_count: eb('topic_count', '+', by) }))
    .where('tag', 'in', tags)
    .execute();
}

/** One tag row. */
export async function byTag(db: Queryable, tag: string) {
  return db.selectFrom('tags').selectAll().where('tag', '=', tag).executeTakeFirst();
}

/** The most used tags. */
export async function topTags(db: Queryable, limit: number) {
  return db.selectFrom('tags').selectAll().where('topic_count', '>', 0).orderBy('topic_count', 'desc').orderBy('tag').limit(limit).execute();
}

/** Tids carrying a tag, in the given categories, newest activity first, with the total. */
export async function topicsWithTag(db: Queryable, tag: string, cids: number[], offset: number, limit: number): Promise<{ tids: number[]; count: number }> {
  if (!cids.length) return { tids: [], count: 0 };
  // Reads topics (same content area) only to filter by category and deletion and to order.
  const base = db
    .selectFrom('topic_tags')
    .innerJoin('topics', 'topics.tid', 'topic_tags.tid')
    .where('topic_tags.tag', '=', tag)
    .where('topics.deleted', '=', 0)
    // A scheduled topic shows nowhere until it is published.
    .where('topics.scheduled', '=', 0)
    .where('topics.cid', 'in', cids);
  const [rows, count] = await Promise.all([
    base.select('topics.tid').orderBy('topics.last_post_time', 'desc').orderBy('topics.tid', 'desc').offset(offset).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { tids: rows.map((r) => r.tid), count: Number(count?.n ?? 0) };
}

/** Adds (on) or removes a member's follow of a tag. */
export async function setFollow(w: Writer, uid: number, tag: string, on: boolean, at: number): Promise<void> {
  w.changed(memberTag(uid));
  const db = w.tx;
  if (on)
    await db
      .insertInto('tag_follows')
      .values({ tag, uid, created: at })
      .onConflict((oc) => oc.doNothing())
      .execute();
  else await db.deleteFrom('tag_follows').where('tag', '=', tag).where('uid', '=', uid).execute();
}

/** True when the member follows the tag. */
export async function isFollowing(db: Queryable, uid: number, tag: string): Promise<boolean> {
  if (uid <= 0) return false;
  return !!(await db.selectFrom('tag_follows').select('uid').where('tag', '=', tag).where('uid', '=', uid).executeTakeFirst());
}

/** The members following any of the tags (each once). */
export async function followersOf(db: Queryable, tags: string[]): Promise<number[]> {
  if (!tags.length) return [];
  return (
    await db
      .selectFrom('tag_follows')
      .select('uid')
      .distinct()
      .where('tag', 'in', [...new Set(tags)])
      .execute()
  ).map((r) => r.uid);
}

/** Used tags starting with a prefix (LIKE wildcards in it escaped), most used first. */
export async function tagsStartingWith(db: Queryable, prefix: string, limit: number): Promise<string[]> {
  const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
  const rows = await db
    .selectFrom('tags')
    .select('tag')
    .where('topic_count', '>', 0)
    .where(sql<boolean>`tag like ${`${escaped}%`} escape '\\'`)
    .orderBy('topic_count', 'desc')
    .orderBy('tag')
    .limit(limit)
    .execute();
  return rows.map((r) => r.tag);
}

/** Used tags containing a piece of text (LIKE wildcards escaped), most used first, with their counts. */
export async function tagsContaining(db: Queryable, text: string, limit: number): Promise<{ tag: string; topic_count: number }[]> {
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return db
    .selectFrom('tags')
    .select(['tag', 'topic_count'])
    .where('topic_count', '>', 0)
    .where(sql<boolean>`tag like ${`%${escaped}%`} escape '\\'`)
    .orderBy('topic_count', 'desc')
    .orderBy('tag')
    .limit(limit)
    .execute();
}

/** Every tag (used or not) containing a text, most used first, with the total: the admins' tag list. */
export async function adminTagList(
  db: Queryable,
  text: string,
  offset: number,
  limit: number,
): Promise<{ rows: { tag: string; topic_count: number }[]; count: number }> {
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  const base = text ? db.selectFrom('tags').where(sql<boolean>`tag like ${`%${escaped}%`} escape '\\'`) : db.selectFrom('tags');
  const rows = await base.select(['tag', 'topic_count']).orderBy('topic_count', 'desc').orderBy('tag').offset(offset).limit(limit).execute();
  const c = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return { rows: rows.map((r) => ({ tag: r.tag, topic_count: Number(r.topic_count) })), count: Number(c?.n ?? 0) };
}

/** Creates a tag with no topics (nothing when it exists). */
export async function ensureTag(w: Writer, tag: string): Promise<void> {
  w.changed(TAGS);
  await w.tx
    .insertInto('tags')
    .values({ tag, topic_count: 0 })
    .onConflict((oc) => oc.column('tag').doNothing())
    .execute();
}

/** The tids carrying a tag. */
export async function tidsWithTag(db: Queryable, tag: string): Promise<number[]> {
  return (await db.selectFrom('topic_tags').select('tid').where('tag', '=', tag).execute()).map((r) => r.tid);
}

/** Sets a tag's topic count from its links: the topics carrying it that are not deleted (reads topics, same content area). */
export async function recountTag(w: Writer, tag: string): Promise<void> {
  const db = w.tx;
  w.changed(TAGS);
  const row = await db
    .selectFrom('topic_tags')
    .innerJoin('topics', 'topics.tid', 'topic_tags.tid')
    .where('topic_tags.tag', '=', tag)
    .where('topics.deleted', '=', 0)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  await db
    .updateTable('tags')
    .set({ topic_count: Number(row?.n ?? 0) })
    .where('tag', '=', tag)
    .execute();
}

/**
 * Moves every link of tag `from` (topics and followers) to tag `to`, which is created when
 * missing; a topic or follower that already had `to` keeps it once. Then `from` is gone.
 */
export async function moveTag(w: Writer, from: string, to: string): Promise<void> {
  const db = w.tx;
  await ensureTag(w, to);
  const tids = await tidsWithTag(db, from);
  w.changed(...tids.map(topicTag));
  for (let i = 0; i < tids.length; i += 50) {
    const part = tids.slice(i, i + 50);
    await db
      .insertInto('topic_tags')
      .values(part.map((tid) => ({ tid, tag: to })))
      .onConflict((oc) => oc.columns(['tid', 'tag']).doNothing())
      .execute();
  }
  const follows = await db.selectFrom('tag_follows').select(['uid', 'created']).where('tag', '=', from).execute();
  for (let i = 0; i < follows.length; i += 20) {
    const part = follows.slice(i, i + 20);
    await db
      .insertInto('tag_follows')
      .values(part.map((f) => ({ tag: to, uid: f.uid, created: f.created })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  await deleteTag(w, from);
}

/** Deletes a tag: its links to topics, its followers and its row. */
export async function deleteTag(w: Writer, tag: string): Promise<void> {
  const db = w.tx;
  w.changed(TAGS, ...(await tidsWithTag(db, tag)).map(topicTag));
  await db.deleteFrom('topic_tags').where('tag', '=', tag).execute();
  await db.deleteFrom('tag_follows').where('tag', '=', tag).execute();
  await db.deleteFrom('tags').where('tag', '=', tag).execute();
}

/** How many tags a member follows, as a part of a batched read (null: not asked). */
export function followedTagCountPart(uid: number | null): BatchPart<number> {
  return countPart(
    'tags.count-followed',
    (db, $) =>
      db
        .selectFrom('tag_follows')
        .select([sql<number>`0`.as('id'), sql<number>`count(*)`.as('num'), NO_TEXT.as('txt')])
        .where('uid', '=', $(0)),
    uid === null ? null : [uid],
  );
}
