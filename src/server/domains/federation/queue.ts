import type { MessageQueue, MessageQueueEnqueueOptions, MessageQueueListenOptions } from '@fedify/fedify';
import type { JobRunner } from '../../jobs/runner.js';

/** The job that carries one of Fedify's queued messages (an activity to deliver, a fan-out). */
export const QUEUE_JOB = 'federation.message';

// Our jobs back off from 10 s doubling to an hour: 30 tries last about a day, then the run is
// marked failed (a dead server gives up without blocking the others: each inbox is its own run).
const MAX_ATTEMPTS = 30;

/**
 * Fedify's message queue over our leased jobs (jobs/runner.ts): a message is a `federation.message`
 * run, leased by one process, retried with the jobs' back-off (`nativeRetrial`: Fedify throws and
 * lets the job retry rather than queueing its own retry).
 */
export class JobsMessageQueue implements MessageQueue {
  readonly nativeRetrial = true;
  private handler: ((message: unknown) => Promise<void> | void) | null = null;

  constructor(private readonly jobs: JobRunner) {
    jobs.define<{ message: unknown }>(QUEUE_JOB, async ({ payload }) => this.run(payload.message), { leaseMs: 2 * 60_000, maxAttempts: MAX_ATTEMPTS });
  }

  /** Called before the first run: Fedify's listener (Federation.startQueue calls listen). */
  onStart: (() => Promise<void>) | null = null;

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    const delay = options?.delay ? Math.max(0, options.delay.total('millisecond')) : 0;
    await this.jobs.enqueue(QUEUE_JOB, { message }, { runAt: Date.now() + delay });
  }

  async enqueueMany(messages: readonly unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    for (const m of messages) await this.enqueue(m, options);
  }

  listen(handler: (message: unknown) => Promise<void> | void, options?: MessageQueueListenOptions): Promise<void> {
    this.handler = handler;
    // The jobs runner does the polling: listening lasts until Fedify's signal aborts.
    return new Promise((resolve) => {
      if (!options?.signal) return resolve();
      if (options.signal.aborted) return resolve();
      options.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  private async run(message: unknown): Promise<void> {
    if (!this.handler && this.onStart) await this.onStart();
    if (!this.handler) throw new Error('federation queue has no listener');
    await this.handler(message);
  }
}
