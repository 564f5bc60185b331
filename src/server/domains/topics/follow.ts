import type { Viewer } from '../privileges/service.js';
import { assertModerator, assertReadable, loadTopic, member } from './access.js';
import * as store from './store.js';
import type { TopicsDeps } from './service.js';

/** Sets the member's watch state of a topic: follow, ignore, or neither (null). */
export async function setFollowState(ctx: TopicsDeps, viewer: Viewer, tid: number, state: 'follow' | 'ignore' | null): Promise<void> {
  member(viewer);
  const topic = await loadTopic(ctx, tid);
  await assertReadable(ctx, viewer, topic);
  await ctx.actions.run('topic.follow', (w) => store.setFollowState(w, viewer.uid, tid, state));
}

/**
 * Records that a member read a topic (never for guests: their reads write nothing). Given
 * the topic's last post time, skips the write when the member has already read past it, so
 * re-reading a topic costs no write. `known` is the member's read time when the caller has
 * read it already (the topic page reads it with the follow state).
 */
export async function markRead(ctx: TopicsDeps, viewer: Viewer, tid: number, lastPostTime?: number, known?: { readAt: number | undefined }): Promise<void> {
  if (viewer.uid <= 0) return;
  if (lastPostTime !== undefined) {
    const readAt = known ? known.readAt : (await store.readTimes(ctx.db, viewer.uid, [tid])).get(tid);
    if (readAt !== undefined && readAt >= lastPostTime) return;
  }
  await ctx.actions.run('topic.read', (w) => store.markRead(w, viewer.uid, tid, Date.now()));
}

/** Marks a topic read (PUT /topics/{tid}/read) or unread (DELETE) for the member. */
export async function setRead(ctx: TopicsDeps, viewer: Viewer, tid: number, read: boolean): Promise<void> {
  member(viewer);
  const topic = await loadTopic(ctx, tid);
  await assertReadable(ctx, viewer, topic);
  await ctx.actions.run(read ? 'topic.read' : 'topic.unread', (w) => (read ? store.markRead(w, viewer.uid, tid, Date.now()) : store.forgetRead(w, viewer.uid, tid)));
}

/** Marks a topic unread for every member (NodeBB's bump): the category's moderators only. */
export async function bumpTopic(ctx: TopicsDeps, viewer: Viewer, tid: number): Promise<void> {
  member(viewer);
  const topic = await loadTopic(ctx, tid);
  await assertReadable(ctx, viewer, topic);
  await assertModerator(ctx, viewer, topic.cid);
  await ctx.actions.run('topic.bump', (w) => store.forgetReads(w, tid));
}
