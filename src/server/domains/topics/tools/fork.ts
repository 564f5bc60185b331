import { slugify } from '../../../../shared/slug.js';
import { notFound } from '../../../http/errors.js';
import { checkTitle } from '../create.js';
import type { Viewer } from '../../privileges/service.js';
import { assertModerator, member } from '../access.js';
import * as store from '../store.js';
import type { TopicRow } from '../store.js';
import type { TopicToolsDeps as TopicsDeps } from '../service.js';
import { recordEvent } from './events.js';

export interface ForkInput {
  title: unknown;
  pids: number[];
  /** The new topic's category (default: the source topic's). */
  cid?: number;
}

/**
 * Forks selected posts into a new topic (NodeBB's topics.createTopicFromPosts): moderators of
 * the source topic and of the new topic's category. The oldest selected post becomes the new
 * topic's main post and its author the topic's starter; the posts keep their times. Counts
 * follow both ways; both timelines record it (the source's links to the new topic).
 */
export async function forkTopic(ctx: TopicsDeps, viewer: Viewer, input: ForkInput, ip = ''): Promise<TopicRow> {
  member(viewer);
  const s = await ctx.settings.get();
  const title = checkTitle(input.title, s);
  const { posts, from } = await ctx.posts.selection(viewer, input.pids);
  const category = await ctx.categories.get(input.cid ?? from.cid);
  if (!category || category.link) throw notFound('error:no-category');
  await assertModerator(ctx, viewer, category.cid);
  const first = posts[0]!;
  const created = Number(first.created);
  return ctx.actions.run('topic.fork', async (w) => {
    const topic = await store.insertTopic(w, { cid: category.cid, uid: first.uid, title, slug: slugify(title), created, last_post_time: created, main_pid: first.pid, teaser_pid: first.pid, post_count: 0 });
    await ctx.posts.moveRows(w, posts, from, topic);
    await ctx.categories.bumpCounters(w, category.cid, 1, 0);
    await ctx.users.bump(w.tx, first.uid, 'topiccount', 1);
    // A topic's votes mirror its main post's.
    await store.bumpVotes(w, topic.tid, first.upvotes, first.downvotes);
    await recordEvent(ctx, w, from.tid, 'fork', viewer.uid, { count: posts.length, otherTid: topic.tid }, ip);
    await recordEvent(ctx, w, topic.tid, 'forked-from', viewer.uid, { count: posts.length, otherTid: from.tid }, ip);
    await w.fire('action:topic.tools', { tids: [from.tid, topic.tid], uid: viewer.uid, tool: 'fork' });
    return (await store.byTid(w.tx, topic.tid))!;
  });
}
