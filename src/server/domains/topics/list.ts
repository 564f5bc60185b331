import type { Teaser, TopicSummary } from '../../../shared/types.js';
import { presentTeaser } from '../posts/presenter.js';
import type { Viewer } from '../privileges/service.js';
import { presentTopics } from './presenter.js';
import type { TopicListOptions } from './service.js';
import * as store from './store.js';
import type { TopicsDeps } from './service.js';

/** A page of topic summaries and the total; deleted topics show only in category lists, to those who may see them. */
export async function listTopics(ctx: TopicsDeps, viewer: Viewer, opts: TopicListOptions): Promise<{ topics: TopicSummary[]; count: number }> {
  const deletedCids = opts.sort === 'category' ? await ctx.privileges.filterCids(viewer, 'posts:view_deleted', opts.cids) : [];
  const { rows, count } = await store.listTopics(ctx.db, {
    cids: opts.cids,
    deletedCids,
    sort: opts.sort,
    offset: (opts.page - 1) * opts.perPage,
    limit: opts.perPage,
    since: opts.since,
    tag: opts.tag,
    unreadFor: opts.unreadOnly && viewer.uid > 0 ? viewer.uid : undefined,
    watchedCids: opts.unreadOnly && viewer.uid > 0 ? opts.watchedCids : undefined,
  });
  return { topics: await presentTopics(ctx, viewer, rows), count };
}

/** The latest post of each category, keyed by cid, in three statements whatever the number of categories. */
export async function categoryTeasers(ctx: TopicsDeps, cids: number[]): Promise<Map<number, Teaser>> {
  const topics = await store.latestPerCategory(ctx.db, cids);
  const posts = await ctx.posts.getMany(topics.map((t) => t.teaser_pid).filter((p) => p > 0));
  const users = await ctx.users.getMany([...posts.values()].map((p) => p.uid));
  const out = new Map<number, Teaser>();
  for (const t of topics) {
    const post = posts.get(t.teaser_pid);
    if (post && !post.deleted) out.set(t.cid, presentTeaser(ctx, post, Math.max(0, t.post_count - 1), users.get(post.uid)));
  }
  return out;
}
