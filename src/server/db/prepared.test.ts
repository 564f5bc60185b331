import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../test/harness.js';
import { runPrepared, slots } from './prepared.js';

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
