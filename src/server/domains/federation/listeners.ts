import type { HookBus } from '../../hooks/bus.js';
import type { PostEvent } from './names.js';
import type { FederationService } from './service.js';

/**
 * A post created, edited or deleted reaches the remote followers of its author and of its
 * category: durable listeners (their outbox row is written with the post) hand it to Fedify's
 * queue, whose messages are our jobs (one delivery per inbox, retried with back-off).
 */
export function registerFederationListeners(ctx: { hooks: HookBus; federation: FederationService }): void {
  const on = (event: PostEvent) => async ({ post, topic }: { post: { pid: number; uid: number; edited: number; created: number }; topic: { tid: number; cid: number } }) => {
    const at = event === 'create' ? post.created : event === 'update' ? post.edited || Date.now() : Date.now();
    await ctx.federation.deliverPost(event, post.pid, topic.tid, topic.cid, post.uid, at);
  };
  ctx.hooks.action('action:topic.save', 'federation', on('create'), { durable: true });
  ctx.hooks.action('action:post.save', 'federation', on('create'), { durable: true });
  ctx.hooks.action('action:post.edit', 'federation', on('update'), { durable: true });
  ctx.hooks.action('action:post.delete', 'federation', on('delete'), { durable: true });
  ctx.hooks.action('action:post.purge', 'federation', on('delete'), { durable: true });
}
