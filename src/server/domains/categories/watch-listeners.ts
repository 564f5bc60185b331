import type { AppContext } from '../../context.js';

/** What the listener uses: the hooks, and who watches categories and tags. */
export type WatchListenersDeps = Pick<AppContext, 'categories' | 'hooks' | 'tags'>;

/**
 * Tells of each new topic the members watching its category (a chosen `watching` state, as
 * NodeBB's getWatchers: tracking members see it in /unread only) and then, once each, those
 * following one of its tags and not ignoring the category: `action:topic.watched`, which the
 * notifications domain turns into notifications. The author is never told. Durable (run from
 * the outbox after commit, retried): run twice, it fires twice, and the notifications domain
 * tells each reader of a new topic once (key `new-topic:<tid>`).
 */
export function registerWatchListeners(ctx: WatchListenersDeps): void {
  ctx.hooks.action('action:topic.save', 'watching', async ({ topic, post, uid }) => {
    const watchers = (await ctx.categories.watchers(topic.cid)).filter((u) => u !== uid);
    if (watchers.length) await ctx.hooks.fire('action:topic.watched', { topic, post, uid, uids: watchers, via: 'category' });
    const told = new Set([uid, ...watchers]);
    const tagFollowers = (await ctx.tags.followers(await ctx.tags.namesOf(topic.tid))).filter((u) => !told.has(u));
    const ignoring = await ctx.categories.ignoring(topic.cid, tagFollowers);
    const uids = tagFollowers.filter((u) => !ignoring.has(u));
    if (uids.length) await ctx.hooks.fire('action:topic.watched', { topic, post, uid, uids, via: 'tag' });
  }, { durable: true });
}
