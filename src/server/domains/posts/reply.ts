import { badRequest, forbidden } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { assertReadable, loadTopic, member } from '../topics/access.js';
import type { TopicRow } from '../topics/store.js';
import { userSettings } from '../users/presenter.js';
import { checkContent, checkFlood, render } from './rules.js';
import * as store from './store.js';
import type { PostRow } from './store.js';
import type { PostsDeps } from './service.js';

export interface NewReply {
  content: unknown;
  toPid?: number;
}

/** How a reply reaches the create path: `fromQueue` when a moderator accepts it (no flood check). */
export interface ReplyOptions {
  fromQueue?: boolean;
}

/** Replies to a topic: checks, one transaction for the post and every counter, then hooks. */
export async function reply(ctx: PostsDeps, viewer: Viewer, tid: number, data: NewReply, ip: string, opts: ReplyOptions = {}): Promise<{ post: PostRow; topic: TopicRow; index: number }> {
  const { topic, toPid, content, html, follow } = await prepareReply(ctx, viewer, tid, data, opts);
  const now = Math.max(Date.now(), Number(topic.last_post_time) + 1);
  const result = await ctx.db.transaction().execute(async (tx) => {
    const post = await store.insertPost(tx, { tid, uid: viewer.uid, to_pid: toPid, content, content_html: html, created: now, ip });
    // Written after the topic's last post, the reply becomes its teaser (unless a later one committed first).
    const updated = await ctx.topics.recordReply(tx, tid, post.pid, now);
    // A reply inside a deleted topic (moderators only) is not counted by its category.
    if (topic.deleted !== 1) await ctx.categories.bumpCounters(tx, topic.cid, 0, 1);
    await ctx.users.recordPost(tx, viewer.uid, now);
    if (follow) await ctx.topics.followIn(tx, viewer.uid, tid);
    await ctx.topics.markReadIn(tx, viewer.uid, tid, now);
    return { post, topic: updated ?? topic, index: await store.indexOf(tx, post) };
  });
  await ctx.hooks.fire('action:post.save', { post: result.post, topic: result.topic, uid: viewer.uid });
  return result;
}

/** Checks a reply (input, topic, privileges, flood, filters) without writing it: the reply path and the post queue share it. */
export async function prepareReply(ctx: PostsDeps, viewer: Viewer, tid: number, data: NewReply, opts: ReplyOptions = {}) {
  member(viewer);
  const s = await ctx.settings.get();
  checkContent(data.content, s);
  const toPid = data.toPid ?? 0;
  if (!Number.isInteger(toPid) || toPid < 0) throw badRequest('error:invalid-pid');

  const topic = await loadTopic(ctx, tid);
  await assertReadable(ctx, viewer, topic);
  if (toPid > 0) {
    const target = await store.byPid(ctx.db, toPid);
    if (!target || target.tid !== tid) throw badRequest('error:invalid-pid');
  }
  await ctx.privileges.assert(viewer, 'topics:reply', topic.cid);
  const isMod = await ctx.privileges.isModerator(viewer, topic.cid);
  if (topic.deleted === 1 && !isMod) throw forbidden('error:topic-deleted');
  if (topic.locked === 1 && !isMod) throw forbidden('error:topic-locked');
  if (!opts.fromQueue) await checkFlood(ctx, viewer, topic.cid);

  const filtered = await ctx.hooks.runFilter('filter:post.create', { uid: viewer.uid, tid, content: data.content as string, toPid });
  const content = checkContent(filtered.content, s);
  const html = await render(ctx, content, viewer.uid);
  const author = await ctx.users.ofViewer(viewer);
  const follow = author ? userSettings(author).followTopicsOnReply : false;
  return { topic, toPid, content, html, follow };
}
