import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Generated, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './index.js';

// The SQLite driver itself (PostgreSQL has its own pool): a reader for plain SELECTs, a
// first-come-first-served writer for everything else.
let dir: string;
let handle: DatabaseHandle;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'palaver-driver-'));
  handle = openDatabase({ databaseUrl: null, dataDir: dir });
  await sql`create table items (id integer primary key, label text not null)`.execute(handle.db);
  await sql`create table parents (id integer primary key)`.execute(handle.db);
  await sql`create table children (id integer primary key, parent integer references parents(id) deferrable initially deferred)`.execute(handle.db);
});
afterAll(async () => {
  await handle.db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

interface TestTables {
  items: { id: Generated<number>; label: string };
  children: { id: number; parent: number };
}
const db = () => handle.db as unknown as Kysely<TestTables>;
const labels = async () => (await db().selectFrom('items').select('label').orderBy('id').execute()).map((r) => r.label);

describe('the SQLite driver', () => {
  it('answers a SELECT while another request holds a write transaction, with the last committed data', async () => {
    await db().insertInto('items').values({ label: 'committed' }).execute();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = db()
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('items').values({ label: 'uncommitted' }).execute();
        await held;
      });
    await pause(10);
    // Before: this waited for the transaction (one connection behind a mutex).
    expect(await labels()).toEqual(['committed']);
    release();
    await tx;
    expect(await labels()).toEqual(['committed', 'uncommitted']);
  });

  it('runs writes that queue behind a transaction in the order they arrived', async () => {
    await db().deleteFrom('items').execute();
    const tx = db()
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('items').values({ label: 'tx' }).execute();
        await pause(30);
      });
    await pause(5);
    const writes = ['w1', 'w2', 'w3', 'w4', 'w5'].map((label) => db().insertInto('items').values({ label }).execute());
    await Promise.all([tx, ...writes]);
    expect(await labels()).toEqual(['tx', 'w1', 'w2', 'w3', 'w4', 'w5']);
  });

  it('hands the writer on after a failed COMMIT and keeps nothing of that transaction', async () => {
    await db().deleteFrom('items').execute();
    // The deferred foreign key fails at COMMIT, not at the INSERT.
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('items').values({ label: 'lost' }).execute();
          await trx.insertInto('children').values({ id: 1, parent: 42 }).execute();
        }),
    ).rejects.toThrow(/FOREIGN KEY/);
    await db().insertInto('items').values({ label: 'after' }).execute();
    const other = await db().transaction().execute(async (trx) => trx.selectFrom('items').select('label').execute());
    expect(other.map((r) => r.label)).toEqual(['after']);
    expect(await db().selectFrom('children').selectAll().execute()).toEqual([]);
  });

  it('hands the writer on after a transaction that throws', async () => {
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('items').values({ label: 'rolled back' }).execute();
          throw new Error('abort');
        }),
    ).rejects.toThrow('abort');
    await db().insertInto('items').values({ label: 'next' }).execute();
    expect(await labels()).toEqual(['after', 'next']);
  });

  it('builds each row as the object better-sqlite3 builds: every column, its value and type, later duplicates winning', async () => {
    await db().deleteFrom('items').execute();
    await db().insertInto('items').values([{ label: 'one' }, { label: 'two "quoted"' }]).execute();
    const SQLite = (await import('better-sqlite3')).default;
    const plain = new SQLite(path.join(dir, 'palaver.sqlite'), { readonly: true });
    const texts = [
      'select * from items order by id',
      // Names that need quoting, a number, a blob, a null, a duplicate name (the later wins).
      `select id as "it's", label as "a\\b", 1.5 as "x.y", x'00ff' as bin, null as "empty", id as dup, label as dup from items order by id`,
      // "__proto__" would set the prototype in an object literal: such rows come from better-sqlite3.
      'select id as "__proto__", label from items order by id',
      'select count(*) as n from items where id in (' + Array.from({ length: 70 }, (_, i) => i + 1).join(', ') + ')',
    ];
    for (const text of texts) {
      const ours = (await sql.raw(text).execute(handle.db)).rows;
      const theirs = plain.prepare(text).all();
      expect(ours, text).toEqual(theirs);
      expect(ours.map((r) => Object.keys(r as object)), text).toEqual(theirs.map((r) => Object.keys(r as object)));
      // Twice: the second answer comes from the cached statement and builder.
      expect((await sql.raw(text).execute(handle.db)).rows, text).toEqual(theirs);
    }
    const proto = (await sql.raw('select id as "__proto__" from items order by id').execute(handle.db)).rows as Record<string, unknown>[];
    expect(Object.getPrototypeOf(proto[0])).toBe(Object.prototype);
    // RETURNING rows too.
    const returned = await db().insertInto('items').values({ label: 'three' }).returning(['id', 'label']).executeTakeFirstOrThrow();
    expect(returned).toEqual({ id: expect.any(Number), label: 'three' });
    plain.close();
  });
});
