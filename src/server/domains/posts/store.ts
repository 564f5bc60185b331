import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Writer } from '../../core/action.js';
import { memberTag, topicTag, userCountsTag } from '../../core/tags.js';
import type { Queryable } from '../../db/index.js';
import { runBatch, slots, type BatchPart } from '../../db/prepared.js';
import type { PostEditsTable, PostsTable } from '../../db/schema.js';
import type { TopicPostSort } from '../../../shared/types.js';

export type PostRow = Selectable<PostsTable>;
export type PostEditRow = Selectable<PostEditsTable>;

/** One post by pid. */
export async function byPid(db: Queryable, pid: number): Promise<PostRow | undefined> {
  return db.selectFrom('posts').selectAll().where('pid', '=', pid).executeTakeFirst();
}

/** Several posts by pid. */
export async function byPids(db: Queryable, pids: number[]): Promise<PostRow[]> {
  if (!pids.length) return [];
  return db.selectFrom('posts').selectAll().where('pid', 'in', [...new Set(pids)]).execute();
}

/** Inserts a post and returns the row. */
export async function insertPost(w: Writer, row: Insertable<PostsTable>): Promise<PostRow> {
  const post = await w.tx.insertInto('posts').values(row).returningAll().executeTakeFirstOrThrow();
  w.changed(topicTag(post.tid), userCountsTag(post.uid));
  return post;
}

/** Updates a post's fields. */
export async function updatePost(w: Writer, pid: number, fields: Updateable<PostsTable>): Promise<void> {
  const post = await w.tx.updateTable('posts').set(fields).where('pid', '=', pid).returning(['tid', 'uid']).executeTakeFirst();
  if (post) w.changed(topicTag(post.tid), userCountsTag(post.uid));
}

/** Deletes a post row for ever (its votes, bookmarks and edits cascade). */
export async function deletePost(w: Writer, pid: number): Promise<void> {
  const post = await w.tx.deleteFrom('posts').where('pid', '=', pid).returning(['tid', 'uid']).executeTakeFirst();
  if (post) w.changed(topicTag(post.tid), userCountsTag(post.uid));
}

/** A page of a topic's posts in reading order (oldest first). */
export async function pageOfTopic(db: Queryable, tid: number, offset: number, limit: number): Promise<PostRow[]> {
  return db.selectFrom('posts').selectAll().where('tid', '=', tid).orderBy('created').orderBy('pid').offset(offset).limit(limit).execute();
}


/**
 * A page of a topic in a member's order (NodeBB's semantics): position 0 is always the main post,
 * the replies follow it in the chosen order (newest first, or most votes first, ties oldest
 * first). Each row comes with its index in time order (the index of its permalink and its "#n"),
 * whatever the order shown. Two queries at most (the main post on the first page, the replies).
 */
export async function sortedPageOfTopic(db: Queryable, tid: number, mainPid: number, sort: TopicPostSort, offset: number, limit: number): Promise<{ rows: PostRow[]; index: Map<number, number> }> {
  if (sort === 'oldest_to_newest') {
    const rows = await pageOfTopic(db, tid, offset, limit);
    return { rows, index: new Map(rows.map((p, i) => [p.pid, offset + i])) };
  }
  if (limit <= 0) return { rows: [], index: new Map() };
  // The time-order index of every post of the topic in one pass (a window), then the page of replies in the chosen order.
  const numbered = db
    .selectFrom('posts')
    .selectAll()
    .select(sql<number>`row_number() over (order by created, pid) - 1`.as('idx'))
    .where('tid', '=', tid)
    .as('n');
  let q = db.selectFrom(numbered).selectAll().where('pid', '!=', mainPid);
  q = sort === 'newest_to_oldest' ? q.orderBy('created', 'desc').orderBy('pid', 'desc') : q.orderBy(sql`upvotes - downvotes`, 'desc').orderBy('created').orderBy('pid');
  const [main, replies] = await Promise.all([offset === 0 ? byPid(db, mainPid) : undefined, q.offset(Math.max(0, offset - 1)).limit(offset === 0 ? limit - 1 : limit).execute()]);
  const index = new Map<number, number>(replies.map((p) => [p.pid, Number(p.idx)]));
  const rows: PostRow[] = replies.map(({ idx: _idx, ...p }) => p);
  if (main && main.tid === tid) {
    rows.unshift(main);
    index.set(main.pid, 0);
  }
  return { rows, index };
}

