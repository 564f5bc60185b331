import { badRequest, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { assertModerator, assertReadable, loadTopic } from '../topics/access.js';
import type { TopicRow } from '../topics/store.js';
import * as store from './store.js';
import type { PostRow } from './store.js';
import type { PostsDeps } from './service.js';

/** A post and its topic, or 404 error:no-post. */
export async function loadPost(ctx: PostsDeps, pid: number): Promise<{ post: PostRow; topic: TopicRow }> {
  const post = Number.isInteger(pid) && pid > 0 ? await store.byPid(ctx.db, pid) : undefined;
  if (!post) throw notFound('error:no-post');
  return { post, topic: await loadTopic(ctx, post.tid) };
}

/** A post the viewer may read (its topic readable), or 403/404. */
export async function loadReadablePost(ctx: PostsDeps, viewer: Viewer, pid: number): Promise<{ post: PostRow; topic: TopicRow }> {
  const found = await loadPost(ctx, pid);
  await assertReadable(ctx, viewer, found.topic);
  return found;
}

/** What the viewer may do to each post of one topic (the guardian's rule: Guardian.postTools). */
export async function postTools(ctx: PostsDeps, viewer: Viewer, topic: Pick<TopicRow, 'cid' | 'uid' | 'main_pid' | 'locked' | 'deleted' | 'scheduled'>) {
  return (await ctx.privileges.guardian(viewer)).postTools(topic);
}

/**
 * Posts a moderator selected in one topic (topic tools): every pid must exist, share one topic
 * the viewer moderates, and none be its main post. Sorted oldest first.
 */
export async function loadSelection(ctx: PostsDeps, viewer: Viewer, pids: number[]): Promise<{ posts: PostRow[]; from: TopicRow }> {
  const unique = [...new Set(pids)];
  if (!unique.length) throw badRequest('error:invalid-pid');
  const posts = await store.byPids(ctx.db, unique);
  if (posts.length !== unique.length) throw notFound('error:no-post');
  if (new Set(posts.map((p) => p.tid)).size !== 1) throw badRequest('error:posts-from-several-topics');
  const from = await loadTopic(ctx, posts[0]!.tid);
  await assertReadable(ctx, viewer, from);
  await assertModerator(ctx, viewer, from.cid);
  if (posts.some((p) => p.pid === from.main_pid)) throw badRequest('error:cant-move-mainpost');
  posts.sort((a, b) => Number(a.created) - Number(b.created) || a.pid - b.pid);
  return { posts, from };
}

/**
 * A topic posts may be moved into (topic tools): readable and moderated by the viewer (403/404),
 * neither locked nor deleted (400: a moderator unlocks or restores it first).
 */
export async function loadMoveTarget(ctx: PostsDeps, viewer: Viewer, tid: number): Promise<TopicRow> {
  const to = await loadTopic(ctx, tid);
  await assertReadable(ctx, viewer, to);
  if (to.scheduled === 1) throw notFound('error:no-topic');
  if (to.deleted === 1) throw badRequest('error:cant-move-to-deleted-topic');
  if (to.locked === 1) throw badRequest('error:cant-move-to-locked-topic');
  await assertModerator(ctx, viewer, to.cid);
  return to;
}

/** Refuses (403/404) a viewer who may not read and moderate each of these topics (topic tools). */
export async function assertModerates(ctx: PostsDeps, viewer: Viewer, topics: Iterable<TopicRow>): Promise<void> {
  for (const topic of topics) {
    await assertReadable(ctx, viewer, topic);
    await assertModerator(ctx, viewer, topic.cid);
  }
}
