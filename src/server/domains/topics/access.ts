import { forbidden, notAuthorised, notFound } from '../../http/errors.js';
import type { ViewerPrivileges } from '../../../shared/types.js';
import type { Viewer } from '../privileges/service.js';
import { canSeeScheduled } from './schedule.js';
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
  return (await ctx.privileges.forCategory(viewer, cid)).view_deleted;
}

/**
 * Refuses a viewer who may not read the topic with the 404 of a missing one, as NodeBB does,
 * so restricted or deleted topics cannot be probed: without the read privileges, or deleted
 * when they neither own it nor may see deleted content, or scheduled and not theirs to see yet.
 */
export async function assertReadable(ctx: TopicsDeps, viewer: Viewer, topic: TopicRow): Promise<void> {
  await assertReadableWith(ctx, viewer, topic, await ctx.privileges.forCategory(viewer, topic.cid));
}

/**
 * assertReadable with the viewer's privileges in the topic's category in hand (forCategory's
 * answer, which a page shows anyway): no further look at the grant table, and no wait at all
 * unless the topic is scheduled.
 */
export function assertReadableWith(ctx: TopicsDeps, viewer: Viewer, topic: TopicRow, privileges: Readonly<ViewerPrivileges>): Promise<void> | undefined {
  if (!privileges.read || !privileges['topics:read']) throw notFound('error:no-topic');
  if (topic.deleted === 1 && !(viewer.uid > 0 && viewer.uid === topic.uid) && !privileges.view_deleted) throw notFound('error:no-topic');
  if (topic.scheduled !== 1) return undefined;
  return canSeeScheduled(ctx, viewer, topic).then((may) => {
    if (!may) throw notFound('error:no-topic');
  });
}

/** The logged-in viewer, or 401. */
export function member(viewer: Viewer): Viewer {
  if (viewer.uid <= 0) throw notAuthorised();
  return viewer;
}

/** Throws 403 unless the viewer moderates the topic's category. */
export async function assertModerator(ctx: TopicsDeps, viewer: Viewer, cid: number): Promise<void> {
  if (!(await ctx.privileges.isModerator(viewer, cid))) throw forbidden();
}
