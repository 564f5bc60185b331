import { notAuthorised, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import * as store from './store.js';
import type { TopicRow } from './store.js';
import type { TopicsDeps } from './service.js';

/** A topic by tid, or 404 error:no-topic. */
export async function loadTopic(ctx: TopicsDeps, tid: number): Promise<TopicRow> {
  const topic = Number.isInteger(tid) && tid > 0 ? await store.byTid(ctx.db, tid) : undefined;
  if (!topic) throw notFound('error:no-topic');
  return topic;
}

/** True when the viewer may see deleted content in the category. */
export async function canViewDeleted(ctx: TopicsDeps, viewer: Viewer, cid: number): Promise<boolean> {
  return (await ctx.privileges.guardian(viewer)).canViewDeleted(cid);
}

/**
 * Refuses a viewer who may not read the topic with the 404 of a missing one, as NodeBB does,
 * so restricted or deleted topics cannot be probed (the guardian's rule: Guardian.canReadTopic).
 */
export async function assertReadable(ctx: TopicsDeps, viewer: Viewer, topic: TopicRow): Promise<void> {
  (await ctx.privileges.guardian(viewer)).assertReadTopic(topic);
}

/** The logged-in viewer, or 401. */
export function member(viewer: Viewer): Viewer {
  if (viewer.uid <= 0) throw notAuthorised();
  return viewer;
}

/** Throws 403 unless the viewer moderates the topic's category. */
export async function assertModerator(ctx: TopicsDeps, viewer: Viewer, cid: number): Promise<void> {
  (await ctx.privileges.guardian(viewer)).assertModerator(cid);
}