/** Where the post at a time-order index (0-based) stands in a member's order (0-based), to find its page. */
export async function sortedPositionOf(db: Queryable, tid: number, mainPid: number, sort: TopicPostSort, index: number, total: number): Promise<number> {
  if (sort === 'oldest_to_newest' || index <= 0) return Math.max(0, index);
  if (sort === 'newest_to_oldest') return Math.max(1, total - index);
  const [post] = await pageOfTopic(db, tid, index, 1);
  if (!post || post.pid === mainPid) return 0;
  const score = post.upvotes - post.downvotes;
  const row = await db
    .selectFrom('posts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tid', '=', tid)
    .where('pid', '!=', mainPid)
    .where((eb) =>
      eb.or([
        eb(sql`upvotes - downvotes`, '>', score),
        eb.and([eb(sql`upvotes - downvotes`, '=', score), eb.or([eb('created', '<', post.created), eb.and([eb('created', '=', post.created), eb('pid', '<', post.pid)])])]),
      ]),
    )
    .executeTakeFirst();
  return 1 + Number(row?.n ?? 0);
}

/** Every post of a topic (for purging). */
export async function allOfTopic(db: Queryable, tid: number): Promise<PostRow[]> {
  return db.selectFrom('posts').selectAll().where('tid', '=', tid).execute();
}

