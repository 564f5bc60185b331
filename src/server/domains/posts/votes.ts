import { badRequest } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { member } from '../topics/access.js';
import { loadReadablePost } from './access.js';
import * as store from './store.js';
import type { PostRow } from './store.js';
import type { PostsDeps } from './service.js';

/**
 * Casts (+1/-1) or withdraws (0) the viewer's vote. Changing a vote moves both counters;
 * the author's reputation follows the net change; a main post's votes also count for its topic.
 */
export async function vote(ctx: PostsDeps, viewer: Viewer, pid: number, delta: number): Promise<PostRow> {
  member(viewer);
  if (!Number.isFinite(delta)) throw badRequest('error:invalid-data');
  const value = Math.sign(delta) as -1 | 0 | 1;
  const { post, topic } = await loadReadablePost(ctx, viewer, pid);
  if (value !== 0) {
    if (post.uid === viewer.uid) throw badRequest('error:self-vote');
    if (post.deleted === 1) throw badRequest('error:post-deleted');
    await ctx.privileges.assert(viewer, value > 0 ? 'posts:upvote' : 'posts:downvote', topic.cid);
  }
  return ctx.actions.run('post.vote', async (w) => {
    const tx = w.tx;
    const current = await store.voteOf(tx, viewer.uid, pid);
    if (current !== value) {
      await store.setVote(w, viewer.uid, pid, value);
      const up = (value > 0 ? 1 : 0) - (current > 0 ? 1 : 0);
      const down = (value < 0 ? 1 : 0) - (current < 0 ? 1 : 0);
      await store.bumpVotes(w, pid, up, down);
      if (topic.main_pid === pid) await ctx.topics.bumpVotes(w, topic.tid, up, down);
      await ctx.users.bump(tx, post.uid, 'reputation', value - current);
    }
    const updated = current === value ? post : (await store.byPid(tx, pid))!;
    await w.fire('action:post.vote', { post: updated, uid: viewer.uid, value });
    return updated;
  });
}

/** Bookmarks or unbookmarks a post; doing it twice is a 400 with already-(un)bookmarked. */
export async function bookmark(ctx: PostsDeps, viewer: Viewer, pid: number, on: boolean): Promise<PostRow> {
  member(viewer);
  const { post } = await loadReadablePost(ctx, viewer, pid);
  void post;
  return ctx.actions.run('post.bookmark', async (w) => {
    if (!(await store.setBookmark(w, viewer.uid, pid, on))) throw badRequest(on ? 'error:already-bookmarked' : 'error:already-unbookmarked');
    const updated = (await store.byPid(w.tx, pid))!;
    await w.fire('action:post.bookmark', { post: updated, uid: viewer.uid, bookmarked: on });
    return updated;
  });
}
