import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../../setup.js';
import { startTestForum, type TestForum } from '../../test/harness.js';
import { dumpTables, freshTarget, withoutQueuedRebuild } from './test-kit.js';

const run = promisify(execFile);
const main = path.resolve(import.meta.dirname, '../../main.ts');

/** Runs the palaver CLI in a child process with this environment. */
async function palaver(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', main, ...args], {
      env: { ...process.env, REDIS_URL: '', LOG_LEVEL: 'error', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('palaver backup and palaver restore', () => {
  let forum: TestForum;
  const dir = mkdtempSync(path.join(tmpdir(), 'palaver-cli-backup-'));
  let sourceEnv: Record<string, string>;
  beforeAll(async () => {
    forum = await startTestForum();
    const cat = await forum.ctx.categories.create(SYSTEM, { name: 'From the CLI' });
    const m = await forum.member();
    await forum.ctx.topics.create(m.viewer, { cid: cat.cid, title: 'Backed up by the command line', content: 'While the forum served.' });
    sourceEnv = { PALAVER_DATA_DIR: forum.ctx.config.dataDir, DATABASE_URL: forum.ctx.config.databaseUrl ?? '', PALAVER_SECRET: forum.ctx.config.secret };
  });
  afterAll(async () => {
    await forum?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('backs up the running forum, moves it to the other database, and refuses a database that is not empty', async () => {
    const file = path.join(dir, 'forum.tar.gz');
    // The counters the forum keeps in memory are written first, so the forum is idle while the CLI reads it.
    await forum.ctx.analytics.flush();
    await forum.ctx.views.flush();
    await forum.ctx.search.flush();
    // And the topic's durable side effects have run (their outbox row is gone).
    await forum.ctx.hooks.idle();
    const source = await dumpTables(forum.ctx.config);
    const made = await palaver(sourceEnv, 'backup', '--out', file);
    expect(made.code).toBe(0);
    // Progress goes to stderr, a line per table when it is not a terminal.
    expect(made.stderr).toMatch(/^\[#{24}\] topics 1\/1 rows$/m);
    expect(made.stdout).toMatch(/^Backed up [\d,]+ rows of \d+ tables and 0 files in [\d.]+ s to .*forum\.tar\.gz\n$/);
    expect(existsSync(file)).toBe(true);

    // SQLite → PostgreSQL (or back): the same archive, the other database.
    const other = forum.ctx.dialect === 'sqlite' ? 'postgres' : 'sqlite';
    const target = await freshTarget(other);
    try {
      const env = { PALAVER_DATA_DIR: target.config.dataDir, DATABASE_URL: target.config.databaseUrl ?? '', PALAVER_SECRET: target.config.secret };
      const restored = await palaver(env, 'restore', file);
      expect(restored.code).toBe(0);
      expect(restored.stdout).toMatch(
        new RegExp(
          `^Restored [\\d,]+ rows of \\d+ tables and 0 files \\(a ${forum.ctx.dialect} forum of .*\\) into ${other === 'postgres' ? 'PostgreSQL' : 'SQLite'} in`,
        ),
      );
      // Progress reached the log, one line per table (stderr is not a terminal here).
      expect(restored.stderr).toMatch(/\] topics 1\/1 rows/);
      expect(withoutQueuedRebuild(await dumpTables(target.config), source)).toEqual(source);
      const again = await palaver(env, 'restore', file);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('Error: The database is not empty: a backup is restored into an empty database.');
      const bad = await palaver(env, 'restore', path.join(dir, 'missing.tar.gz'));
      expect(bad.stderr).toContain('Error: There is no such backup.');
    } finally {
      await target.dispose();
    }
  }, 120_000);

  it('without --out, writes into the file store where the admin page lists it', async () => {
    const made = await palaver(sourceEnv, 'backup');
    expect(made.code).toBe(0);
    const names: string[] = [];
    for await (const o of forum.ctx.storage.list('backups/')) names.push(o.key);
    expect(names.some((n) => /^backups\/palaver-\d{8}-\d{6}-[0-9a-f]{4}-cli\.tar\.gz$/.test(n))).toBe(true);
  }, 60_000);
});