/** How many posts (deleted or not) a topic holds: the index space of its pages. */
export async function countInTopic(db: Queryable, tid: number): Promise<number> {
  const row = await db.selectFrom('posts').select((eb) => eb.fn.countAll<number>().as('n')).where('tid', '=', tid).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The 0-based position of a post in its topic. */
export async function indexOf(db: Queryable, post: Pick<PostRow, 'tid' | 'created' | 'pid'>): Promise<number> {
  const row = await db
    .selectFrom('posts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tid', '=', post.tid)
    .where((eb) => eb.or([eb('created', '<', post.created), eb.and([eb('created', '=', post.created), eb('pid', '<', post.pid)])]))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The 0-based positions of some posts of one topic, in one statement (never one per post). */
export async function indexesIn(db: Queryable, tid: number, pids: number[]): Promise<Map<number, number>> {
  if (!pids.length) return new Map();
  const ranked = db
    .selectFrom('posts')
    .select(['pid', sql<number>`row_number() over (order by created, pid) - 1`.as('n')])
    .where('tid', '=', tid)
    .as('ranked');
  const rows = await db.selectFrom(ranked).select(['pid', 'n']).where('pid', 'in', [...new Set(pids)]).execute();
  return new Map(rows.map((r) => [r.pid, Number(r.n)]));
}

/** The posts of a topic that answer one post (NodeBB's direct replies), oldest first. */
export async function repliesTo(db: Queryable, tid: number, pid: number): Promise<PostRow[]> {
  return db.selectFrom('posts').selectAll().where('tid', '=', tid).where('to_pid', '=', pid).orderBy('created').orderBy('pid').limit(500).execute();
}

/**
 * The newest visible posts of the published topics of some categories, made since a time
 * (NodeBB's GET /categories/{cid}/posts and /api/recent/posts/{term}).
 */
export async function recentPidsIn(db: Queryable, cids: number[], limit: number, since = 0): Promise<number[]> {
  if (!cids.length) return [];
  // The join reads topics (this same content area) only to filter by category and deletion.
  const rows = await db
    .selectFrom('posts')
    .innerJoin('topics', 'topics.tid', 'posts.tid')
    .select('posts.pid')
    .where('topics.cid', 'in', cids)
    .where('posts.created', '>=', since)
    .where('posts.deleted', '=', 0)
    .where('topics.deleted', '=', 0)
    .where('topics.scheduled', '=', 0)
    .orderBy('posts.created', 'desc')
    .orderBy('posts.pid', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.pid);
}

/** The newest post of a topic that is not deleted (its teaser). */
export async function latestVisible(db: Queryable, tid: number): Promise<PostRow | undefined> {
  return db.selectFrom('posts').selectAll().where('tid', '=', tid).where('deleted', '=', 0).orderBy('created', 'desc').orderBy('pid', 'desc').limit(1).executeTakeFirst();
}

/** Counts of a topic's posts that are not deleted, per author (for purges). */
export async function visibleCountsByUser(db: Queryable, tid: number): Promise<{ uid: number; n: number }[]> {
  const rows = await db
    .selectFrom('posts')
    .select(['uid', (eb) => eb.fn.countAll<number>().as('n')])
    .where('tid', '=', tid)
    .where('deleted', '=', 0)
    .groupBy('uid')
    .execute();
  return rows.map((r) => ({ uid: r.uid, n: Number(r.n) }));
}

/** Net vote score per author over a topic's posts (to take back reputation on purge). */
export async function voteScoreByAuthor(db: Queryable, tid: number): Promise<{ uid: number; score: number }[]> {
  const rows = await db
    .selectFrom('posts')
    .select(['uid', (eb) => eb.fn.sum<number>(eb('upvotes', '-', eb.ref('downvotes'))).as('score')])
    .where('tid', '=', tid)
    .groupBy('uid')
    .execute();
  return rows.map((r) => ({ uid: r.uid, score: Number(r.score ?? 0) })).filter((r) => r.score !== 0);
}

/** A member's latest posts that are not deleted, in topics that are not deleted, in the given categories. */
/**
 * The newest visible posts of a member, or of a group's members (`group`: the group's name; the
 * membership is read as a read model of the groups domain, one subquery), in the given categories.
 */
export async function recentByUser(db: Queryable, by: { uid: number } | { group: string }, cids: number[], limit: number) {
  if (!cids.length) return [];
  // The join reads topics (this same content area) only to filter by category and deletion.
  return db
    .selectFrom('posts')
    .innerJoin('topics', 'topics.tid', 'posts.tid')
    .selectAll('posts')
    .select(['topics.title as topic_title', 'topics.slug as topic_slug'])
    // Each post's position in its topic, counted in the same query rather than one per post.
    .select((eb) =>
      eb
        .selectFrom('posts as earlier')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('earlier.tid', '=', 'posts.tid')
        .where((e) =>
          e.or([e('earlier.created', '<', e.ref('posts.created')), e.and([e('earlier.created', '=', e.ref('posts.created')), e('earlier.pid', '<', e.ref('posts.pid'))])]),
        )
        .as('post_index'),
    )
    .where((eb) => ('uid' in by ? eb('posts.uid', '=', by.uid) : eb('posts.uid', 'in', eb.selectFrom('group_members').select('group_members.uid').where('group_members.group_name', '=', by.group))))
    .where('posts.deleted', '=', 0)
    .where('topics.deleted', '=', 0)
    .where('topics.scheduled', '=', 0)
    .where('topics.cid', 'in', cids)
    .orderBy('posts.created', 'desc')
    .limit(limit)
    .execute();
}

/** A member's votes (keyed by pid: +1 or -1) and bookmarks among some posts. */
export interface Marks {
  votes: Map<number, number>;
  bookmarked: Set<number>;
}

/**
 * A member's votes and bookmarks among the given posts, as a part of a batched read (one
 * union of the two tables' rows): what every member's topic page lays over its posts, read
 * with the topic's read and follow state (db/prepared.ts runBatch).
 */
export function marksPart(uid: number, pids: number[]): BatchPart<Marks> {
  return {
    shape: `posts.marks:${pids.length}`,
    build: (db, $) =>
      db
        .selectFrom('votes')
        .select((eb) => [eb.ref('pid').as('id'), eb.ref('value').$castTo<number | null>().as('num'), sql<string | null>`cast(null as text)`.as('txt')])
        .where('uid', '=', $(0))
        .where('pid', 'in', slots($, 1, pids.length))
        .unionAll(
          db
            .selectFrom('bookmarks')
            .select((eb) => [eb.ref('pid').as('id'), sql<number | null>`cast(null as bigint)`.as('num'), sql<string | null>`'bookmark'`.as('txt')])
            .where('uid', '=', $(0))
            .where('pid', 'in', slots($, 1, pids.length)),
        ),
    values: uid > 0 && pids.length ? [uid, ...pids] : null,
    read: (rows) => {
      const votes = new Map<number, number>();
      const bookmarked = new Set<number>();
      for (const r of rows) {
        if (r.txt !== null) bookmarked.add(r.id);
        else if (r.num !== null) votes.set(r.id, r.num);
      }
      return { votes, bookmarked };
    },
  };
}

/** The viewer's votes and bookmarks among the given posts (see marksPart). */
export async function marksOf(db: Queryable, uid: number, pids: number[]): Promise<Marks> {
  const [marks] = await runBatch(db, [marksPart(uid, pids)]);
  return marks;
}

/** The viewer's vote on one post (0 when none). */
export async function voteOf(db: Queryable, uid: number, pid: number): Promise<number> {
  const row = await db.selectFrom('votes').select('value').where('uid', '=', uid).where('pid', '=', pid).executeTakeFirst();
  return row?.value ?? 0;
}

/** Sets (value ±1) or removes (0) a member's vote. */
export async function setVote(w: Writer, uid: number, pid: number, value: number): Promise<void> {
  await w.tx.deleteFrom('votes').where('uid', '=', uid).where('pid', '=', pid).execute();
  if (value !== 0) await w.tx.insertInto('votes').values({ pid, uid, value, created: Date.now() }).execute();
  w.changed(memberTag(uid));
}

/** Adds to a post's vote counters. */
export async function bumpVotes(w: Writer, pid: number, up: number, down: number): Promise<void> {
  if (!up && !down) return;
  const post = await w.tx
    .updateTable('posts')
    .set((eb) => ({ upvotes: eb('upvotes', '+', up), downvotes: eb('downvotes', '+', down) }))
    .where('pid', '=', pid)
    .returning(['tid', 'uid'])
    .executeTakeFirst();
  if (post) w.changed(topicTag(post.tid), userCountsTag(post.uid));
}

/** Adds or removes a bookmark and moves the post's bookmark count; false when nothing changed. */
export async function setBookmark(w: Writer, uid: number, pid: number, on: boolean): Promise<boolean> {
  const db = w.tx;
  if (on) {
    const res = await db
      .insertInto('bookmarks')
      .values({ pid, uid, created: Date.now() })
      .onConflict((oc) => oc.columns(['pid', 'uid']).doNothing())
      .executeTakeFirst();
    if (Number(res.numInsertedOrUpdatedRows ?? 0) === 0) return false;
  } else {
    const res = await db.deleteFrom('bookmarks').where('pid', '=', pid).where('uid', '=', uid).executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) return false;
  }
  const post = await db
    .updateTable('posts')
    .set((eb) => ({ bookmarks: eb('bookmarks', '+', on ? 1 : -1) }))
    .where('pid', '=', pid)
    .returning('tid')
    .executeTakeFirst();
  w.changed(memberTag(uid));
  if (post) w.changed(topicTag(post.tid));
  return true;
}

/** Records a previous version of a post (its history is read as asked for, never cached). */
export async function insertEdit(w: Writer, row: Insertable<PostEditsTable>): Promise<void> {
  await w.tx.insertInto('post_edits').values(row).execute();
}

/** A post's previous versions, newest first. */
export async function editsOf(db: Queryable, pid: number): Promise<PostEditRow[]> {
  return db.selectFrom('post_edits').selectAll().where('pid', '=', pid).orderBy('edited', 'desc').orderBy('id', 'desc').execute();
}

/** Deletes the previous versions of a post written at this time; how many went. */
export async function deleteEdit(w: Writer, pid: number, edited: number): Promise<number> {
  const result = await w.tx.deleteFrom('post_edits').where('pid', '=', pid).where('edited', '=', edited).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many visible posts reply to each post (NodeBB's `replies` count). */
export async function replyCounts(db: Queryable, pids: number[]): Promise<Map<number, number>> {
  if (!pids.length) return new Map();
  const rows = await db
    .selectFrom('posts')
    .select(['to_pid', (eb) => eb.fn.countAll<number>().as('n')])
    .where('to_pid', 'in', [...new Set(pids)])
    .where('deleted', '=', 0)
    .groupBy('to_pid')
    .execute();
  return new Map(rows.map((r) => [r.to_pid, Number(r.n)]));
}

/** Moves posts to another topic (topic tools: move, fork, merge). */
export async function setTopicOf(w: Writer, pids: number[], tid: number): Promise<void> {
  if (!pids.length) return;
  const before = await w.tx.selectFrom('posts').select(['tid', 'uid']).where('pid', 'in', pids).execute();
  await w.tx.updateTable('posts').set({ tid }).where('pid', 'in', pids).execute();
  w.changed(topicTag(tid), ...before.map((p) => topicTag(p.tid)), ...before.map((p) => userCountsTag(p.uid)));
}

/** Gives posts to another member (topic tools: change owner). */
export async function setOwnerOf(w: Writer, pids: number[], uid: number): Promise<void> {
  if (!pids.length) return;
  const before = await w.tx.selectFrom('posts').select(['tid', 'uid']).where('pid', 'in', pids).execute();
  await w.tx.updateTable('posts').set({ uid }).where('pid', 'in', pids).execute();
  w.changed(userCountsTag(uid), ...before.map((p) => topicTag(p.tid)), ...before.map((p) => userCountsTag(p.uid)));
}

/** A member's posts with their topic's main post, category and deletion (account deletion purges the replies). */
export async function postsWithTopicOf(db: Queryable, uid: number) {
  return db
    .selectFrom('posts')
    .innerJoin('topics', 'topics.tid', 'posts.tid')
    .selectAll('posts')
    .select(['topics.main_pid as topic_main_pid', 'topics.cid as topic_cid', 'topics.deleted as topic_deleted'])
    .where('posts.uid', '=', uid)
    .execute();
}

/** Deletes a member's votes and takes them off the posts' counters; the votes that went, with each post's author. */
export async function dropVotesOf(w: Writer, uid: number): Promise<{ pid: number; value: number; author: number }[]> {
  const votes = await w.tx.selectFrom('votes').innerJoin('posts', 'posts.pid', 'votes.pid').select(['votes.pid', 'votes.value', 'posts.uid as author']).where('votes.uid', '=', uid).execute();
  for (const v of votes) await bumpVotes(w, v.pid, v.value > 0 ? -1 : 0, v.value < 0 ? -1 : 0);
  await w.tx.deleteFrom('votes').where('uid', '=', uid).execute();
  w.changed(memberTag(uid));
  return votes;
}

/** Deletes a member's bookmarks and takes them off the posts' counts. */
export async function dropBookmarksOf(w: Writer, uid: number): Promise<void> {
  const marked = await w.tx
    .updateTable('posts')
    .set((eb) => ({ bookmarks: eb('bookmarks', '-', 1) }))
    .where('pid', 'in', (eb) => eb.selectFrom('bookmarks').select('pid').where('uid', '=', uid))
    .returning('tid')
    .execute();
  await w.tx.deleteFrom('bookmarks').where('uid', '=', uid).execute();
  w.changed(memberTag(uid), ...marked.map((p) => topicTag(p.tid)));
}

/** Who voted on a post and how (+1/-1), oldest vote first. */
export async function votersOf(db: Queryable, pid: number): Promise<{ uid: number; value: number }[]> {
  return db.selectFrom('votes').select(['uid', 'value']).where('pid', '=', pid).where('value', '!=', 0).orderBy('created').execute();
}

/**
 * The pid of one of the member's posts written or edited since `since` whose content contains
 * `needle` (the uploads clean-up's last check before deleting a file). Uses the posts
 * (uid, created) index; edited posts of the member are filtered from the same rows.
 */
export async function memberPostMentioning(db: Queryable, uid: number, since: number, needle: string): Promise<number | null> {
  const like = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const r = await db
    .selectFrom('posts')
    .select('pid')
    .where('uid', '=', uid)
    .where((eb) => eb.or([eb('created', '>=', since), eb('edited', '>=', since)]))
    .where(sql<boolean>`content like ${like} escape '\\'`)
    .limit(1)
    .executeTakeFirst();
  return r?.pid ?? null;
}
