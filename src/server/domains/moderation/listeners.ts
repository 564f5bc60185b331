import type { AppContext } from '../../context.js';

/** What these functions use of the application. */
type Deps = Pick<AppContext, 'hooks' | 'moderation'>;

/**
 * The moderation domain's listeners: a muted member's posts and edits are refused and a new
 * member's links limited (filters, before anything is written; the post queue runs the same
 * filters), and every login and post records its address for the info page.
 */
export function registerModerationListeners(ctx: Deps): void {
  const m = ctx.moderation;
  // Priority 1: refused before other filters (spam checks, plugins) spend work on it.
  ctx.hooks.filter('filter:topic.create', 'moderation', async (d) => {
    await m.assertNotMuted(d.uid);
    await m.assertLinksAllowed(d.uid, d.content);
    return d;
  }, 1);
  ctx.hooks.filter('filter:post.create', 'moderation', async (d) => {
    await m.assertNotMuted(d.uid);
    await m.assertLinksAllowed(d.uid, d.content);
    return d;
  }, 1);
  ctx.hooks.filter('filter:post.edit', 'moderation', async (d) => {
    await m.assertNotMuted(d.uid);
    await m.assertLinksAllowed(d.uid, d.content);
    return d;
  }, 1);
  ctx.hooks.action('action:post.save', 'moderation', ({ post }) => m.recordIp(post.uid, post.ip));
  ctx.hooks.action('action:topic.save', 'moderation', ({ post }) => m.recordIp(post.uid, post.ip));
  ctx.hooks.action('action:user.loggedIn', 'moderation', ({ uid, ip }) => m.recordIp(uid, ip ?? ''));
}
