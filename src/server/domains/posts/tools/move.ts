import type { Queryable } from '../../../db/index.js';
import type { Writer } from '../../../core/action.js';
import { badRequest, notAuthorised } from '../../../http/errors.js';
import type { Viewer } from '../../privileges/service.js';
import type { TopicRow } from '../../topics/store.js';
import { loadMoveTarget, loadSelection } from '../access.js';
import * as store from '../store.js';
import type { PostRow } from '../store.js';
import type { PostsDeps } from '../service.js';

/** Every post of a topic, oldest first (a merge moves them all). */
export async function postsOfTopic(db: Queryable, tid: number): Promise<PostRow[]> {
  return store.pageOfTopic(db, tid, 0, Number.MAX_SAFE_INTEGER);
}

/** Whether a topic's posts count in its category (neither deleted nor waiting for its time). */
const counts = (t: Pick<TopicRow, 'deleted' | 'scheduled'>) => t.deleted !== 1 && t.scheduled !== 1;

/**
 * Moves posts of one topic into another, inside the caller's transaction: the topics' post
 * counts and teasers and (when the topics count in different places) the categories' post
 * counts follow. Authors keep their counts: the posts are still theirs and still visible.
 */
export async function movePostRows(ctx: PostsDeps, w: Writer, posts: PostRow[], from: TopicRow, to: TopicRow): Promise<void> {
  if (!posts.length) return;
  const visible = posts.filter((p) => p.deleted !== 1).length;
  await store.setTopicOf(w, posts.map((p) => p.pid), to.tid);
  await ctx.topics.bumpPostCount(w, from.tid, -visible);
  await ctx.topics.bumpPostCount(w, to.tid, visible);
  if (counts(from)) await ctx.categories.bumpCounters(w, from.cid, 0, -visible);
  if (counts(to)) await ctx.categories.bumpCounters(w, to.cid, 0, visible);
  await ctx.topics.refreshTeaser(w, from.tid);
  await ctx.topics.refreshTeaser(w, to.tid);
}

/**
 * Moves selected posts to another topic (NodeBB's PUT /posts/{pid}/move, one or several):
 * moderators of both topics; not the main post, not into the same, a locked or a deleted topic.
 * Both timelines record it; the live layer tells both topics' readers.
 */
export async function movePosts(ctx: PostsDeps, viewer: Viewer, pids: number[], toTid: number, ip = ''): Promise<{ from: TopicRow; to: TopicRow; moved: number }> {
  if (viewer.uid <= 0) throw notAuthorised();
  const { posts, from } = await loadSelection(ctx, viewer, pids);
  if (from.tid === toTid) throw badRequest('error:cant-move-to-same-topic');
  const to = await loadMoveTarget(ctx, viewer, toTid);
  await ctx.actions.run('post.move', async (w) => {
    await movePostRows(ctx, w, posts, from, to);
    await ctx.topics.recordEvent(w, from.tid, 'posts-moved-out', viewer.uid, { count: posts.length, otherTid: to.tid }, ip);
    await ctx.topics.recordEvent(w, to.tid, 'posts-moved-in', viewer.uid, { count: posts.length, otherTid: from.tid }, ip);
    await w.fire('action:topic.tools', { tids: [from.tid, to.tid], uid: viewer.uid, tool: 'move-posts' });
  });
  return { from, to, moved: posts.length };
}
