import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Migrator } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, migrations, openDatabase, type DatabaseHandle } from './index.js';

// Migration 0004 on a database that already holds tokens: a master token (uid 0), a
// member's token, and an orphan left by a member deleted before the foreign key existed.
let handle: DatabaseHandle;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'palaver-fk-'));
  const base = process.env.DATABASE_URL;
  let url: string | null = null;
  let name = '';
  if (base) {
    name = `palaver_fk_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(base);
    u.pathname = `/${name}`;
    url = u.toString();
  }
  handle = openDatabase({ databaseUrl: url, dataDir });
  cleanup = async () => {
    await handle.db.destroy();
    if (base) {
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
});
afterAll(async () => {
  await cleanup();
});

describe('migration 0004_token_fk', () => {
  it('keeps master and member tokens, drops orphans, and adds the cascading foreign key', async () => {
    const all = migrations(handle.dialect);
    const before = Object.fromEntries(Object.entries(all).filter(([k]) => k < '0004'));
    const { error } = await new Migrator({ db: handle.db, provider: { getMigrations: async () => before } }).migrateToLatest();
    expect(error).toBeUndefined();
    const db = handle.db;
    const { uid } = await db
      .insertInto('users')
      .values({ username: 'keeper', userslug: 'keeper', email: null, joindate: 1 })
      .returning('uid')
      .executeTakeFirstOrThrow();
    const tokens = [
      { token_hash: 'master', uid: 0, description: 'master', created: 1 },
      { token_hash: 'member', uid, description: '', created: 1 },
      { token_hash: 'orphan', uid: uid + 1000, description: '', created: 1 },
    ];
    await db.insertInto('api_tokens').values(tokens).execute();

    await migrate(handle);
    const rows = await db.selectFrom('api_tokens').select(['token_hash', 'uid']).orderBy('token_hash').execute();
    expect(rows).toEqual([
      { token_hash: 'master', uid: null },
      { token_hash: 'member', uid },
    ]);
    await expect(
      db
        .insertInto('api_tokens')
        .values({ token_hash: 'nobody', uid: uid + 2000, description: '', created: 1 })
        .execute(),
    ).rejects.toThrow();
    await db.deleteFrom('users').where('uid', '=', uid).execute();
    expect(await db.selectFrom('api_tokens').select('token_hash').execute()).toEqual([{ token_hash: 'master' }]);
    const user = await db
      .insertInto('users')
      .values({ username: 'x', userslug: 'x', email: null, joindate: 1 })
      .returning('about_html')
      .executeTakeFirstOrThrow();
    expect(user.about_html).toBe('');
  });
});
