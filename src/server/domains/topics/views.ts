import type { TopicsDeps } from './service.js';
import { addViews } from './store.js';

const FLUSH_MS = 10_000;

/**
 * Topic view counts, kept in memory and written in batches so a guest's read never
 * writes to the database.
 */
export class ViewCounter {
  private pending = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: TopicsDeps) {}

  /** Counts one view of a topic. */
  add(tid: number): void {
    this.pending.set(tid, (this.pending.get(tid) ?? 0) + 1);
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.flush().catch((err: unknown) => this.ctx.log.error({ err }, 'view flush failed'));
      }, FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Views counted but not yet written, for a topic. */
  unflushed(tid: number): number {
    return this.pending.get(tid) ?? 0;
  }

  /** Writes the pending counts in one action. */
  async flush(): Promise<void> {
    if (!this.pending.size) return;
    const batch = [...this.pending];
    this.pending.clear();
    await this.ctx.actions.run('topic.views', (w) => addViews(w, batch));
  }

  /** Stops the timer (at shutdown). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
