import * as store from '../store.js';
import type { TopicToolsDeps as TopicsDeps } from '../service.js';
import { recordEvent } from './events.js';

/** The job that lifts a pin at its expiry (one run across processes). */
export const UNPIN_JOB = 'topics.unpin';

/** Enqueues the lifting of a pin at its expiry (inside the pin's transaction). */
export async function schedulePinExpiry(ctx: Pick<TopicsDeps, 'jobs'>, tid: number, expiry: number): Promise<void> {
  await ctx.jobs.enqueue(UNPIN_JOB, { tid, expiry }, { runAt: expiry });
}

/**
 * Lifts a pin whose time has come. The expiry is part of the condition: a topic unpinned and
 * pinned again since (another expiry, or none) keeps its new pin. The event is the system's (uid 0).
 */
export async function liftExpiredPin(ctx: TopicsDeps, tid: number, expiry: number): Promise<boolean> {
  const topic = await store.byTid(ctx.db, tid);
  if (!topic || topic.pinned !== 1 || Number(topic.pin_expiry) !== expiry || expiry > Date.now()) return false;
  const updated = { ...topic, pinned: 0, pin_expiry: 0 };
  return ctx.actions.run('topic.unpin-expired', async (w) => {
    if (!(await store.liftPin(w, tid, expiry))) return false;
    await recordEvent(ctx, w, tid, 'unpin', 0, { expiry });
    await w.fire('action:topic.pin', { topic: updated, uid: 0, pinned: false });
    return true;
  });
}

/** Declares the unpin job (called once when the topics service is built). */
export function defineUnpinJob(ctx: TopicsDeps): void {
  ctx.jobs.define<{ tid: number; expiry: number }>(UNPIN_JOB, async ({ payload }) => void (await liftExpiredPin(ctx, payload.tid, payload.expiry)), { leaseMs: 60_000 });
}
