import type { ForumSettings } from '../../../shared/constants.js';
import { badRequest } from '../../http/errors.js';
import { enforce } from '../../http/ratelimit.js';
import type { Viewer } from '../privileges/service.js';
import type { PostsDeps } from './service.js';

/** Checks a title's length (trimmed) and returns it trimmed. */
export function checkTitle(title: unknown, s: ForumSettings): string {
  if (typeof title !== 'string') throw badRequest('error:invalid-data');
  const t = title.trim();
  if (t.length < s.minimumTitleLength) throw badRequest('error:title-too-short', s.minimumTitleLength);
  if (t.length > s.maximumTitleLength) throw badRequest('error:title-too-long', s.maximumTitleLength);
  return t;
}

/** Checks a post's length (trimmed); the content is stored as written. */
export function checkContent(content: unknown, s: ForumSettings): string {
  if (typeof content !== 'string') throw badRequest('error:invalid-data');
  const n = content.trim().length;
  if (n < s.minimumPostLength) throw badRequest('error:content-too-short', s.minimumPostLength);
  if (n > s.maximumPostLength) throw badRequest('error:content-too-long', s.maximumPostLength);
  return content;
}

/** Renders markdown to sanitised HTML through the parse filter (done once, at write time). */
export async function render(ctx: PostsDeps, content: string, uid: number, kind: 'post' | 'raw' = 'post'): Promise<string> {
  return (await ctx.hooks.runFilter('filter:parse.post', { content, html: '', kind, uid })).html;
}

/** True when the viewer skips flood control: administrators, the category's moderators, master-token integrations. */
export async function floodExempt(ctx: PostsDeps, viewer: Viewer, cid: number): Promise<boolean> {
  return viewer.isAdmin || viewer.master === true || (await ctx.privileges.isModerator(viewer, cid));
}

/**
 * Flood control before a new post: the wait after joining, the wait between posts (longer
 * below the newbie reputation threshold), then the per-minute rate limit.
 */
export async function checkFlood(ctx: PostsDeps, viewer: Viewer, cid: number): Promise<void> {
  if (await floodExempt(ctx, viewer, cid)) return;
  const s = await ctx.settings.get();
  const user = await ctx.users.get(viewer.uid);
  if (!user) return;
  const now = Date.now();
  if (s.initialPostDelay > 0 && now - Number(user.joindate) < s.initialPostDelay * 1000) {
    throw badRequest('error:user-too-new', s.initialPostDelay);
  }
  const newbie = user.reputation < s.newbieReputationThreshold;
  const delay = newbie ? s.newbiePostDelay : s.postDelay;
  if (delay > 0 && now - Number(user.lastposttime) < delay * 1000) {
    throw newbie && s.newbiePostDelay > s.postDelay
      ? badRequest('error:too-many-posts-newbie', s.newbiePostDelay, s.newbieReputationThreshold)
      : badRequest('error:too-many-posts', delay);
  }
  await enforce(ctx.limiter, `posts:${viewer.uid}`, ctx.config.rateLimits.posts, 60);
}
