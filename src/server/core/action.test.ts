import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../test/harness.js';
import { afterCommit } from '../db/reentrant.js';
import { Outbox } from './outbox.js';
import * as outboxStore from './outbox-store.js';
import { topicTag } from './tags.js';

let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => forum?.close());

const heard = () => {
  const seen: string[][] = [];
  forum.ctx.changes.listen((tags) => seen.push([...tags]));
  return seen;
};

describe('the action runner', () => {
  it('publishes what a write changed once it commits, and nothing when it rolls back', async () => {
    const seen = heard();
    await forum.ctx.actions.run('test.commit', async (w) => {
      w.changed(topicTag(41));
      expect(seen.flat()).not.toContain(topicTag(41));
    });
    expect(seen.flat()).toContain(topicTag(41));
    await expect(
      forum.ctx.actions.run('test.rollback', async (w) => {
        w.changed(topicTag(42));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(seen.flat()).not.toContain(topicTag(42));
  });

  it('answers a unique-index race with its "taken" error, not a 500', async () => {
    const user = await forum.createUser();
    const other = await forum.createUser();
    const err = await forum.ctx.actions
      .run('test.taken', async (w) => {
        await w.tx.updateTable('users').set({ email: user.email }).where('uid', '=', other.uid).execute();
      })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ key: 'error:email-taken', status: 400 });
  });

  it('runs every after-commit piece of work when one throws, and the write stands (defect 7)', async () => {
    const ran: string[] = [];
    const result = await forum.ctx.actions.run('test.after', async (w) => {
      w.afterCommit(() => {
        throw new Error('one bad callback');
      });
      w.afterCommit(() => ran.push('second'));
      return 'written';
    });
    expect(result).toBe('written');
    expect(ran).toEqual(['second']);
    // The same for work queued on a transaction opened below the runner.
    const order: string[] = [];
    await forum.ctx.db.transaction().execute(async () => {
      afterCommit(() => {
        throw new Error('bad');
      });
      afterCommit(() => order.push('after the bad one'));
    });
    expect(order).toEqual(['after the bad one']);
  });

  it('joins an open action: the inner write commits with the outer one, its tags after the outer commit', async () => {
    const seen = heard();
    await forum.ctx.actions.run('test.outer', async (w) => {
      w.changed(topicTag(51));
      await forum.ctx.actions.run('test.inner', async (inner) => inner.changed(topicTag(52)));
      expect(seen.flat()).not.toContain(topicTag(52));
    });
    expect(seen.flat()).toEqual(expect.arrayContaining([topicTag(51), topicTag(52)]));
  });
});

describe('the outbox', () => {
  it('runs a durable listener after the commit, and never for a write rolled back', async () => {
    const got: number[] = [];
    forum.ctx.hooks.action('action:user.follow', 'test-durable', async ({ followee }) => void got.push(followee), { durable: true });
    await forum.ctx.actions.run('test.durable', async (w) => {
      await w.fire('action:user.follow', { uid: 1, followee: 7 });
      expect(got).toEqual([]);
      // The row is in the action's transaction.
      expect((await w.tx.selectFrom('outbox').select('hook').execute()).map((r) => r.hook)).toContain('action:user.follow');
    });
    await forum.ctx.hooks.idle();
    expect(got).toEqual([7]);
    await forum.ctx.actions
      .run('test.durable-rollback', async (w) => {
        await w.fire('action:user.follow', { uid: 1, followee: 8 });
        throw new Error('no');
      })
      .catch(() => undefined);
    await forum.ctx.hooks.idle();
    expect(got).toEqual([7]);
    expect(await outboxStore.list(forum.ctx.db, 'queued')).toEqual([]);
    forum.ctx.hooks.unregisterPlugin('test-durable');
  });

  it('runs what a process that died left, once its lease ends, exactly once across two processes', async () => {
    const got: number[] = [];
    forum.ctx.hooks.action('action:user.unfollow', 'test-crash', async ({ followee }) => void got.push(followee), { durable: true });
    // A row another process wrote and leased, then died before running.
    const now = Date.now();
    await outboxStore.insert(forum.ctx.db, { hook: 'action:user.unfollow', payload: JSON.stringify({ uid: 1, followee: 9 }), pending: JSON.stringify(['test-crash']), run_at: now, lease_owner: 'dead', lease_until: now + 60_000, created: now });
    expect(await forum.ctx.outbox.drain(now)).toBe(0);
    const other = new Outbox(forum.ctx.db, forum.ctx.hooks, forum.ctx.log);
    const ran = await Promise.all([forum.ctx.outbox.drain(now + 61_000), other.drain(now + 61_000)]);
    expect(ran[0] + ran[1]).toBe(1);
    expect(got).toEqual([9]);
    expect(await outboxStore.list(forum.ctx.db, 'queued')).toEqual([]);
    forum.ctx.hooks.unregisterPlugin('test-crash');
  });

  it('retries only the listener that failed, with back-off', async () => {
    const calls: string[] = [];
    let fail = true;
    forum.ctx.hooks.action('action:user.follow', 'test-ok', async () => void calls.push('ok'), { durable: true });
    forum.ctx.hooks.action(
      'action:user.follow',
      'test-flaky',
      async () => {
        calls.push('flaky');
        if (fail) throw new Error('down');
      },
      { durable: true },
    );
    await forum.ctx.hooks.fire('action:user.follow', { uid: 2, followee: 3 });
    await forum.ctx.hooks.idle();
    expect(calls).toEqual(['ok', 'flaky']);
    const [row] = await outboxStore.list(forum.ctx.db, 'queued');
    expect(JSON.parse(row!.pending)).toEqual(['test-flaky']);
    expect(row!.run_at).toBeGreaterThan(Date.now());
    fail = false;
    expect(await forum.ctx.outbox.drain(row!.run_at)).toBe(1);
    expect(calls).toEqual(['ok', 'flaky', 'flaky']);
    expect(await outboxStore.list(forum.ctx.db, 'queued')).toEqual([]);
    forum.ctx.hooks.unregisterPlugin('test-ok');
    forum.ctx.hooks.unregisterPlugin('test-flaky');
  });
});
