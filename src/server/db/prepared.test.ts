import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../test/harness.js';
import { runBatch, runPrepared, slots, type BatchPart } from './prepared.js';

let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum();
  await forum.ctx.db
    .insertInto('settings')
    .values(['a', 'b', 'c', 'd'].map((k, i) => ({ key: `prepared-${k}`, value: String(i) })))
    .execute();
});
afterAll(async () => {
  await forum.close();
});

/** The settings among `keys` whose value is not `skip`, by a query prepared once per number of keys. */
async function pick(keys: string[], skip: string): Promise<string[]> {
  const db = forum.ctx.db;
  const rows = await runPrepared<{ key: string }>(
    db,
    `test.pick:${keys.length}`,
    ($) => db.selectFrom('settings').select('key').where('key', 'in', slots($, 1, keys.length)).where('value', '!=', $(0)).where('key', 'like', 'prepared-%').orderBy('key'),
    [skip, ...keys],
  );
  return rows.map((r) => r.key);
}

describe('a query compiled once and run with new values', () => {
  it('answers for each run’s values, not the first run’s', async () => {
    expect(await pick(['prepared-a', 'prepared-b'], '0')).toEqual(['prepared-b']);
    expect(await pick(['prepared-c', 'prepared-d'], '3')).toEqual(['prepared-c']);
    expect(await pick(['prepared-a', 'prepared-d'], 'none')).toEqual(['prepared-a', 'prepared-d']);
  });

  it('keeps one shape per list length', async () => {
    expect(await pick(['prepared-a'], 'none')).toEqual(['prepared-a']);
    expect(await pick(['prepared-a', 'prepared-b', 'prepared-c'], '1')).toEqual(['prepared-a', 'prepared-c']);
  });

  it('keeps a value written in the build as a constant of the shape', async () => {
    const db = forum.ctx.db;
    const run = (key: string) =>
      runPrepared<{ key: string }>(db, 'test.constant', ($) => db.selectFrom('settings').select('key').where('key', '=', $(0)).where('value', '=', '2'), [key]);
    expect(await run('prepared-c')).toEqual([{ key: 'prepared-c' }]);
    expect(await run('prepared-a')).toEqual([]);
  });

  it('runs inside a transaction on the transaction', async () => {
    const db = forum.ctx.db;
    const seen = await db.transaction().execute(async (tx) => {
      await tx.insertInto('settings').values({ key: 'prepared-tx', value: '9' }).execute();
      return runPrepared<{ key: string }>(tx, 'test.tx', ($) => tx.selectFrom('settings').select('key').where('value', '=', $(0)), ['9']);
    });
    expect(seen).toEqual([{ key: 'prepared-tx' }]);
  });

  it.runIf(process.env.DATABASE_URL)('runs on PostgreSQL as a named statement, but never a select of every column', async () => {
    const db = forum.ctx.db;
    // One transaction: one connection, whose prepared statements PostgreSQL lists.
    const { named, rows } = await db.transaction().execute(async (tx) => {
      const picked = await runPrepared<{ key: string }>(tx, 'test.named', ($) => tx.selectFrom('settings').select('key').where('key', '=', $(0)), ['prepared-b']);
      const whole = await runPrepared<{ key: string }>(tx, 'test.all', ($) => tx.selectFrom('settings').selectAll().where('key', '=', $(0)), ['prepared-c']);
      const listed = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'palaver_%'`.execute(tx);
      return { named: listed.rows.map((r) => r.statement), rows: [...picked, ...whole].map((r) => r.key) };
    });
    expect(rows).toEqual(['prepared-b', 'prepared-c']);
    expect(named.some((s) => s.includes('select "key" from "settings" where "key" = $1'))).toBe(true);
    expect(named.some((s) => s.includes('select * from "settings"'))).toBe(false);
  });
});

/** A part of a batched read: the settings among `keys`, each as (its index among keys, its value as a number, its key). */
function settingsPart(tag: string, keys: string[] | null): BatchPart<string[]> {
  return {
    shape: `test.part:${keys?.length}`,
    build: (db, $) =>
      db
        .selectFrom('settings')
        .select((eb) => [
          eb.case().when('key', '=', $(0)).then(0).else(1).end().as('id'),
          sql<number | null>`cast(${eb.ref('value')} as integer)`.as('num'),
          eb.ref('key').as('txt'),
        ])
        .where('key', 'in', slots($, 0, keys?.length ?? 0)),
    values: keys,
    read: (rows) => rows.map((r) => `${tag}:${r.id}:${r.num}:${r.txt}`).sort(),
  };
}

describe('a batched read', () => {
  it('gives each store’s part its own rows from one statement, numbers as numbers', async () => {
    const [a, none, b] = await runBatch(forum.ctx.db, [settingsPart('a', ['prepared-a', 'prepared-c']), settingsPart('none', null), settingsPart('b', ['prepared-d'])]);
    expect(a).toEqual(['a:0:0:prepared-a', 'a:1:2:prepared-c']);
    expect(none).toEqual([]);
    expect(b).toEqual(['b:0:3:prepared-d']);
    // The same shapes with other values: the statement is not the first run's.
    const [c, d] = await runBatch(forum.ctx.db, [settingsPart('c', ['prepared-b', 'prepared-a']), settingsPart('d', ['prepared-a'])]);
    expect(c).toEqual(['c:0:1:prepared-b', 'c:1:0:prepared-a']);
    expect(d).toEqual(['d:0:0:prepared-a']);
  });

  it('sends nothing when no part has anything to read', async () => {
    let ran = 0;
    const db = forum.ctx.db.withPlugin({ transformQuery: (a) => a.node, transformResult: async (a) => (ran++, a.result) });
    expect(await runBatch(db, [settingsPart('x', null)])).toEqual([[]]);
    expect(ran).toBe(0);
    expect(await runBatch(db, [settingsPart('x', null), settingsPart('y', ['prepared-b'])])).toEqual([[], ['y:0:1:prepared-b']]);
    expect(ran).toBe(1);
  });
});
