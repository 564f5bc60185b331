import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HookBus } from './bus.js';
import { startTestForum, type TestForum } from '../test/harness.js';
import { makeCategory, postTopic } from '../domains/topics/testing.js';

const log = { error: vi.fn() };

describe('action hooks run after commit, off the request path', () => {
  let forum: TestForum;
  beforeAll(async () => {
    forum = await startTestForum();
  });
  afterAll(async () => forum?.close());

  it('returns from fire before a slow listener finishes; idle() waits for it', async () => {
    const bus = new HookBus(log);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const seen: string[] = [];
    bus.action('action:user.delete', 'slow', async () => {
      await gate;
      seen.push('slow');
    });
    bus.action('action:user.delete', 'cache', () => void seen.push('inline'), { inline: true });
    await bus.fire('action:user.delete', { uid: 1, by: 1 });
    // The inline listener ran before fire returned; the queued one waits behind the caller.
    expect(seen).toEqual(['inline']);
    release();
    await bus.idle();
    expect(seen).toEqual(['inline', 'slow']);
  });

  it('holds a hook fired inside a transaction until the commit, and drops it on rollback', async () => {
    const bus = new HookBus(log);
    const seen: number[] = [];
    bus.action('action:user.delete', 'rec', ({ uid }) => void seen.push(uid), { inline: true });
    await forum.ctx.db.transaction().execute(async () => {
      await bus.fire('action:user.delete', { uid: 1, by: 1 });
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual([1]);
    await expect(
      forum.ctx.db.transaction().execute(async () => {
        await bus.fire('action:user.delete', { uid: 2, by: 1 });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await bus.idle();
    expect(seen).toEqual([1]);
  });

  it('a slow listener does not delay the answer of the write that fired it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let done = false;
    forum.ctx.hooks.action('action:topic.lock', 'slow-test', async () => {
      await gate;
      done = true;
    });
    const { client } = await forum.loginAs({ admin: true });
    const { tid } = await postTopic(client, await makeCategory(forum.ctx));
    // Answers while the listener still waits on its gate.
    expect((await client.put(`/api/v3/topics/${tid}/lock`)).status).toBe(200);
    expect(done).toBe(false);
    release();
    await forum.ctx.hooks.idle();
    expect(done).toBe(true);
    forum.ctx.hooks.unregisterPlugin('slow-test');
  });
});
