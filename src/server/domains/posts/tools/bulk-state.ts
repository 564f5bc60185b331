import { badRequest, forbidden, notAuthorised, notFound } from '../../../http/errors.js';
import type { Viewer } from '../../privileges/service.js';
import { assertModerates } from '../access.js';
import { moveVisibility } from '../state.js';
import * as store from '../store.js';
import type { PostsDeps as PostToolsDeps } from '../service.js';

/** What a moderator does to a selection of posts at once. */
export type BulkPostOp = 'delete' | 'restore' | 'purge';

/**
 * Deletes, restores or purges a moderator's selection of posts in one action (the topic page's
 * post selection; NodeBB sends one request per post): moderators of every topic the posts are
 * in, and the purge privilege there to purge. A main post is refused (the topic tools delete
 * topics); posts already in the asked state are left as they are. Every post's hooks fire as
 * its single delete, restore or purge fires them (live events, the search index), and each
 * topic's teaser is refreshed once. Answers how many posts changed.
 */
export async function bulkPostState(ctx: PostToolsDeps, viewer: Viewer, pids: number[], op: BulkPostOp): Promise<{ count: number }> {
  if (viewer.uid <= 0) throw notAuthorised();
  const unique = [...new Set(pids)];
  if (!unique.length) throw badRequest('error:invalid-pid');
  const posts = await store.byPids(ctx.db, unique);
  if (posts.length !== unique.length) throw notFound('error:no-post');
  const topics = await ctx.topics.getMany([...new Set(posts.map((p) => p.tid))]);
  await assertModerates(ctx, viewer, topics.values());
  if (posts.some((p) => topics.get(p.tid)!.main_pid === p.pid)) throw badRequest(op === 'purge' ? 'error:cant-purge-main-post' : 'error:cant-delete-main-post');
  if (op === 'purge') {
    for (const cid of new Set([...topics.values()].map((t) => t.cid))) if (!(await ctx.privileges.can(viewer, 'purge', cid))) throw forbidden();
  }
  const changing = op === 'delete' ? posts.filter((p) => p.deleted !== 1) : op === 'restore' ? posts.filter((p) => p.deleted === 1) : posts;
  if (!changing.length) return { count: 0 };
  await ctx.actions.run(`post.bulk-${op}`, async (w) => {
    for (const post of changing) {
      const topic = topics.get(post.tid)!;
      if (op === 'purge') {
        if (post.deleted !== 1) await moveVisibility(ctx, w, post, topic, -1);
        await ctx.users.bump(w.tx, post.uid, 'reputation', -(post.upvotes - post.downvotes));
        await store.deletePost(w, post.pid);
        await w.fire('action:post.purge', { post, topic, uid: viewer.uid });
      } else {
        const deleted = op === 'delete';
        const updated = { ...post, deleted: deleted ? 1 : 0, deleter_uid: deleted ? viewer.uid : 0 };
        await store.updatePost(w, post.pid, { deleted: updated.deleted, deleter_uid: updated.deleter_uid });
        await moveVisibility(ctx, w, post, topic, deleted ? -1 : 1);
        await w.fire(deleted ? 'action:post.delete' : 'action:post.restore', { post: updated, topic, uid: viewer.uid });
      }
    }
    for (const tid of new Set(changing.map((p) => p.tid))) await ctx.topics.refreshTeaser(w, tid);
  });
  return { count: changing.length };
}
