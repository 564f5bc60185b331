import { sql, type ExpressionBuilder, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Writer } from '../../core/action.js';
import { categoryTag, memberTag, topicTag } from '../../core/tags.js';
import type { Queryable } from '../../db/index.js';
import { runBatch, slots, type BatchPart, type SlotOf } from '../../db/prepared.js';
import type { Database, TopicsTable } from '../../db/schema.js';

export type TopicRow = Selectable<TopicsTable>;

/** One topic by tid. */
export async function byTid(db: Queryable, tid: number): Promise<TopicRow | undefined> {
  return db.selectFrom('topics').selectAll().where('tid', '=', tid).executeTakeFirst();
}

/** Several topics by tid. */
export async function byTids(db: Queryable, tids: number[]): Promise<TopicRow[]> {
  if (!tids.length) return [];
  return db.selectFrom('topics').selectAll().where('tid', 'in', [...new Set(tids)]).execute();
}

/** Inserts a topic and returns the row. */
export async function insertTopic(w: Writer, row: Insertable<TopicsTable>): Promise<TopicRow> {
  const topic = await w.tx.insertInto('topics').values(row).returningAll().executeTakeFirstOrThrow();
  changedTopic(w, topic);
  return topic;
}

/** A topic's row and its category's lists changed. */
function changedTopic(w: Writer, topic: { tid: number; cid: number } | undefined): void {
  if (topic) w.changed(topicTag(topic.tid), categoryTag(topic.cid));
}

/** Updates a topic's fields (a new `cid` moves it: both categories' lists change). */
export async function updateTopic(w: Writer, tid: number, fields: Updateable<TopicsTable>): Promise<void> {
  if (fields.cid !== undefined) changedTopic(w, await w.tx.selectFrom('topics').select(['tid', 'cid']).where('tid', '=', tid).executeTakeFirst());
  changedTopic(w, await w.tx.updateTable('topics').set(fields).where('tid', '=', tid).returning(['tid', 'cid']).executeTakeFirst());
}

/** Clears a topic's scheduled flag; the row when this call published it, undefined when it was not scheduled. */
export async function publish(w: Writer, tid: number): Promise<TopicRow | undefined> {
  const topic = await w.tx.updateTable('topics').set({ scheduled: 0 }).where('tid', '=', tid).where('scheduled', '=', 1).returningAll().executeTakeFirst();
  changedTopic(w, topic);
  return topic;
}

/** Adds to a topic's post count. */
export async function bumpPostCount(w: Writer, tid: number, by: number): Promise<void> {
  if (by === 0) return;
  changedTopic(w, await w.tx.updateTable('topics').set((eb) => ({ post_count: eb('post_count', '+', by) })).where('tid', '=', tid).returning(['tid', 'cid']).executeTakeFirst());
}

/**
 * Counts a new reply and, unless a reply written later has committed first, makes it the
 * topic's teaser: one statement, returning the topic. (Newest is by time, then by pid, as
 * in latestVisible: concurrent replies may commit out of pid order.)
 */
export async function recordReply(w: Writer, tid: number, pid: number, created: number): Promise<TopicRow | undefined> {
  const topic = await w.tx
    .updateTable('topics')
    .set((eb) => ({
      post_count: eb('post_count', '+', 1),
      // The newest reply wins, by time and then by pid: two replies of the same millisecond
      // (concurrent writers) end on the higher pid, whichever commits last.
      teaser_pid: sql<number>`case when last_post_time < ${created} or (last_post_time = ${created} and teaser_pid < ${pid}) then ${pid} else teaser_pid end`,
      last_post_time: sql<number>`case when last_post_time < ${created} then ${created} else last_post_time end`,
    }))
    .where('tid', '=', tid)
    .returningAll()
    .executeTakeFirst();
  changedTopic(w, topic);
  return topic;
}

