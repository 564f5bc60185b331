import type { AppContext } from '../../context.js';
import type { Viewer } from '../privileges/service.js';
import { assertReadable, loadTopic, member } from './access.js';
import * as store from './store.js';

/** Sets the member's watch state of a topic: follow, ignore, or neither (null). */
export async function setFollowState(ctx: AppContext, viewer: Viewer, tid: number, state: 'follow' | 'ignore' | null): Promise<void> {
  member(viewer);
  const topic = await loadTopic(ctx, tid);
  await assertReadable(ctx, viewer, topic);
  await store.setFollowState(ctx.db, viewer.uid, tid, state);
}

/** Records that a member read a topic (never for guests: their reads write nothing). */
export async function markRead(ctx: AppContext, viewer: Viewer, tid: number): Promise<void> {
  if (viewer.uid <= 0) return;
  await store.markRead(ctx.db, viewer.uid, tid, Date.now());
}
