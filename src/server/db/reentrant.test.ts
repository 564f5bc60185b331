import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../setup.js';
import { startTestForum, type TestForum } from '../test/harness.js';
import { afterCommit, onAfterCommitError } from './reentrant.js';

let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum.close();
});

describe('queries on the database object inside a transaction', () => {
  it('join the transaction instead of waiting for ever, and see its writes', async () => {
    const db = forum.ctx.db;
    const seen = await db.transaction().execute(async (tx) => {
      await tx.insertInto('settings').values({ key: 'reentrant-probe', value: '"x"' }).execute();
      // A service that forgets to pass `tx` down makes exactly this call.
      const row = await db.selectFrom('settings').select('value').where('key', '=', 'reentrant-probe').executeTakeFirst();
      return row?.value;
    });
    expect(seen).toBe('"x"');
  });

  it('roll back with the transaction', async () => {
    const db = forum.ctx.db;
    await expect(
      db.transaction().execute(async (tx) => {
        await tx.insertInto('settings').values({ key: 'rolled-back', value: '1' }).execute();
        await db.insertInto('settings').values({ key: 'rolled-back-too', value: '1' }).execute();
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const rows = await db.selectFrom('settings').select('key').where('key', 'in', ['rolled-back', 'rolled-back-too']).execute();
    expect(rows).toEqual([]);
  });

  it('other requests still wait for their turn outside the transaction', async () => {
    const db = forum.ctx.db;
    const order: string[] = [];
    await Promise.all([
      db.transaction().execute(async (tx) => {
        await tx.insertInto('settings').values({ key: 'order-a', value: '1' }).execute();
        await new Promise((r) => setTimeout(r, 50));
        order.push('tx');
      }),
      (async () => {
        await new Promise((r) => setTimeout(r, 10));
        await db.selectFrom('settings').select('key').execute();
        order.push('outside');
      })(),
    ]);
    expect(order).toContain('tx');
    expect(order).toContain('outside');
  });
});

describe('work run after the commit', () => {
  it('goes on past a callback that throws, and the committed write answers as committed', async () => {
    const db = forum.ctx.db;
    const ran: string[] = [];
    const reported: unknown[] = [];
    onAfterCommitError((err) => reported.push(err));
    try {
      const result = await db.transaction().execute(async (tx) => {
        await tx.insertInto('settings').values({ key: 'after-commit-probe', value: '"kept"' }).execute();
        afterCommit(() => ran.push('first'));
        afterCommit(() => {
          throw new Error('listener broke');
        });
        afterCommit(() => ran.push('third'));
        return 'committed';
      });
      expect(result).toBe('committed');
    } finally {
      onAfterCommitError((err) => forum.app.log.error({ err }, 'after-commit work failed'));
    }
    expect(ran).toEqual(['first', 'third']);
    expect(reported.map((e) => (e as Error).message)).toEqual(['listener broke']);
    const row = await db.selectFrom('settings').select('value').where('key', '=', 'after-commit-probe').executeTakeFirst();
    expect(row?.value).toBe('"kept"');
  });
});

describe('a write whose after-commit listener breaks', () => {
  it('answers 200 with the write kept, and the listeners after it still run', async () => {
    const cid = (await forum.ctx.categories.create(SYSTEM, { name: 'After commit' })).cid;
    const heard: number[] = [];
    // A broken plugin's inline listener (run at commit, before the answer), then a working one.
    forum.ctx.hooks.action('action:topic.save', 'broken-plugin', () => {
      throw new Error('broken plugin');
    }, { inline: true, priority: 1 });
    forum.ctx.hooks.action('action:topic.save', 'working-plugin', ({ topic }) => void heard.push(topic.tid), { inline: true, priority: 2 });
    const { client } = await forum.loginAs();
    const res = await client.post('/api/v3/topics', { cid, title: 'Written despite a broken listener', content: 'The write committed; the answer says so.' });
    expect(res.status, res.text).toBe(200);
    const tid = res.body.response.tid as number;
    expect((await forum.ctx.topics.get(tid))?.title).toBe('Written despite a broken listener');
    await forum.ctx.hooks.idle();
    expect(heard).toContain(tid);
  });
});
