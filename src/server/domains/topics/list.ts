import type { Teaser, TopicSummary } from '../../../shared/types.js';
import type { Cache, CacheRegistry } from '../../core/cache.js';
import { categoryTag, memberTag, TAGS, topicTag, userTag, type Tag } from '../../core/tags.js';
import { runBatch } from '../../db/prepared.js';
import { presentTeaser } from '../posts/presenter.js';
import type { Viewer } from '../privileges/service.js';
import { overlayTopics, presentSharedTopics, viewerTopic } from './presenter.js';
import type { TopicRow } from './store.js';
import type { TopicListOptions } from './service.js';
import * as store from './store.js';
import type { TopicsDeps } from './service.js';

/** A list page as every reader who may read the same categories sees it (see ListCache). */
interface SharedPage {
  rows: TopicRow[];
  topics: TopicSummary[];
  count: number;
}

/**
 * The totals and pages of topic lists, per process. Counting every readable topic was a
 * statement per list page, for every member, though the total only moves with a write; and
 * presenting a page (authors, teasers, categories, tags, counts, thumbnails: nine statements)
 * gave every member the same answer but for their read and follow state. Keyed by what they
 * depend on (categories, those showing deleted topics, tag; and for pages the order and the
 * slice), so members who may read the same categories share them; lists by period or unread
 * state are built each time. Each entry drops when one of its categories changes (a topic
 * made, replied to, moved, locked, pinned or deleted there: the category's tag), or one of
 * its topics or their authors (docs/caches.md).
 */
export class ListCache {
  static readonly TTL_MS = 5000;
  /** Totals, by list (without the order and the slice): every page of a list shares one. */
  readonly counts: Cache<string, number>;
  readonly pages: Cache<string, SharedPage>;
  /**
   * Topics' rows and shared summaries by tid, for lists each member has their own of (their
   * unread topics): the summaries are every reader's alike, and members' unread pages are
   * mostly the same recent topics, so each is made once per TTL (a page's missing ones in one
   * batch) and shared, like a cached list page's.
   */
  readonly summaries: Cache<number, SharedTopic>;
  /**
   * Each member's unread page and count correction (store.unreadPagePart, unreadDeltaPart): the
   * statement walks all of the member's reads (on PostgreSQL some 1 ms of the database's time
   * for a member with a hundred, most of a member's /unread), yet its answer changes only with
   * that member's reads and follows (their member tag) or with the topics of the categories it
   * covers (their category tags).
   */
  readonly unread: Cache<string, UnreadPart>;

  constructor(registry: CacheRegistry) {
    const ttlMs = ListCache.TTL_MS;
    this.counts = registry.create({
      name: 'topic-list-counts',
      keeps: "a topic list's total, per set of readable categories, tag and term",
      droppedBy: 'a change of one of its categories (its topics), or of tags when the list is by tag',
      ttlMs,
      max: 1000,
      tags: (key) => listTags(key),
    });
    this.pages = registry.create({
      name: 'topic-list-pages',
      keeps: 'a page of a topic list (rows and the summaries every reader shares), per list, order and slice',
      droppedBy: "a change of one of its categories, of one of its topics, or of a topic's or teaser's author",
      ttlMs,
      max: 200,
      tags: (key, page) => [...listTags(key), ...summaryTags(page.rows, page.topics)],
    });
    this.summaries = registry.create({
      name: 'topic-summaries',
      keeps: "a topic's row and the summary every reader of a list shares (unread lists)",
      droppedBy: "a change of the topic, its category, or its or its teaser's author",
      ttlMs,
      max: 5000,
      tags: (_tid, t) => summaryTags([t.row], [t.summary]),
    });
    this.unread = registry.create({
      name: 'unread-pages',
      keeps: "a member's unread page (its topics in order, and which they follow) and count correction",
      droppedBy: "the member's own reads and follows, or a change of one of the categories it covers",
      ttlMs,
      max: 16_000,
      tags: (key) => {
        const [uid, watched, followedIn, tag] = key.split('|');
        return [memberTag(Number(uid)), ...cidTags(watched!), ...cidTags(followedIn!), ...(tag ? [TAGS] : [])];
      },
    });
  }

