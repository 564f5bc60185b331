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
  /** With Redis: the (topic, visitor) pairs seen since the last flush, checked in one pipeline then. */
  private candidates = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: Pick<TopicsDeps, 'actions' | 'config' | 'log'> & { redis: Redis | null }) {}

  /** Counts a visitor's view of a topic, unless they viewed it within the interval. */
  add(tid: number, visitor: string): void {
    const key = `${tid}:${visitor}`;
    if (this.ctx.redis) {
      // Checked at the flush, all at once: no Redis round trip per page view.
      this.candidates.add(key);
      if (this.candidates.size >= SEEN_MAX) this.flushSoon(0);
      else this.flushSoon(FLUSH_MS);
      return;
    }
    const now = Date.now();
    const at = this.seen.get(key);
    if (at !== undefined && now - at < VIEW_INTERVAL_MS) return;
    // Re-inserted, so insertion order stays age order and the oldest is evicted first.
    this.seen.delete(key);
    if (this.seen.size >= SEEN_MAX) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(key, now);
    this.pending.set(tid, (this.pending.get(tid) ?? 0) + 1);
    this.flushSoon(FLUSH_MS);
  }

  private flushSoon(ms: number): void {
    if (this.timer && ms > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush().catch((err: unknown) => this.ctx.log.error({ err }, 'view flush failed'));
    }, ms);
    this.timer.unref();
  }

  /**
   * Checks the pairs seen since the last flush against Redis in one pipeline (SET NX answers OK
   * only for a pair's first view of the interval, in whichever process), then writes the
   * pending counts in one action.
   */
  async flush(): Promise<void> {
    const redis = this.ctx.redis;
    if (redis && this.candidates.size) {
      const keys = [...this.candidates];
      this.candidates.clear();
      const pipe = redis.pipeline();
      for (const key of keys) pipe.set(`${this.ctx.config.redisPrefix}viewed:${key}`, '1', 'PX', VIEW_INTERVAL_MS, 'NX');
      try {
        const answers = (await pipe.exec()) ?? [];
        answers.forEach(([err, ok], i) => {
          if (err || !ok) return;
          const tid = Number(keys[i]!.slice(0, keys[i]!.indexOf(':')));
          this.pending.set(tid, (this.pending.get(tid) ?? 0) + 1);
        });
      } catch (err) {
        this.ctx.log.warn({ err }, 'view check failed');
      }
    }
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