/** Adds to a topic's vote counters (they mirror its main post's). */
export async function bumpVotes(w: Writer, tid: number, up: number, down: number): Promise<void> {
  if (!up && !down) return;
  const topic = await w.tx
    .updateTable('topics')
    .set((eb) => ({ upvotes: eb('upvotes', '+', up), downvotes: eb('downvotes', '+', down) }))
    .where('tid', '=', tid)
    .returning(['tid', 'cid'])
    .executeTakeFirst();
  changedTopic(w, topic);
}

/** Deletes a topic row for ever (posts, tags, follows and reads cascade). */
export async function deleteTopic(w: Writer, tid: number): Promise<void> {
  changedTopic(w, await w.tx.deleteFrom('topics').where('tid', '=', tid).returning(['tid', 'cid']).executeTakeFirst());
}

/** Every topic a member started (account deletion purges them). */
export async function startedBy(db: Queryable, uid: number): Promise<TopicRow[]> {
  return db.selectFrom('topics').selectAll().where('uid', '=', uid).execute();
}

/** The tids of a category (for purging it). */
export async function tidsOfCategory(db: Queryable, cid: number): Promise<number[]> {
  return (await db.selectFrom('topics').select('tid').where('cid', '=', cid).execute()).map((r) => r.tid);
}

/** Moves every topic of a category to another (a category deleted with its topics moved); how many. */
export async function moveCategoryTopics(w: Writer, fromCid: number, toCid: number): Promise<number> {
  const moved = await w.tx.updateTable('topics').set({ cid: toCid }).where('cid', '=', fromCid).returning('tid').execute();
  w.changed(categoryTag(fromCid), categoryTag(toCid), ...moved.map((t) => topicTag(t.tid)));
  return moved.length;
}

/** How many topics a category holds, whatever their state (deleted and scheduled ones too). */
export async function countOfCategory(db: Queryable, cid: number): Promise<number> {
  const row = await db.selectFrom('topics').select((eb) => eb.fn.countAll<number>().as('n')).where('cid', '=', cid).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export interface ListQuery {
  cids: number[];
  /** Categories in which deleted topics are shown (to moderators). */
  deletedCids: number[];
  sort: 'recent' | 'popular' | 'top' | 'category';
  offset: number;
  limit: number;
  since?: number;
  /** Only topics carrying this tag (NodeBB's ?tag= on category and list pages). */
  tag?: string;
  /** Only topics this member has not read since their last post, and does not ignore. */
  unreadFor?: number;
  /** With unreadFor: only topics in these categories or followed by the member (NodeBB's unread). */
  watchedCids?: number[];
}

/** Whether the member holds this watch state on the row's topic (a subquery for list filters). */
function followState(eb: ExpressionBuilder<Database, 'topics'>, uid: number, state: 'follow' | 'ignore') {
  return eb.exists(
    eb
      .selectFrom('topic_follows')
      .select('topic_follows.tid')
      .whereRef('topic_follows.tid', '=', 'topics.tid')
      .where('topic_follows.uid', '=', uid)
      .where('topic_follows.state', '=', state),
  );
}

function listBase(db: Queryable, q: ListQuery) {
  // Scheduled topics stay out of every list (and its count) until they are published.
  let query = db.selectFrom('topics').where('topics.cid', 'in', q.cids).where('topics.scheduled', '=', 0);
  query = q.deletedCids.length
    ? query.where((eb) => eb.or([eb('topics.deleted', '=', 0), eb('topics.cid', 'in', q.deletedCids)]))
    : query.where('topics.deleted', '=', 0);
  if (q.since) query = query.where('topics.last_post_time', '>=', q.since);
  if (q.tag) {
    const tag = q.tag;
    query = query.where((eb) => eb.exists(eb.selectFrom('topic_tags').select('topic_tags.tid').whereRef('topic_tags.tid', '=', 'topics.tid').where('topic_tags.tag', '=', tag)));
  }
  if (q.unreadFor) {
    const uid = q.unreadFor;
    query = query
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('topic_reads')
              .select('topic_reads.tid')
              .whereRef('topic_reads.tid', '=', 'topics.tid')
              .where('topic_reads.uid', '=', uid)
              .whereRef('topic_reads.read_at', '>=', 'topics.last_post_time'),
          ),
        ),
      )
      .where((eb) => eb.not(followState(eb, uid, 'ignore')));
    const watched = q.watchedCids;
    if (watched) {
      const followed = (eb: ExpressionBuilder<Database, 'topics'>) => followState(eb, uid, 'follow');
      query = query.where((eb) => (watched.length ? eb.or([eb('topics.cid', 'in', watched), followed(eb)]) : followed(eb)));
    }
  }
  return query;
}