  /**
   * The list's key, or null for lists built each time (since a given time, by unread state). A
   * list of the last `within` ms (a term: day, week, month) is keyed by that length, not by its
   * start: shared for TTL_MS like any other, its window may start up to TTL_MS before the
   * reader's request, as its content may lag a write.
   */
  key(q: { cids: number[]; deletedCids: number[]; tag?: string; since?: number; unreadFor?: number }, within?: number): string | null {
    if (q.since !== undefined || q.unreadFor !== undefined) return null;
    return `${q.cids.join(',')}|${q.deletedCids.join(',')}|${q.tag ?? ''}|${within ?? ''}`;
  }
}

/** The category tags of a comma-separated list of cids. */
function cidTags(list: string): Tag[] {
  return list ? list.split(',').map((c) => categoryTag(Number(c))) : [];
}

/** A list key's tags: its categories, and TAGS for a list by tag. */
function listTags(key: string): Tag[] {
  const [cids, , tag] = key.split('|');
  return [...cidTags(cids!), ...(tag ? [TAGS] : [])];
}

/** The tags of presented topics: each topic, and the members shown with it (author, teaser's author). */
function summaryTags(rows: readonly TopicRow[], topics: readonly TopicSummary[]): Tag[] {
  const tags = rows.map((r) => topicTag(r.tid));
  for (const r of rows) tags.push(userTag(r.uid));
  for (const t of topics) if (t.teaser) tags.push(userTag(t.teaser.uid));
  return tags;
}

/** A member's unread page (its topics in order, and whether they follow each) and count correction. */
interface UnreadPart {
  entries: store.UnreadEntry[];
  delta: number;
}

/** A topic's row and its shared summary (presentSharedTopics), made together. */
interface SharedTopic {
  row: TopicRow;
  summary: TopicSummary;
}

/** A page of topic summaries and the total; deleted topics show only in category lists, to those who may see them. */
export async function listTopics(ctx: TopicsDeps, viewer: Viewer, opts: TopicListOptions, cache?: ListCache): Promise<{ topics: TopicSummary[]; count: number }> {
  if (opts.unreadOnly && viewer.uid > 0 && opts.sort === 'recent' && opts.since === undefined && !opts.within) return unreadTopics(ctx, viewer, opts, cache);
  const deletedCids = opts.sort === 'category' ? await ctx.privileges.filterCids(viewer, 'posts:view_deleted', opts.cids) : [];
  const query = {
    cids: opts.cids,
    deletedCids,
    sort: opts.sort,
    offset: (opts.page - 1) * opts.perPage,
    limit: opts.perPage,
    since: opts.since,
    tag: opts.tag,
    unreadFor: opts.unreadOnly && viewer.uid > 0 ? viewer.uid : undefined,
    watchedCids: opts.unreadOnly && viewer.uid > 0 ? opts.watchedCids : undefined,
  };
  const key = cache?.key(query, opts.within) ?? null;
  const build = async (): Promise<SharedPage> => {
    // A term's window starts when the list is built; its total, when built with it, counts the same window.
    const q = opts.within ? { ...query, since: Date.now() - opts.within } : query;
    const [rows, count] = await Promise.all([
      store.listTopics(ctx.db, q),
      cache && key !== null ? cache.counts.get(key, () => store.countTopics(ctx.db, q)) : store.countTopics(ctx.db, q),
    ]);
    return { rows, topics: await presentSharedTopics(ctx, rows), count };
  };
  const cached = cache !== undefined && key !== null;
  const page = cached ? await cache.pages.get(`${key}|${query.sort}|${query.offset}|${query.limit}`, build) : await build();
  // A cached page's summaries are shared: readers alike get the same frozen versions of them.
  return { topics: await overlayTopics(ctx, viewer, page.rows, page.topics, cached), count: page.count };
}

/**
 * A member's unread topics (NodeBB's /unread: the topics of the categories they watch or
 * track, and those they follow elsewhere, that they have not read since the last post and do
 * not ignore), newest last post first, and how many. Counting them took a probe of the
 * member's reads and follows for every topic of every category they may read, on every
 * request (2,000 topics: most of the page's cost). The count is now the watched categories'
 * live topics, which members share (ListCache.counts, as /recent's total), corrected by what
 * the member's own reads and follows take out or add (store.unreadDeltaPart, a walk of their
 * rows); the page is read in list order and stops at its end, in the same statement. The
 * topics' summaries are shared per topic (ListCache.summaries), the member's flags laid over them:
 * every topic of the page is unread and not ignored, by the statement that chose it.
 */
