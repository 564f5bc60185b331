import type { AppContext } from '../../../context.js';
import type { Queryable } from '../../../db/index.js';
import { runAction } from '../../../hooks/action.js';
import { badRequest, notFound } from '../../../http/errors.js';
import type { Viewer } from '../../privileges/service.js';
import { assertModerator, assertReadable, loadTopic, member } from '../../topics/access.js';
import { recordEvent } from '../../topics/tools/events.js';
import type { TopicRow } from '../../topics/store.js';
import * as store from '../store.js';
import type { PostRow } from '../store.js';
import type { PostsDeps } from '../service.js';

/** What the post tools use: the posts service's dependencies and the audit log. */
export type PostToolsDeps = PostsDeps & Pick<AppContext, 'events'>;

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
export async function movePostRows(ctx: PostsDeps, db: Queryable, posts: PostRow[], from: TopicRow, to: TopicRow): Promise<void> {
  if (!posts.length) return;
  const visible = posts.filter((p) => p.deleted !== 1).length;
  await store.setTopicOf(db, posts.map((p) => p.pid), to.tid);
  await ctx.topics.bumpPostCount(db, from.tid, -visible);
  await ctx.topics.bumpPostCount(db, to.tid, visible);
  if (counts(from)) await ctx.categories.bumpCounters(db, from.cid, 0, -visible);
  if (counts(to)) await ctx.categories.bumpCounters(db, to.cid, 0, visible);
  await ctx.topics.refreshTeaser(db, from.tid);
  await ctx.topics.refreshTeaser(db, to.tid);
}

/**
 * Refuses a target topic posts cannot go to: missing or unreadable (404), or locked or deleted
 * (400): a moderator unlocks or restores it first.
 */
export async function assertTarget(ctx: PostsDeps, viewer: Viewer, tid: number): Promise<TopicRow> {
  const to = await loadTopic(ctx, tid);
  await assertReadable(ctx, viewer, to);
  if (to.scheduled === 1) throw notFound('error:no-topic');
  if (to.deleted === 1) throw badRequest('error:cant-move-to-deleted-topic');
  if (to.locked === 1) throw badRequest('error:cant-move-to-locked-topic');
  await assertModerator(ctx, viewer, to.cid);
  return to;
}

/**
 * Loads posts a moderator selected in one topic (every pid must exist, share one topic the viewer
 * moderates, and none be its main post).
 */
export async function loadSelection(ctx: PostsDeps, viewer: Viewer, pids: number[]): Promise<{ posts: PostRow[]; from: TopicRow }> {
  const unique = [...new Set(pids)];
  if (!unique.length) throw badRequest('error:invalid-pid');
  const posts = await store.byPids(ctx.db, unique);
  if (posts.length !== unique.length) throw notFound('error:no-post');
  const tids = new Set(posts.map((p) => p.tid));
  if (tids.size !== 1) throw badRequest('error:posts-from-several-topics');
  const from = await loadTopic(ctx, posts[0]!.tid);
  await assertReadable(ctx, viewer, from);
  await assertModerator(ctx, viewer, from.cid);
  if (posts.some((p) => p.pid === from.main_pid)) throw badRequest('error:cant-move-mainpost');
  posts.sort((a, b) => Number(a.created) - Number(b.created) || a.pid - b.pid);
  return { posts, from };
}

/**
 * Moves selected posts to another topic (NodeBB's PUT /posts/{pid}/move, one or several):
 * moderators of both topics; not the main post, not into the same, a locked or a deleted topic.
 * Both timelines record it; the live layer tells both topics' readers.
 */
export async function movePosts(ctx: PostToolsDeps, viewer: Viewer, pids: number[], toTid: number, ip = ''): Promise<{ from: TopicRow; to: TopicRow; moved: number }> {
  member(viewer);
  const { posts, from } = await loadSelection(ctx, viewer, pids);
  if (from.tid === toTid) throw badRequest('error:cant-move-to-same-topic');
  const to = await assertTarget(ctx, viewer, toTid);
  await runAction(ctx.db, {
    write: async (tx) => {
      await movePostRows(ctx, tx, posts, from, to);
      await recordEvent(ctx, tx, from.tid, 'posts-moved-out', viewer.uid, { count: posts.length, otherTid: to.tid }, ip);
      await recordEvent(ctx, tx, to.tid, 'posts-moved-in', viewer.uid, { count: posts.length, otherTid: from.tid }, ip);
    },
    after: () => void ctx.hooks.fire('action:topic.tools', { tids: [from.tid, to.tid], uid: viewer.uid, tool: 'move-posts' }),
  });
  return { from, to, moved: posts.length };
}
