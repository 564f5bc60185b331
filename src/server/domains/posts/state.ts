import type { Writer } from '../../core/action.js';
import { badRequest, forbidden } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { member } from '../topics/access.js';
import type { TopicRow } from '../topics/store.js';
import { loadReadablePost } from './access.js';
import * as store from './store.js';
import type { PostRow } from './store.js';
import type { PostsDeps } from './service.js';

/** Moves every counter that counts a visible post: topic, category (when the topic counts), author. */
export async function moveVisibility(ctx: PostsDeps, w: Writer, post: PostRow, topic: TopicRow, delta: 1 | -1): Promise<void> {
  await ctx.topics.bumpPostCount(w, topic.tid, delta);
  if (topic.deleted !== 1) await ctx.categories.bumpCounters(w, topic.cid, 0, delta);
  await ctx.users.bump(w.tx, post.uid, 'postcount', delta);
}

/** Soft-deletes a reply: its author with posts:delete, or a moderator. */
export async function deletePost(ctx: PostsDeps, viewer: Viewer, pid: number): Promise<PostRow> {
  member(viewer);
  const { post, topic } = await loadReadablePost(ctx, viewer, pid);
  if (topic.main_pid === post.pid) throw badRequest('error:cant-delete-main-post');
  const isMod = await ctx.privileges.isModerator(viewer, topic.cid);
  if (!isMod) {
    if (post.uid !== viewer.uid || !(await ctx.privileges.can(viewer, 'posts:delete', topic.cid))) throw forbidden();
    const s = await ctx.settings.get();
    if (s.postDeleteDuration > 0 && Date.now() - Number(post.created) > s.postDeleteDuration * 1000) {
      throw forbidden('error:post-delete-duration-expired', s.postDeleteDuration);
    }
  }
  if (post.deleted === 1) throw badRequest('error:already-deleted');
  const updated = { ...post, deleted: 1, deleter_uid: viewer.uid };
  await ctx.actions.run('post.delete', async (w) => {
    await store.updatePost(w, pid, { deleted: 1, deleter_uid: viewer.uid });
    await moveVisibility(ctx, w, post, topic, -1);
    await ctx.topics.refreshTeaser(w, topic.tid);
    await w.fire('action:post.delete', { post: updated, topic, uid: viewer.uid });
  });
  return updated;
}

/** Restores a deleted reply: a moderator, or its author when they deleted it themself. */
export async function restorePost(ctx: PostsDeps, viewer: Viewer, pid: number): Promise<PostRow> {
  member(viewer);
  const { post, topic } = await loadReadablePost(ctx, viewer, pid);
  const isMod = await ctx.privileges.isModerator(viewer, topic.cid);
  const own = post.uid === viewer.uid && post.deleter_uid === viewer.uid && (await ctx.privileges.can(viewer, 'posts:delete', topic.cid));
  if (!isMod && !own) throw forbidden();
  if (post.deleted !== 1) throw badRequest('error:already-restored');
  const updated = { ...post, deleted: 0, deleter_uid: 0 };
  await ctx.actions.run('post.restore', async (w) => {
    await store.updatePost(w, pid, { deleted: 0, deleter_uid: 0 });
    await moveVisibility(ctx, w, post, topic, 1);
    await ctx.topics.refreshTeaser(w, topic.tid);
    await w.fire('action:post.restore', { post: updated, topic, uid: viewer.uid });
  });
  return updated;
}

/** Purges a reply for ever: the purge privilege, and authorship or moderation. */
export async function purgePost(ctx: PostsDeps, viewer: Viewer, pid: number): Promise<void> {
  member(viewer);
  const { post, topic } = await loadReadablePost(ctx, viewer, pid);
  if (topic.main_pid === post.pid) throw badRequest('error:cant-purge-main-post');
  const may = (await ctx.privileges.can(viewer, 'purge', topic.cid)) && (post.uid === viewer.uid || (await ctx.privileges.isModerator(viewer, topic.cid)));
  if (!may) throw forbidden();
  await ctx.actions.run('post.purge', async (w) => {
    if (post.deleted !== 1) await moveVisibility(ctx, w, post, topic, -1);
    // The votes go with the post, and so does the reputation they gave its author.
    await ctx.users.bump(w.tx, post.uid, 'reputation', -(post.upvotes - post.downvotes));
    await store.deletePost(w, pid);
    await ctx.topics.refreshTeaser(w, topic.tid);
    await w.fire('action:post.purge', { post, topic, uid: viewer.uid });
  });
}

/** Takes back the counters a topic's posts gave their authors, before the topic row (and its posts) go. */
export async function forgetTopicPosts(ctx: PostsDeps, w: Writer, tid: number): Promise<void> {
  const db = w.tx;
  for (const { uid, n } of await store.visibleCountsByUser(db, tid)) await ctx.users.bump(db, uid, 'postcount', -n);
  for (const { uid, score } of await store.voteScoreByAuthor(db, tid)) await ctx.users.bump(db, uid, 'reputation', -score);
}
