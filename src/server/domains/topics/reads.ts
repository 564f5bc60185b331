import type { Viewer } from '../privileges/service.js';
import { assertModerator, assertReadable, loadTopic, member } from './access.js';
import * as store from './store.js';
import type { TopicsDeps } from './service.js';

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
