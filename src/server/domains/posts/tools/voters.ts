import type { Viewer } from '../../privileges/service.js';
import { forbidden } from '../../../http/errors.js';
import { presentUser } from '../../users/presenter.js';
import type { UserSummary } from '../../../../shared/types.js';
import { loadReadablePost } from '../access.js';
import * as store from '../store.js';
import type { PostsDeps } from '../service.js';

/** NodeBB's answer of GET /posts/{pid}/voters. */
export interface Voters {
  upvoteCount: number;
  downvoteCount: number;
  showUpvotes: boolean;
  showDownvotes: boolean;
  upvoters: UserSummary[];
  downvoters: UserSummary[];
}

/**
 * Who voted on a post, as NodeBB's defaults show them: upvoters to every reader of the post
 * (upvoteVisibility "all"), downvoters to moderators of its category (downvoteVisibility
 * "privileged"). A list the viewer may not see is answered empty with its show flag false.
 */
export async function voters(ctx: PostsDeps, viewer: Viewer, pid: number): Promise<Voters> {
  const { post, topic } = await loadReadablePost(ctx, viewer, pid);
  const showUpvotes = true;
  const showDownvotes = await ctx.privileges.isModerator(viewer, topic.cid);
  const votes = await store.votersOf(ctx.db, post.pid);
  const users = await ctx.users.getMany(votes.map((v) => v.uid));
  const of = (sign: number) => votes.filter((v) => Math.sign(v.value) === sign).map((v) => presentUser(users.get(v.uid), v.uid));
  const upvoters = of(1);
  const downvoters = of(-1);
  return {
    upvoteCount: upvoters.length,
    downvoteCount: downvoters.length,
    showUpvotes,
    showDownvotes,
    upvoters: showUpvotes ? upvoters : [],
    downvoters: showDownvotes ? downvoters : [],
  };
}

/** NodeBB's GET /posts/{pid}/upvoters: the first usernames for a tooltip, and how many more. */
export async function upvoterNames(ctx: PostsDeps, viewer: Viewer, pid: number, cutoff = 6): Promise<{ otherCount: number; usernames: string[]; cutoff: number }> {
  const v = await voters(ctx, viewer, pid);
  if (!v.showUpvotes) throw forbidden();
  const names = v.upvoters.map((u) => u.username);
  return { otherCount: Math.max(0, names.length - cutoff), usernames: names.slice(0, cutoff), cutoff };
}
