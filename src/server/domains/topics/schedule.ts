import { slugify } from '../../../shared/slug.js';
import { badRequest } from '../../http/errors.js';
import type { PostRow } from '../posts/store.js';
import type { Viewer } from '../privileges/service.js';
import type { PreparedTopic } from './create.js';
import * as store from './store.js';
import type { TopicRow } from './store.js';
import type { TopicsDeps } from './service.js';

/** The job that publishes a scheduled topic at its time (one run across processes). */
export const PUBLISH_JOB = 'topics.publish';

/**
 * The publication time asked for, or null for a topic published now. As NodeBB's
 * POST /api/v3/topics, only a future time schedules: a past one (an importer's original date,
 * NodeBB's documented example) publishes now; the composer refuses a past time itself
 * (error:invalid-schedule-date). Scheduling needs topics:schedule in the category.
 */
export async function scheduleTime(ctx: TopicsDeps, viewer: Viewer, timestamp: number | undefined, cid: number): Promise<number | null> {
  if (timestamp === undefined || timestamp === 0) return null;
  if (!Number.isSafeInteger(timestamp)) throw badRequest('error:invalid-schedule-date');
  if (timestamp <= Date.now()) return null;
  await ctx.privileges.assert(viewer, 'topics:schedule', cid);
  return timestamp;
}

/**
 * Writes a scheduled topic hidden (`scheduled = 1`, its times set to the publication time):
 * no counter moves and no action fires until the job publishes it.
 */
export async function writeScheduled(ctx: TopicsDeps, viewer: Viewer, p: PreparedTopic, ip: string): Promise<{ topic: TopicRow; post: PostRow }> {
  const at = p.publishAt!;
  return ctx.actions.run('topic.schedule', async (w) => {
    const inserted = await store.insertTopic(w, { cid: p.category.cid, uid: viewer.uid, title: p.title, slug: slugify(p.title), created: at, last_post_time: at, post_count: 1, scheduled: 1 });
    const post = await ctx.posts.insert(w, { tid: inserted.tid, uid: viewer.uid, content: p.content, content_html: p.html, created: at, ip });
    await store.updateTopic(w, inserted.tid, { main_pid: post.pid, teaser_pid: post.pid });
    // Tags are attached uncounted (as for a deleted topic) until publication.
    await ctx.tags.setForTopic(w, inserted.tid, p.finalTags, true);
    if (p.follow) await store.setFollowState(w, viewer.uid, inserted.tid, 'follow');
    await store.markRead(w, viewer.uid, inserted.tid, at);
    await ctx.jobs.enqueue(PUBLISH_JOB, { tid: inserted.tid }, { runAt: at });
    return { topic: (await store.byTid(w.tx, inserted.tid))!, post };
  });
}

/**
 * Publishes a scheduled topic: one conditional UPDATE clears the flag, so of two runs (two
 * processes, or a retried lease) only one counts it and fires action:topic.save.
 */
export async function publishScheduled(ctx: TopicsDeps, tid: number): Promise<TopicRow | null> {
  const topic = await store.byTid(ctx.db, tid);
  if (!topic || topic.scheduled !== 1) return null;
  const post = await ctx.posts.get(topic.main_pid);
  if (!post) return null;
  return ctx.actions.run('topic.publish', async (w) => {
    const published = await store.publish(w, tid);
    if (!published) return null;
    // A topic deleted while it waited is counted by its restore (moderate.ts), as any deleted one.
    if (published.deleted !== 1) {
      await ctx.categories.bumpCounters(w, published.cid, 1, 1);
      await ctx.tags.topicVisibility(w, tid, 1);
      await ctx.users.bump(w.tx, published.uid, 'topiccount', 1);
    }
    await ctx.users.recordPost(w, published.uid, Number(published.created));
    await w.fire('action:topic.save', { topic: published, post, uid: published.uid });
    return published;
  });
}

/** Declares the publishing job (called once when the topics service is built). */
export function defineScheduleJob(ctx: TopicsDeps): void {
  ctx.jobs.define<{ tid: number }>(PUBLISH_JOB, async ({ payload }) => void (await publishScheduled(ctx, payload.tid)), { leaseMs: 60_000 });
}
