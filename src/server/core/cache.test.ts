import { describe, expect, it } from 'vitest';
import { CacheRegistry } from './cache.js';
import { topicTag, userTag } from './tags.js';

const later = () => new Promise((r) => setImmediate(r));

describe('the cache primitive', () => {
  it('keeps an entry until a change of one of its tags, and serves one build to readers asking meanwhile', async () => {
    const registry = new CacheRegistry(true);
    const cache = registry.create<number, { tid: number; n: number }>({ name: 't', keeps: 'x', droppedBy: 'x', ttlMs: 60_000, max: 10, tags: (tid) => [topicTag(tid)] });
    let builds = 0;
    const build = (tid: number) => async () => ({ tid, n: ++builds });
    const [a, b] = await Promise.all([cache.get(1, build(1)), cache.get(1, build(1))]);
    expect(a).toBe(b);
    expect(builds).toBe(1);
    await cache.get(2, build(2));
    registry.changed([topicTag(1)]);
    expect((await cache.get(1, build(1))).n).toBe(3);
    // Topic 2's entry heard nothing of topic 1's change.
    expect((await cache.get(2, build(2))).n).toBe(2);
    registry.changed([userTag(5)]);
    expect(cache.size).toBe(2);
  });

  it('does not keep what a build read before a change that overtook it', async () => {
    const registry = new CacheRegistry(true);
    const cache = registry.create<string, number>({ name: 't', keeps: 'x', droppedBy: 'x', ttlMs: 60_000, max: 10, tags: () => [topicTag(1)] });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = cache.get('k', async () => {
      await gate;
      return 1;
    });
    await later();
    registry.changed([topicTag(1)]);
    release();
    expect(await first).toBe(1);
    expect(await cache.get('k', async () => 2)).toBe(2);
    expect(await cache.get('k', async () => 3)).toBe(2);
  });

  it('drops the oldest past its bounds, entries past the TTL, and everything on the ALL tag or its own name', async () => {
    const registry = new CacheRegistry(true);
    const cache = registry.create<number, string>({ name: 'sized', keeps: 'x', droppedBy: 'x', ttlMs: 60_000, max: 3, maxBytes: 10, sizeOf: (v) => v.length, tags: () => [] });
    for (const k of [1, 2, 3, 4]) cache.set(k, 'ab');
    expect(cache.size).toBe(3);
    expect(cache.peek(1)).toBeUndefined();
    cache.set(5, 'abcdefgh');
    expect(cache.stats().bytes).toBeLessThanOrEqual(10);
    registry.changed(['cache:sized']);
    expect(cache.size).toBe(0);
    cache.set(1, 'a');
    registry.changed(['*']);
    expect(cache.size).toBe(0);
    const short = registry.create<number, string>({ name: 'short', keeps: 'x', droppedBy: 'x', ttlMs: 1, max: 3, tags: () => [] });
    short.set(1, 'a');
    await new Promise((r) => setTimeout(r, 5));
    expect(short.peek(1)).toBeUndefined();
  });

  it('builds in one batch only the keys it lacks', async () => {
    const registry = new CacheRegistry(true);
    const cache = registry.create<number, string>({ name: 'b', keeps: 'x', droppedBy: 'x', ttlMs: 60_000, max: 10, tags: (k) => [userTag(k)] });
    const asked: number[][] = [];
    const build = async (keys: number[]) => {
      asked.push(keys);
      return new Map(keys.filter((k) => k !== 9).map((k) => [k, `u${k}`]));
    };
    expect([...(await cache.getMany([1, 2, 9], build))]).toEqual([[1, 'u1'], [2, 'u2']]);
    expect([...(await cache.getMany([2, 3], build))].sort()).toEqual([[2, 'u2'], [3, 'u3']]);
    expect(asked).toEqual([[1, 2, 9], [3]]);
  });

  it('keeps nothing when caching is off (PALAVER_CACHE=off)', async () => {
    const registry = new CacheRegistry(false);
    const cache = registry.create<number, number>({ name: 'off', keeps: 'x', droppedBy: 'x', ttlMs: 60_000, max: 10, tags: () => [] });
    let n = 0;
    expect(await cache.get(1, async () => ++n)).toBe(1);
    expect(await cache.get(1, async () => ++n)).toBe(2);
    cache.set(2, 5);
    expect(cache.peek(2)).toBeUndefined();
    expect(registry.stats()[0]).toMatchObject({ name: 'off', enabled: false, entries: 0 });
  });

  it('refuses two caches of one name (the catalogue names each once)', () => {
    const registry = new CacheRegistry(true);
    registry.create({ name: 'x', keeps: 'x', droppedBy: 'x', ttlMs: 1, max: 1, tags: () => [] });
    expect(() => registry.create({ name: 'x', keeps: 'x', droppedBy: 'x', ttlMs: 1, max: 1, tags: () => [] })).toThrow(/twice/);
  });
});
