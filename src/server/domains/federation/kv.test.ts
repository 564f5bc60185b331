import { Temporal } from '@js-temporal/polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../../test/harness.js';
import { DbKvStore } from './kv.js';

// Fedify's key-value store on the forum's own database (SQLite, or PostgreSQL with DATABASE_URL).
let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum.close();
});

describe('federation key-value store', () => {
  it('keeps values by key, lists by prefix, and forgets what expired', async () => {
    const kv = new DbKvStore(forum.ctx.db);
    await kv.set(['_fedify', 'doc', 'https://a.example/1'], { n: 1 });
    await kv.set(['_fedify', 'doc', 'https://a.example/2'], [1, 'two']);
    await kv.set(['_fedify', 'docs'], 'not under the prefix ["_fedify","doc"]');
    await kv.set(['_fedify', 'doc', 'gone'], true, { ttl: Temporal.Duration.from({ milliseconds: 1 }) });
    expect(await kv.get(['_fedify', 'doc', 'https://a.example/1'])).toEqual({ n: 1 });
    await kv.set(['_fedify', 'doc', 'https://a.example/1'], { n: 2 });
    expect(await kv.get(['_fedify', 'doc', 'https://a.example/1'])).toEqual({ n: 2 });
    await new Promise((r) => setTimeout(r, 5));
    expect(await kv.get(['_fedify', 'doc', 'gone'])).toBeUndefined();
    const listed: unknown[] = [];
    for await (const e of kv.list(['_fedify', 'doc'])) listed.push([e.key, e.value]);
    expect(listed).toEqual([
      [['_fedify', 'doc', 'https://a.example/1'], { n: 2 }],
      [['_fedify', 'doc', 'https://a.example/2'], [1, 'two']],
    ]);
    await kv.delete(['_fedify', 'doc', 'https://a.example/2']);
    expect(await kv.get(['_fedify', 'doc', 'https://a.example/2'])).toBeUndefined();
  });
});