async function unreadTopics(ctx: TopicsDeps, viewer: Viewer, opts: TopicListOptions, cache?: ListCache): Promise<{ topics: TopicSummary[]; count: number }> {
  const watchedCids = opts.watchedCids;
  const watched = watchedCids ? opts.cids.filter((cid) => watchedCids.includes(cid)) : opts.cids;
  const followedIn = watchedCids ? opts.cids.filter((cid) => !watchedCids.includes(cid)) : [];
  const q: store.UnreadQuery = { uid: viewer.uid, watched, followedIn, tag: opts.tag, offset: (opts.page - 1) * opts.perPage, limit: opts.perPage };
  const live: store.ListQuery = { cids: watched, deletedCids: [], sort: 'recent', offset: 0, limit: 0, tag: opts.tag };
  const key = cache?.key(live) ?? null;
  const read = async (): Promise<UnreadPart> => {
    const [entries, delta] = await runBatch(ctx.db, [store.unreadPagePart(q), store.unreadDeltaPart(q)] as const);
    return Object.freeze({ entries, delta });
  };
  const [{ entries, delta }, total] = await Promise.all([
    cache ? cache.unread.get(`${q.uid}|${watched.join(',')}|${followedIn.join(',')}|${q.tag ?? ''}|${q.offset}|${q.limit}`, read) : read(),
    cache && key !== null ? cache.counts.get(key, () => store.countTopics(ctx.db, live)) : store.countTopics(ctx.db, live),
  ]);
  // The shared total may lag a write in another process by up to its TTL, as every list's does.
  const count = Math.max(0, total + delta, entries.length ? q.offset + entries.length : 0);
  if (!entries.length) return { topics: [], count };
  const followed = new Map(entries.map((e) => [e.tid, e.followed]));
  if (!cache) {
    const rows = await store.byTids(ctx.db, entries.map((e) => e.tid));
    const byTid = new Map(rows.map((r) => [r.tid, r]));
    const ordered = entries.map((e) => byTid.get(e.tid)).filter((r): r is TopicRow => r !== undefined);
    const shared = await presentSharedTopics(ctx, ordered);
    return { topics: ordered.map((row, i) => viewerTopic(shared[i]!, unreadFlags(viewer, row, followed), false)), count };
  }
  const tids = entries.map((e) => e.tid);
  const kept = await cache.summaries.getMany(tids, async (missing) => {
    const rows = await store.byTids(ctx.db, missing);
    const summaries = await presentSharedTopics(ctx, rows);
    return new Map(rows.map((row, i) => [row.tid, { row, summary: summaries[i]! }]));
  });
  // A topic gone meanwhile (purged) is left out.
  const topics = tids.map((tid) => kept.get(tid)).filter((t): t is SharedTopic => t !== undefined);
  return { topics: topics.map(({ row, summary }) => viewerTopic(summary, unreadFlags(viewer, row, followed), true)), count };
}

/** A topic of the member's unread page: unread and not ignored (the page's statement chose it so). */
function unreadFlags(viewer: Viewer, row: TopicRow, followed: Map<number, boolean>) {
  return { isOwner: viewer.uid === row.uid, ignored: false, followed: followed.get(row.tid) ?? false, unread: true };
}

/** The latest post of each category, keyed by cid, in three statements whatever the number of categories. */
export async function categoryTeasers(ctx: TopicsDeps, cids: number[]): Promise<Map<number, Teaser>> {
  const topics = await store.latestPerCategory(ctx.db, cids);
  const posts = await ctx.posts.getMany(topics.map((t) => t.teaser_pid).filter((p) => p > 0));
  const users = await ctx.users.briefs([...posts.values()].map((p) => p.uid));
  const out = new Map<number, Teaser>();
  for (const t of topics) {
    const post = posts.get(t.teaser_pid);
    if (post && !post.deleted) out.set(t.cid, presentTeaser(ctx, post, Math.max(0, t.post_count - 1), users.get(post.uid)));
  }
  return out;
}
