import type { Redis } from 'ioredis';
import type { TopicsDeps } from './service.js';
import { addViews } from './store.js';

const FLUSH_MS = 10_000;
/** A visitor's views of a topic count once per this interval (NodeBB: once per session). */
export const VIEW_INTERVAL_MS = 60 * 60_000;
/** How many (topic, visitor) pairs a process remembers without Redis; the oldest go first. */
const SEEN_MAX = 50_000;

/**
 * Topic view counts, kept in memory and written in batches so a guest's read never
 * writes to the database. A visitor (a member, or a guest by address) counts once per topic
 * per VIEW_INTERVAL_MS: reloads do not raise the count. Who was seen is kept in Redis when
 * configured (every process sees the same visitors; keys expire with the interval), else in
 * a bounded map in the process.
 */
export class ViewCounter {
  private pending = new Map<number, number>();
  private seen = new Map<string, number>();
  /** Redis checks under way: a flush waits for them. */
  private checking = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: Pick<TopicsDeps, 'actions' | 'config' | 'log'> & { redis: Redis | null }) {}

  /** Counts a visitor's view of a topic, unless they viewed it within the interval. */
  add(tid: number, visitor: string): void {
    const key = `${tid}:${visitor}`;
    const redis = this.ctx.redis;
    if (redis) {
      // SET NX answers OK only for the first view of the interval, in whichever process.
      const check = redis
        .set(`${this.ctx.config.redisPrefix}viewed:${key}`, '1', 'PX', VIEW_INTERVAL_MS, 'NX')
        .then((ok) => (ok ? this.count(tid) : undefined))
        .catch((err: unknown) => this.ctx.log.warn({ err }, 'view check failed'))
        .finally(() => this.checking.delete(check));
      this.checking.add(check);
      return;
    }
    const now = Date.now();
    const at = this.seen.get(key);
    if (at !== undefined && now - at < VIEW_INTERVAL_MS) return;
    // Re-inserted, so insertion order stays age order and the oldest is evicted first.
    this.seen.delete(key);
    if (this.seen.size >= SEEN_MAX) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(key, now);
    this.count(tid);
  }

  private count(tid: number): void {
    this.pending.set(tid, (this.pending.get(tid) ?? 0) + 1);
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.flush().catch((err: unknown) => this.ctx.log.error({ err }, 'view flush failed'));
      }, FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Writes the pending counts in one action. */
  async flush(): Promise<void> {
    await Promise.all(this.checking);
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