/** A page of topics in the list's order. */
export async function listTopics(db: Queryable, q: ListQuery): Promise<TopicRow[]> {
  if (!q.cids.length) return [];
  let rows = listBase(db, q).selectAll('topics');
  if (q.sort === 'category') rows = rows.orderBy('topics.pinned', 'desc').orderBy('topics.last_post_time', 'desc');
  else if (q.sort === 'popular') rows = rows.orderBy('topics.post_count', 'desc').orderBy('topics.view_count', 'desc').orderBy('topics.last_post_time', 'desc');
  else if (q.sort === 'top') rows = rows.orderBy(sql`topics.upvotes - topics.downvotes`, 'desc').orderBy('topics.last_post_time', 'desc');
  else rows = rows.orderBy('topics.last_post_time', 'desc');
  return rows.orderBy('topics.tid', 'desc').offset(q.offset).limit(q.limit).execute();
}

/** How many topics the list holds (every page of it). */
export async function countTopics(db: Queryable, q: ListQuery): Promise<number> {
  if (!q.cids.length) return 0;
  const row = await listBase(db, q).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * A member's unread list, split into what every member shares and what is theirs alone
 * (see list.ts `unreadTopics`). `watched`: categories all of whose topics count (those the
 * member watches or tracks, among those they may read); `followedIn`: categories of which
 * only the topics the member follows count. Scheduled and deleted topics never count; a
 * topic counts while the member has not read it since its last post and does not ignore it.
 */
export interface UnreadQuery {
  uid: number;
  watched: number[];
  followedIn: number[];
  tag?: string;
  offset: number;
  limit: number;
}

/** One topic of a member's unread page: its tid, last post time and the member's follow state. */
export interface UnreadEntry {
  tid: number;
  lastPostTime: number;
  followed: boolean;
}

/** A topic list's expression builder, the topic aliased `t`. */
type OnT = ExpressionBuilder<Database & { t: TopicsTable }, 't'>;

/** The member (`uid`, a slot) has read topic `t` since its last post. */
function readSince(eb: OnT, uid: number) {
  return eb.exists(
    eb
      .selectFrom('topic_reads as r')
      .select('r.tid')
      .where('r.uid', '=', uid)
      .whereRef('r.tid', '=', 't.tid')
      .whereRef('r.read_at', '>=', 't.last_post_time'),
  );
}

/** The values of an UnreadQuery's shape, in order: uid, watched, followedIn, tag (when given). */
function unreadValues(q: UnreadQuery): unknown[] {
  return [q.uid, ...q.watched, ...q.followedIn, ...(q.tag ? [q.tag] : [])];
}

function unreadShape(name: string, q: UnreadQuery): string {
  return `topics.${name}:${q.watched.length}:${q.followedIn.length}:${q.tag ? 1 : 0}`;
}

/**
 * Builds the filters every topic `t` of the list shares (live, visible, tagged) and, per
 * branch, the member's: `$` slots as laid out by unreadValues.
 */
function unreadWhere($: SlotOf, q: UnreadQuery) {
  const uid = $(0);
  const watched = slots($, 1, q.watched.length);
  const followedIn = slots($, 1 + q.watched.length, q.followedIn.length);
  const tag = q.tag ? $(1 + q.watched.length + q.followedIn.length) : undefined;
  const live = (eb: OnT) => {
    const conds = [eb('t.scheduled', '=', 0), eb('t.deleted', '=', 0)];
    if (tag !== undefined) conds.push(eb.exists(eb.selectFrom('topic_tags as g').select('g.tid').whereRef('g.tid', '=', 't.tid').where('g.tag', '=', tag)));
    return eb.and(conds);
  };
  return { uid, watched, followedIn, live };
}

/**
 * The member's page of their unread list (newest last post first), as a part of a batched
 * read: `id` the tid, `num` its last post time, `txt` 'follow' when the member follows it. It
 * reads the topics in list order (topics_live_recent) and stops at the page's end.
 */
export function unreadPagePart(q: UnreadQuery): BatchPart<UnreadEntry[]> {
  const n = unreadValues(q).length;
  return {
    shape: unreadShape('unreadPage', q),
    build: (db, $) => {
      const { uid, watched, followedIn, live } = unreadWhere($, q);
      return db
        .selectFrom('topics as t')
        .select((eb) => [
          eb.ref('t.tid').as('id'),
          eb.ref('t.last_post_time').$castTo<number | null>().as('num'),
          eb.selectFrom('topic_follows as f').select('f.state').whereRef('f.tid', '=', 't.tid').where('f.uid', '=', uid).$castTo<string | null>().as('txt'),
        ])
        .where((eb) =>
          eb.and([
            live(eb),
            eb.or([
              ...(watched.length ? [eb('t.cid', 'in', watched)] : []),
              ...(followedIn.length
                ? [eb.and([eb('t.cid', 'in', followedIn), eb.exists(eb.selectFrom('topic_follows as f').select('f.tid').whereRef('f.tid', '=', 't.tid').where('f.uid', '=', uid).where('f.state', '=', 'follow'))])]
                : []),
            ]),
            eb.not(readSince(eb, uid)),
            eb.not(eb.exists(eb.selectFrom('topic_follows as f').select('f.tid').whereRef('f.tid', '=', 't.tid').where('f.uid', '=', uid).where('f.state', '=', 'ignore'))),
          ]),
        )
        .orderBy('t.last_post_time', 'desc')
        .orderBy('t.tid', 'desc')
        .limit($(n))
        .offset($(n + 1)) as never;
    },
    values: q.uid > 0 && (q.watched.length || q.followedIn.length) ? [...unreadValues(q), q.limit, q.offset] : null,
    // The union of a batch keeps no order: the page is sorted here, as the statement read it.
    read: (rows) =>
      rows
        .map((r) => ({ tid: r.id, lastPostTime: Number(r.num), followed: r.txt === 'follow' }))
        .sort((a, b) => b.lastPostTime - a.lastPostTime || b.tid - a.tid),
  };
}

/**
 * What the member's unread count differs by from the count of the watched categories' live
 * topics (which members share, ListCache): plus the followed topics of `followedIn` not read
 * since their last post, minus the watched categories' topics read since their last post or
 * ignored. It walks the member's own reads and follows (by uid), not every topic: a member
 * who has read nothing costs next to nothing, and one who read much no more than before.
 */
export function unreadDeltaPart(q: UnreadQuery): BatchPart<number> {
  return {
    shape: unreadShape('unreadDelta', q),
    build: (db, $) => {
      const { uid, watched, followedIn, live } = unreadWhere($, q);
      const zero = sql<number>`0`;
      return db.selectNoFrom((eb) => {
        const followedUnread = followedIn.length
          ? eb
              .selectFrom('topic_follows as f')
              .innerJoin('topics as t', 't.tid', 'f.tid')
              .select((x) => x.fn.countAll<number>().as('n'))
              .where('f.uid', '=', uid)
              .where('f.state', '=', 'follow')
              .where('t.cid', 'in', followedIn)
              .where((x) => x.and([live(x as never), x.not(readSince(x as never, uid))]))
          : zero;
        // Each of the member's reads looks its topic up by key (a correlated scalar subquery:
        // NULL, so not counted, for a topic outside the watched live ones). As a join,
        // PostgreSQL hashed it against a scan of every topic: 2.9 against 0.17 ms on the
        // benchmark's forum, most of the database's time on a member's /unread.
        const watchedRead = watched.length
          ? eb
              .selectFrom('topic_reads as r')
              .select((x) => x.fn.countAll<number>().as('n'))
              .where('r.uid', '=', uid)
              .where('r.read_at', '>=', (x) =>
                x
                  .selectFrom('topics as t')
                  .select('t.last_post_time')
                  .whereRef('t.tid', '=', 'r.tid')
                  .where('t.cid', 'in', watched)
                  .where((y) => live(y as never)),
              )
          : zero;
        const watchedIgnored = watched.length
          ? eb
              .selectFrom('topic_follows as f')
              .innerJoin('topics as t', 't.tid', 'f.tid')
              .select((x) => x.fn.countAll<number>().as('n'))
              .where('f.uid', '=', uid)
              .where('f.state', '=', 'ignore')
              .where('t.cid', 'in', watched)
              .where((x) => x.and([live(x as never), x.not(readSince(x as never, uid))]))
          : zero;
        return [
          sql<number>`0`.as('id'),
          sql<number | null>`(${followedUnread}) - (${watchedRead}) - (${watchedIgnored})`.as('num'),
          sql<string | null>`cast(null as text)`.as('txt'),
        ];
      }) as never;
    },
    values: q.uid > 0 && (q.watched.length || q.followedIn.length) ? unreadValues(q) : null,
    read: (rows) => Number(rows[0]?.num ?? 0),
  };
}

/** For each category, its topic (not deleted) with the latest post. */
export async function latestPerCategory(db: Queryable, cids: number[]): Promise<TopicRow[]> {
  if (!cids.length) return [];
  // One statement: an indexed "newest topic" lookup (topics_cid_latest) per category, as a
  // correlated subquery, rather than a query per category or a grouped join over all topics.
  return db
    .selectFrom('topics')
    .selectAll()
    .where('tid', 'in', (eb) =>
      eb
        .selectFrom('categories as c')
        .where('c.cid', 'in', [...new Set(cids)])
        .select((sub) =>
          sub
            .selectFrom('topics as x')
            .select('x.tid')
            .whereRef('x.cid', '=', 'c.cid')
            .where('x.deleted', '=', 0)
            .where('x.scheduled', '=', 0)
            .orderBy('x.last_post_time', 'desc')
            .orderBy('x.tid', 'desc')
            .limit(1)
            .as('tid'),
        ),
    )
    .execute();
}

/** A member's read time of each topic they read, and follow state ('follow' | 'ignore') of each they chose. */
export interface ReaderStates {
  reads: Map<number, number>;
  follows: Map<number, string>;
}

/**
 * A member's read time and follow state per topic, as a part of a batched read (one union of
 * the two tables' rows): every member's topic page and topic list needs both, and the topic
 * page reads them with its posts' votes and bookmarks (db/prepared.ts runBatch).
 */
export function readerStatesPart(uid: number, tids: number[]): BatchPart<ReaderStates> {
  return {
    shape: `topics.readerStates:${tids.length}`,
    build: (db, $) =>
      db
        .selectFrom('topic_reads')
        .select((eb) => [eb.ref('tid').as('id'), eb.ref('read_at').$castTo<number | null>().as('num'), sql<string | null>`cast(null as text)`.as('txt')])
        .where('uid', '=', $(0))
        .where('tid', 'in', slots($, 1, tids.length))
        .unionAll(
          db
            .selectFrom('topic_follows')
            .select((eb) => [eb.ref('tid').as('id'), sql<number | null>`cast(null as bigint)`.as('num'), eb.ref('state').as('txt')])
            .where('uid', '=', $(0))
            .where('tid', 'in', slots($, 1, tids.length)),
        ),
    values: uid > 0 && tids.length ? [uid, ...tids] : null,
    read: (rows) => {
      const reads = new Map<number, number>();
      const follows = new Map<number, string>();
      for (const r of rows) {
        if (r.txt !== null) follows.set(r.id, r.txt);
        else if (r.num !== null) reads.set(r.id, r.num);
      }
      return { reads, follows };
    },
  };
}

/** A member's read time and follow state per topic (see readerStatesPart). */
export async function readerStates(db: Queryable, uid: number, tids: number[]): Promise<ReaderStates> {
  const [states] = await runBatch(db, [readerStatesPart(uid, tids)]);
  return states;
}

/** The members following a topic (state 'follow'; ignoring members are not followers). */
/** Of these members, those who ignore the topic. */
export async function ignorersAmong(db: Queryable, tid: number, uids: readonly number[]): Promise<Set<number>> {
  const out = new Set<number>();
  for (let i = 0; i < uids.length; i += 500) {
    const rows = await db.selectFrom('topic_follows').select('uid').where('tid', '=', tid).where('state', '=', 'ignore').where('uid', 'in', uids.slice(i, i + 500)).execute();
    for (const r of rows) out.add(r.uid);
  }
  return out;
}

export async function followers(db: Queryable, tid: number): Promise<number[]> {
  const rows = await db.selectFrom('topic_follows').select('uid').where('tid', '=', tid).where('state', '=', 'follow').execute();
  return rows.map((r) => r.uid);
}

/** Sets a member's follow state, or clears it (null). */
export async function setFollowState(w: Writer, uid: number, tid: number, state: 'follow' | 'ignore' | null): Promise<void> {
  // The topic's follower count shows on its page and in lists.
  w.changed(memberTag(uid), topicTag(tid));
  if (state === null) {
    await w.tx.deleteFrom('topic_follows').where('uid', '=', uid).where('tid', '=', tid).execute();
    return;
  }
  await w.tx
    .insertInto('topic_follows')
    .values({ uid, tid, state })
    .onConflict((oc) => oc.columns(['tid', 'uid']).doUpdateSet({ state }))
    .execute();
}

/** When a member last read each topic. */
export async function readTimes(db: Queryable, uid: number, tids: number[]): Promise<Map<number, number>> {
  if (uid <= 0 || !tids.length) return new Map();
  const rows = await db.selectFrom('topic_reads').select(['tid', 'read_at']).where('uid', '=', uid).where('tid', 'in', tids).execute();
  return new Map(rows.map((r) => [r.tid, Number(r.read_at)]));
}

/** Records that a member read a topic now. */
export async function markRead(w: Writer, uid: number, tid: number, at: number): Promise<void> {
  w.changed(memberTag(uid));
  await w.tx
    .insertInto('topic_reads')
    .values({ uid, tid, read_at: at })
    .onConflict((oc) => oc.columns(['uid', 'tid']).doUpdateSet({ read_at: at }))
    .execute();
}

/** Forgets a member's read of a topic: it is unread to them again. */
export async function forgetRead(w: Writer, uid: number, tid: number): Promise<void> {
  w.changed(memberTag(uid));
  await w.tx.deleteFrom('topic_reads').where('uid', '=', uid).where('tid', '=', tid).execute();
}

/** Forgets every member's read of a topic (NodeBB's bump: unread for all). */
export async function forgetReads(w: Writer, tid: number): Promise<void> {
  const rows = await w.tx.deleteFrom('topic_reads').where('tid', '=', tid).returning('uid').execute();
  w.changed(topicTag(tid), ...rows.map((r) => memberTag(r.uid)));
}

/** Distinct authors of each topic's visible posts (NodeBB's postercount); reads posts, the same content area. */
export async function posterCounts(db: Queryable, tids: number[]): Promise<Map<number, number>> {
  if (!tids.length) return new Map();
  const rows = await db
    .selectFrom('posts')
    .select(['tid', (eb) => eb.fn.count<number>('uid').distinct().as('n')])
    .where('tid', 'in', [...new Set(tids)])
    .where('deleted', '=', 0)
    .groupBy('tid')
    .execute();
  return new Map(rows.map((r) => [r.tid, Number(r.n)]));
}

/** How many members follow each topic (NodeBB's followercount). */
export async function followerCounts(db: Queryable, tids: number[]): Promise<Map<number, number>> {
  if (!tids.length) return new Map();
  const rows = await db
    .selectFrom('topic_follows')
    .select(['tid', (eb) => eb.fn.countAll<number>().as('n')])
    .where('tid', 'in', [...new Set(tids)])
    .where('state', '=', 'follow')
    .groupBy('tid')
    .execute();
  return new Map(rows.map((r) => [r.tid, Number(r.n)]));
}

/** Unpins a topic whose pin still carries this expiry; true when this call lifted it. */
export async function liftPin(w: Writer, tid: number, expiry: number): Promise<boolean> {
  const topic = await w.tx.updateTable('topics').set({ pinned: 0, pin_expiry: 0 }).where('tid', '=', tid).where('pinned', '=', 1).where('pin_expiry', '=', expiry).returning(['tid', 'cid']).executeTakeFirst();
  changedTopic(w, topic);
  return topic !== undefined;
}

/** Topics by title (case-insensitive substring) in these categories, newest activity first (the tools' topic picker). */
export async function searchByTitle(db: Queryable, term: string, cids: number[], limit: number): Promise<TopicRow[]> {
  if (!cids.length) return [];
  const like = `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db
    .selectFrom('topics')
    .selectAll()
    .where('cid', 'in', cids)
    .where('scheduled', '=', 0)
    .where('deleted', '=', 0)
    .where(sql<boolean>`lower(title) like ${like} escape '\\'`)
    .orderBy('last_post_time', 'desc')
    .limit(limit)
    .execute();
}

/** The topic a merged topic's address now leads to, if any. */
export async function redirectOf(db: Queryable, tid: number): Promise<number | undefined> {
  return (await db.selectFrom('topic_redirects').select('to_tid').where('tid', '=', tid).executeTakeFirst())?.to_tid;
}

/** Points a merged topic's address at the topic it went into (and any older redirects to it too). */
export async function addRedirect(w: Writer, tid: number, toTid: number): Promise<void> {
  await w.tx.updateTable('topic_redirects').set({ to_tid: toTid }).where('to_tid', '=', tid).execute();
  await w.tx.insertInto('topic_redirects').values({ tid, to_tid: toTid, created: Date.now() }).execute();
  w.changed(topicTag(tid));
}

/** The members besides the author who may edit a topic's first post. */
export async function editorsOf(db: Queryable, tid: number): Promise<number[]> {
  return (await db.selectFrom('topic_editors').select('uid').where('tid', '=', tid).orderBy('uid').execute()).map((r) => r.uid);
}

/** Replaces a topic's editors list. */
export async function setEditors(w: Writer, tid: number, uids: number[]): Promise<void> {
  await w.tx.deleteFrom('topic_editors').where('tid', '=', tid).execute();
  if (uids.length) await w.tx.insertInto('topic_editors').values(uids.map((uid) => ({ tid, uid }))).execute();
  w.changed(topicTag(tid));
}

/**
 * Adds counted views to topics (the view counter's batch). No tag: a view count is shown as the
 * caches have it until their TTL, since dropping every viewed topic's pages at each flush would
 * leave the busiest topics uncached.
 */
export async function addViews(w: Writer, views: readonly (readonly [tid: number, n: number])[]): Promise<void> {
  for (const [tid, n] of views) {
    await w.tx.updateTable('topics').set((eb) => ({ view_count: eb('view_count', '+', n) })).where('tid', '=', tid).execute();
  }
}
