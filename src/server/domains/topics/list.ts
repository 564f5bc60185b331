import type { Teaser, TopicSummary } from '../../../shared/types.js';
import { SharedPageCache } from '../../cache/page-cache.js';
import { presentTeaser } from '../posts/presenter.js';
import type { Viewer } from '../privileges/service.js';
import { overlayTopics, presentSharedTopics } from './presenter.js';
import type { TopicRow } from './store.js';
import type { TopicListOptions } from './service.js';
import * as store from './store.js';
import type { TopicsDeps } from './service.js';

/** A list page as every reader who may read the same categories sees it (see ListCounts). */
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
 * state are built each time. Dropped on every content action in this process (like the guest
 * cache) and after TTL_MS, the bound on another process's staleness.
 */
export class ListCounts {
  static readonly TTL_MS = 5000;
  private counts = new Map<string, { n: number; at: number }>();
  private pages = new SharedPageCache<SharedPage>(ListCounts.TTL_MS, 200);
  /** Bumped by each clear: a count or page read across a clear is not stored (it may predate the write). */
  generation = 0;

  key(q: { cids: number[]; deletedCids: number[]; tag?: string; since?: number; unreadFor?: number }): string | null {
    if (q.since !== undefined || q.unreadFor !== undefined) return null;
    return `${q.cids.join(',')}|${q.deletedCids.join(',')}|${q.tag ?? ''}`;
  }

  get(key: string | null): number | undefined {
    if (key === null) return undefined;
    const hit = this.counts.get(key);
    return hit && Date.now() - hit.at < ListCounts.TTL_MS ? hit.n : undefined;
  }

  set(key: string | null, n: number, at: number, generation: number): void {
    if (key === null || generation !== this.generation) return;
    if (this.counts.size >= 1000) this.counts.clear();
    this.counts.set(key, { n, at });
  }

  /** The shared page for the key, from the cache, from a build under way, or built now by `build`. */
  page(key: string, build: () => Promise<SharedPage>): Promise<SharedPage> {
    return this.pages.get(key, build);
  }

  clear(): void {
    this.generation++;
    this.counts.clear();
    this.pages.clear();
  }
}

/** A page of topic summaries and the total; deleted topics show only in category lists, to those who may see them. */
export async function listTopics(ctx: TopicsDeps, viewer: Viewer, opts: TopicListOptions, counts?: ListCounts): Promise<{ topics: TopicSummary[]; count: number }> {
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
  const key = counts?.key(query) ?? null;
  const build = async (): Promise<SharedPage> => {
    const known = counts?.get(key);
    const at = Date.now();
    const generation = counts?.generation ?? 0;
    const { rows, count } = await store.listTopics(ctx.db, query, known);
    if (known === undefined) counts?.set(key, count, at, generation);
    return { rows, topics: await presentSharedTopics(ctx, rows), count };
  };
  const page = counts && key !== null ? await counts.page(`${key}|${query.sort}|${query.offset}|${query.limit}`, build) : await build();
  return { topics: await overlayTopics(ctx, viewer, page.rows, page.topics), count: page.count };
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
