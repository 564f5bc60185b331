import { badRequest, notAuthorised, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import type { UsersDeps } from './service.js';
import * as store from './store.js';

/**
 * The viewer starts (on) or stops following a member. NodeBB's answers: no following
 * oneself, no following twice, no unfollowing someone not followed (400 with its key).
 * Both members' counters move in the follow's transaction; `action:user.follow` tells the
 * followed member (notifications listen).
 */
export async function setUserFollow(ctx: UsersDeps, viewer: Viewer, followee: number, on: boolean): Promise<void> {
  if (viewer.uid <= 0) throw notAuthorised();
  if (viewer.uid === followee) throw badRequest(on ? 'error:you-cant-follow-yourself' : 'error:you-cant-unfollow-yourself');
  // Privilege first, so a member who may not see members cannot probe which uids exist.
  await ctx.privileges.assert(viewer, 'view:users');
  const target = await store.byUid(ctx.db, followee);
  if (!target || target.deleted) throw notFound('error:no-user');
  await ctx.actions.run(on ? 'user.follow' : 'user.unfollow', async (w) => {
    if (!(await store.setFollow(w, viewer.uid, followee, on, Date.now()))) throw badRequest(on ? 'error:already-following' : 'error:not-following');
    if (on) await w.fire('action:user.follow', { uid: viewer.uid, followee });
    else await w.fire('action:user.unfollow', { uid: viewer.uid, followee });
  });
}
