import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFirstRun } from './domains/admin/setup-routes.js';
import { ADMINISTRATORS } from './domains/groups/service.js';
import { claimSetting, getSetting, swapSetting } from './domains/settings/store.js';
import { SETUP_CLAIM_STALE_MS, setupForum } from './setup.js';
import { startSecondProcess, startTestForum, type TestForum } from './test/harness.js';
import { HttpClient } from './test/http-client.js';

const PASSWORD = 'Setup-Horse-Battery-77';

const run = promisify(execFile);
const main = path.resolve(import.meta.dirname, 'main.ts');

describe('first-run setup from two CLI processes on one SQLite file', () => {
  it('creates exactly one administrator when two `palaver setup` run at once', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'palaver-setup-race-'));
    /** The CLI in a child process of its own on the shared data dir. */
    const palaver = async (...args: string[]) => {
      try {
        const { stdout } = await run(process.execPath, ['--import', 'tsx', main, ...args], {
          env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', PALAVER_DATA_DIR: dataDir, LOG_LEVEL: 'error' },
        });
        return stdout;
      } catch (err) {
        const e = err as { stdout: string; stderr: string };
        return `${e.stdout}${e.stderr}`;
      }
    };
    try {
      await palaver('migrate');
      const out = await Promise.all(['one', 'two'].map((name) => palaver('setup', '--admin-username', name, '--admin-email', `${name}@example.com`, '--admin-password', PASSWORD)));
      expect(out.filter((o) => o.includes('Created administrator')), out.join('\n')).toHaveLength(1);
      expect(out.filter((o) => o.includes('already exists')), out.join('\n')).toHaveLength(1);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

/**
 * First-run setup from two processes at once (two `palaver start` with PALAVER_ADMIN_*, or two
 * people on the setup page of two processes behind a balancer): one administrator, whatever
 * the timing. The database holds the claim, not a process.
 */
// Two contexts in one Node process race truly only on PostgreSQL: better-sqlite3 waits for a
// locked file synchronously, holding the event loop the other context needs to commit.
describe.skipIf(!process.env.DATABASE_URL)('first-run setup from two processes on one PostgreSQL database', () => {
  let forum: TestForum;
  let second: Awaited<ReturnType<typeof startSecondProcess>>;
  beforeEach(async () => {
    forum = await startTestForum();
    second = await startSecondProcess(forum);
  });
  afterEach(async () => {
    await second?.close();
    await forum?.close();
  });

  it('creates exactly one administrator when both run setup at once', async () => {
    const results = await Promise.all([
      setupForum(forum.ctx, { username: 'first', email: 'first@example.com', password: PASSWORD }),
      setupForum(second.app.ctx, { username: 'second', email: 'second@example.com', password: PASSWORD }),
    ]);
    const made = results.filter((uid): uid is number => uid !== null);
    expect(made).toHaveLength(1);
    expect(await forum.ctx.groups.members(ADMINISTRATORS)).toEqual(made);
    expect((await forum.ctx.users.list('joindate', 1, 10)).count).toBe(1);
    // Done for good: a later run makes nobody.
    expect(await setupForum(second.app.ctx, { username: 'third', email: 'third@example.com', password: PASSWORD })).toBeNull();
  });

  it('answers one of two setup forms sent to two processes, and 404 to the other', async () => {
    expect(await startFirstRun(forum.ctx)).toBe(true);
    expect(await startFirstRun(second.app.ctx)).toBe(true);
    const form = (name: string) => ({ siteTitle: `Forum of ${name}`, username: name, email: `${name}@example.com`, password: PASSWORD, 'password-confirm': PASSWORD });
    const [a, b] = await Promise.all([new HttpClient(forum.baseUrl).post('/setup', form('alpha')), new HttpClient(second.url).post('/setup', form('beta'))]);
    expect([a.status, b.status].sort()).toEqual([200, 404]);
    expect(await forum.ctx.groups.members(ADMINISTRATORS)).toHaveLength(1);
  });

  it('lets a refused setup (bad input) be tried again', async () => {
    await expect(setupForum(forum.ctx, { username: '', email: 'x@example.com', password: PASSWORD })).rejects.toThrow();
    expect(await setupForum(second.app.ctx, { username: 'fixed', email: 'fixed@example.com', password: PASSWORD })).toEqual(expect.any(Number));
    expect(await forum.ctx.groups.members(ADMINISTRATORS)).toHaveLength(1);
  });
});

describe('a setup claim left behind', () => {
  let forum: TestForum;
  beforeEach(async () => {
    forum = await startTestForum();
  });
  afterEach(async () => forum?.close());

  it('blocks setup while fresh (another process is at it), and is taken over once stale', async () => {
    await forum.ctx.actions.run('test.claim', (w) => claimSetting(w, 'setup:claim', String(Date.now())));
    expect(await setupForum(forum.ctx, { username: 'waiting', email: 'waiting@example.com', password: PASSWORD })).toBeNull();
    expect(await forum.ctx.groups.members(ADMINISTRATORS)).toEqual([]);
    // The process that claimed it died before making anyone.
    const old = String(Date.now() - SETUP_CLAIM_STALE_MS - 1000);
    await forum.ctx.actions.run('test.claim', async (w) => swapSetting(w, 'setup:claim', (await getSetting(w.tx, 'setup:claim'))!, old));
    const uid = await setupForum(forum.ctx, { username: 'rescuer', email: 'rescuer@example.com', password: PASSWORD });
    expect(await forum.ctx.groups.members(ADMINISTRATORS)).toEqual([uid]);
  });
});
