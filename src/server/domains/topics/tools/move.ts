import { badRequest, notFound } from '../../../http/errors.js';
import type { Viewer } from '../../privileges/service.js';
import { assertModerator, assertReadable, loadTopic, member } from '../access.js';
import * as store from '../store.js';
import type { TopicRow } from '../store.js';
import type { TopicToolsDeps as TopicsDeps } from '../service.js';
import { recordEvent } from './events.js';

/**
 * Moves a topic to another category (NodeBB's PUT /topics/{tid}/move): moderators of both
 * categories (admins, global moderators, or a category moderator of each). The topic and its
 * posts leave the old category's counts and join the new one's (when the topic counts: not
 * deleted, not scheduled); the timeline records it and action:topic.move tells the live layer.
 */
export async function moveTopic(ctx: TopicsDeps, viewer: Viewer, tid: number, cid: number, ip = ''): Promise<TopicRow> {
  member(viewer);
  const topic = await loadTopic(ctx, tid);
  await assertReadable(ctx, viewer, topic);
  await assertModerator(ctx, viewer, topic.cid);
  const target = await ctx.categories.get(cid);
  if (!target) throw notFound('error:no-category');
  if (target.cid === topic.cid) throw badRequest('error:cant-move-topic-to-same-category');
  if (target.link) throw badRequest('error:invalid-cid');
  await assertModerator(ctx, viewer, target.cid);
  const from = await ctx.categories.get(topic.cid);
  const updated = { ...topic, cid: target.cid };
  await ctx.actions.run('topic.move', async (w) => {
    await store.updateTopic(w, tid, { cid: target.cid });
    if (topic.deleted !== 1 && topic.scheduled !== 1) {
      await ctx.categories.bumpCounters(w, topic.cid, -1, -topic.post_count);
      await ctx.categories.bumpCounters(w, target.cid, 1, topic.post_count);
    }
    await recordEvent(ctx, w, tid, 'move', viewer.uid, { fromName: from?.name ?? '', toName: target.name, fromCid: topic.cid, toCid: target.cid }, ip);
    await w.fire('action:topic.move', { topic: updated, uid: viewer.uid, fromCid: topic.cid });
  });
  return updated;
}
