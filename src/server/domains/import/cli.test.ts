import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../../test/harness.js';
import { importNodebb } from './run.js';
import { openSource } from './source.js';
import { readDump, scratchRedis } from './test-kit.js';

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

describe('palaver import nodebb and palaver import verify', () => {
  let from: string;
  let drop: () => Promise<void>;
  const dir = mkdtempSync(path.join(tmpdir(), 'palaver-import-cli-'));
  beforeAll(async () => {
    ({ url: from, drop } = await scratchRedis(readDump()));
  });
  afterAll(async () => {
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts without writing on --dry-run, imports with a bar per phase, and verify finds both forums agree', async () => {
    // A new SQLite forum in its own data dir.
    const env = { PALAVER_DATA_DIR: dir, DATABASE_URL: '', PALAVER_SECRET: 'cli-import-secret-cli-import-secret' };
    const dry = await palaver(env, 'import', 'nodebb', '--from', from, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(
      /^Dry run \(nothing written\) from Redis .* users 8, groups 7, forum \d+, categories 8, topics 7, posts 14, member-state 8, chats 7, flags 2, notifications \d+, post-queue 0\. \d+ skipped/,
    );
    const before = await palaver(env, 'import', 'verify', '--from', from);
    expect(before.code).toBe(1);
    expect(before.stdout).toMatch(/^DIFF posts/m);

    const made = await palaver(env, 'import', 'nodebb', '--from', from);
    expect(made.code).toBe(0);
    // Progress on stderr: a line per finished phase when it is not a terminal.
    expect(made.stderr).toMatch(/^\[#{24}\] posts 14\/14/m);
    expect(made.stdout).toMatch(/^Imported from Redis .* posts 14,/);
    const after = await palaver(env, 'import', 'verify', '--from', from);
    expect(after.stdout).toMatch(/^ok {3}posts +NodeBB +14 +Palaver +14$/m);
    expect(after.stdout).toMatch(/Both forums agree\.\n$/);
    expect(after.code).toBe(0);
  }, 120_000);
});

describe('an interrupted import', () => {
  let forum: TestForum;
  let from: string;
  let drop: () => Promise<void>;
  const dir = mkdtempSync(path.join(tmpdir(), 'palaver-import-resume-'));
  beforeAll(async () => {
    ({ url: from, drop } = await scratchRedis(readDump()));
    forum = await startTestForum();
  });
  afterAll(async () => {
    await forum?.close();
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops cleanly when the connection is lost and --resume continues from its checkpoint', async () => {
    const src = await openSource(from);
    const phases: string[] = [];
    // The connection is lost as the posts phase begins, before its first page (resume.test.ts kills an import in the middle of a phase).
    await expect(
      importNodebb(forum.ctx, src, {
        from,
        dir,
        batch: 4,
        onProgress: (p) => {
          phases.push(p.phase);
          if (p.phase === 'posts') throw Object.assign(new Error('Connection is closed.'), { code: 'ECONNRESET' });
        },
      }),
    ).rejects.toThrow('Connection is closed.');
    const n = async () =>
      Number(
        (
          await forum.ctx.db
            .selectFrom('posts')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await n()).toBe(0);
    expect(phases).toContain('topics');

    const resumed: string[] = [];
    const result = await importNodebb(forum.ctx, src, { from, dir, batch: 4, resume: true, onProgress: (p) => resumed.push(p.phase) });
    await src.close();
    // The phases done before are not run again; the posts go on from the checkpoint.
    expect(resumed[0]).toBe('posts');
    expect(resumed).not.toContain('users');
    expect(result.counts.posts).toBe(14);
    expect(result.counts.users).toBe(8);
    expect(await n()).toBe(14);
    const topic = await forum.ctx.db.selectFrom('topics').select('post_count').where('tid', '=', 2).executeTakeFirstOrThrow();
    // Seven posts, one deleted, one purged: five visible.
    expect(topic.post_count).toBe(5);
  });
});
