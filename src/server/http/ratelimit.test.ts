import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimiter } from './ratelimit.js';

// Always against a real Redis: the atomicity of INCR and EXPIRE is what is under test.
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
const prefix = `palaver-test:rl:${randomBytes(6).toString('hex')}:`;

beforeAll(async () => {
  await redis.connect();
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

describe('RedisRateLimiter', () => {
  it('gives the key a TTL on its first hit and keeps counting in the window', async () => {
    const limiter = new RedisRateLimiter(redis, prefix);
    expect(await limiter.hit('a', 2, 60)).toBe(0);
    const ttl = await redis.ttl(`${prefix}a`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
    expect(await limiter.hit('a', 2, 60)).toBe(0);
    const wait = await limiter.hit('a', 2, 60);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
  });

  it('repairs a key that exists without a TTL (left by a crash), so it cannot lock for ever', async () => {
    await redis.set(`${prefix}stuck`, '50');
    expect(await redis.ttl(`${prefix}stuck`)).toBe(-1);
    const limiter = new RedisRateLimiter(redis, prefix);
    const wait = await limiter.hit('stuck', 10, 30);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(30);
    const ttl = await redis.ttl(`${prefix}stuck`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(30);
  });

  it('leaves a TTL on the key after every one of many concurrent hits', async () => {
    const limiter = new RedisRateLimiter(redis, prefix);
    const waits = await Promise.all(Array.from({ length: 20 }, () => limiter.hit('many', 5, 45)));
    expect(waits.filter((w) => w === 0)).toHaveLength(5);
    expect(await redis.get(`${prefix}many`)).toBe('20');
    expect(await redis.ttl(`${prefix}many`)).toBeGreaterThan(0);
  });

  it('leaves a TTL even when the process dies right after its first round trip', async () => {
    // A client that "crashes" after one command reached Redis: any later command fails.
    let sent = 0;
    const dying = new Proxy(redis, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          // A MULTI block counts as one round trip (sent by its exec).
          if (['multi', 'eval', 'evalsha', 'incr', 'expire', 'set', 'ttl'].includes(String(prop)) && sent++ > 0) return Promise.reject(new Error('crashed'));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const limiter = new RedisRateLimiter(dying, prefix);
    await limiter.hit('crash', 10, 60).catch(() => undefined);
    expect(await redis.exists(`${prefix}crash`)).toBe(1);
    expect(await redis.ttl(`${prefix}crash`)).toBeGreaterThan(0);
  });
});
