import type { AppContext } from '../../context.js';
import { RETRY_JOB, SEND_JOB, TEST_JOB, type RetryJob, type SendJob, type TestJob } from './service.js';

const MINUTE = 60_000;

/**
 * Web push follows the notifications domain: a notification for readers whose preferences
 * include push (`action:notifications.push`, a durable listener) becomes a `push.send` job, run in one process;
 * a browser whose push service fails gets a `push.retry` job, retried with back-off.
 */
export function registerPush(ctx: Pick<AppContext, 'hooks' | 'jobs' | 'push'>): void {
  // Durable (its outbox row is written with the notification): run twice, it queues one job (the run's key).
  ctx.hooks.action('action:notifications.push', 'web-push', async ({ uids, notification }, run) => ctx.push.enqueue(notification, uids, run?.key), { durable: true });
  ctx.jobs.define<SendJob>(SEND_JOB, async ({ payload }) => void (await ctx.push.deliver(payload)), { leaseMs: 5 * MINUTE, maxAttempts: 3 });
  ctx.jobs.define<TestJob>(TEST_JOB, async ({ payload }) => void (await ctx.push.deliverTest(payload)), { leaseMs: MINUTE, maxAttempts: 1 });
  ctx.jobs.define<RetryJob>(RETRY_JOB, async ({ payload }) => ctx.push.retry(payload), { leaseMs: MINUTE, maxAttempts: 6 });
}
