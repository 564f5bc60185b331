import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../test/harness.js';
import type { UserRow } from '../domains/users/store.js';

let forum: TestForum;
let user: UserRow;
/** What each call of the listener saw: the member's full name read right after it was told. */
let seen: Promise<string | undefined>[] = [];
let stop: () => void = () => undefined;
beforeAll(async () => {
  forum = await startTestForum();
  user = await forum.createUser();
});
afterEach(() => {
  stop();
  seen = [];
});
afterAll(async () => {
  await forum?.close();
});

function listen(table: 'users' | 'sessions'): void {
  const db = forum.ctx.db;
  stop = forum.ctx.writes.on(table, () => {
    seen.push(
      db
        .selectFrom('users')
        .select('fullname')
        .where('uid', '=', user.uid)
        .executeTakeFirst()
        .then((r) => r?.fullname),
    );
  });
}

describe('committed writes per table', () => {
  it('tells after a statement outside a transaction has run, so a read then sees it', async () => {
    listen('users');
    await forum.ctx.db.updateTable('users').set({ fullname: 'First Name' }).where('uid', '=', user.uid).execute();
    expect(await Promise.all(seen)).toEqual(['First Name']);
  });

  it('tells once the transaction commits, not before, and never on a rollback', async () => {
    listen('users');
    const db = forum.ctx.db;
    await db.transaction().execute(async (tx) => {
      await tx.updateTable('users as u').set({ fullname: 'Second Name' }).where('u.uid', '=', user.uid).execute();
      // A plain query on the database joins the open transaction: it is seen too.
      await db.updateTable('users').set({ fullname: 'Third Name' }).where('uid', '=', user.uid).execute();
      expect(seen).toHaveLength(0);
    });
    expect(await Promise.all(seen)).toEqual(['Third Name', 'Third Name']);
    seen = [];
    await expect(
      db.transaction().execute(async (tx) => {
        await tx.updateTable('users').set({ fullname: 'Rolled Back' }).where('uid', '=', user.uid).execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(seen).toHaveLength(0);
  });

  it('sees inserts and deletes, and only of the tables listened to', async () => {
    listen('sessions');
    const db = forum.ctx.db;
    await db.selectFrom('sessions').selectAll().execute();
    await db.updateTable('users').set({ fullname: 'Not Sessions' }).where('uid', '=', user.uid).execute();
    expect(seen).toHaveLength(0);
    const now = Date.now();
    await db.insertInto('sessions').values({ id_hash: 'table-writes-test', uid: user.uid, created: now, expires: now + 60_000, last_seen: now, ip: '', user_agent: '' }).execute();
    expect(seen).toHaveLength(1);
    await db.deleteFrom('sessions as s').where('s.id_hash', '=', 'table-writes-test').execute();
    expect(seen).toHaveLength(2);
    stop();
    await db.updateTable('sessions').set({ last_seen: now }).where('uid', '=', user.uid).execute();
    expect(seen).toHaveLength(2);
  });

  it("tells a keyed listener the values of the column a write touched, or undefined (any) when the statement does not say", async () => {
    const db = forum.ctx.db;
    const other = await forum.createUser();
    const told: (readonly number[] | undefined)[] = [];
    stop = forum.ctx.writes.onKeyed('sessions', 'uid', (keys) => told.push(keys));
    const now = Date.now();
    const session = (id: string, uid: number) => ({ id_hash: id, uid, created: now, expires: now + 60_000, last_seen: now, ip: '', user_agent: '' });
    await db.insertInto('sessions').values(session('keyed-1', user.uid)).execute();
    await db.insertInto('sessions').values([session('keyed-2', user.uid), session('keyed-3', other.uid)]).execute();
    await db.updateTable('sessions').set({ last_seen: now + 1 }).where('uid', '=', other.uid).where('id_hash', '=', 'keyed-3').execute();
    await db.deleteFrom('sessions as s').where('s.id_hash', '=', 'keyed-2').where('s.uid', 'in', [user.uid, other.uid]).execute();
    // Filters that do not hold the column to values: any member's rows may have changed.
    await db.updateTable('sessions').set({ last_seen: now + 2 }).where('id_hash', '=', 'keyed-1').execute();
    await db.deleteFrom('sessions').where((eb) => eb.or([eb('uid', '=', user.uid), eb('id_hash', '=', 'keyed-3')])).execute();
    expect(told).toStrictEqual([[user.uid], [user.uid, other.uid], [other.uid], [user.uid, other.uid], undefined, undefined]);
    // Inside a transaction: told on commit, never on a rollback.
    await expect(
      db.transaction().execute(async (tx) => {
        await tx.insertInto('sessions').values(session('keyed-4', other.uid)).execute();
        expect(told).toHaveLength(6);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(told).toHaveLength(6);
  });

  it('tells a keyed listener no key for a plain insert that leaves the column to the database (new rows only)', async () => {
    const told: (readonly number[] | undefined)[] = [];
    stop = forum.ctx.writes.onKeyed('users', 'uid', (keys) => told.push(keys));
    await forum.createUser();
    expect(told[0]).toStrictEqual([]);
  });
});
