import type { Redis } from 'ioredis';
import { tooMany } from './errors.js';

/** Counts hits per key in fixed windows: in memory, or in Redis when shared across processes. */
export interface RateLimiter {
  /** Records a hit; returns the seconds to wait when over the limit, else 0. */
  hit(key: string, limit: number, windowSec: number): Promise<number>;
}

/** A single-process limiter. */
export class MemoryRateLimiter implements RateLimiter {
  // Oldest window first: a key is re-inserted when its window starts again.
  private windows = new Map<string, { count: number; resetAt: number }>();

  /** @param maxWindows the most keys kept; keys come from what visitors type (login names), so they must be bounded */
  constructor(readonly maxWindows = 100_000) {}

  /** Keys held now (for tests and diagnostics). */
  get size(): number {
    return this.windows.size;
  }

  async hit(key: string, limit: number, windowSec: number): Promise<number> {
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      if (w) this.windows.delete(key);
      else if (this.windows.size >= this.maxWindows) this.sweep(now);
      w = { count: 0, resetAt: now + windowSec * 1000 };
      this.windows.set(key, w);
    }
    w.count += 1;
    return w.count > limit ? Math.ceil((w.resetAt - now) / 1000) : 0;
  }

  /**
   * Drops the expired windows; when live ones still fill nine tenths, the oldest go too (their
   * counts start again), so memory stays bounded and the next sweep is a tenth of the bound away.
   */
  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    let excess = this.windows.size - Math.floor(this.maxWindows * 0.9);
    for (const k of this.windows.keys()) {
      if (excess-- <= 0) break;
      this.windows.delete(k);
    }
  }
}

// Counts a hit and makes sure the key expires, in one atomic step: a crash between an INCR
// and a separate EXPIRE would leave a key that never expires and so lock a name for ever.
// A key found without a TTL (left by an older version) gets one here too.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

/** A limiter shared by every process through Redis (INCR and EXPIRE in one Lua script). */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async hit(key: string, limit: number, windowSec: number): Promise<number> {
    const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, windowSec)) as [number, number];
    return count > limit ? Math.max(1, ttl) : 0;
  }
}

/** Throws 429 with the key when over the limit. */
export async function enforce(limiter: RateLimiter, key: string, limit: number, windowSec: number, errorKey = 'error:too-many-requests'): Promise<void> {
  const wait = await limiter.hit(key, limit, windowSec);
  if (wait > 0) throw tooMany(errorKey, wait);
}
