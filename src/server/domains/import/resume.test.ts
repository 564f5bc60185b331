import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/index.js';
import { freshPostgres } from '../../test/harness.js';
import type { Checkpoint } from './run.js';
import { scratchRedis, syntheticForum } from './test-kit.js';

const main = path.resolve(import.meta.dirname, '../../main.ts');
const POSTS = 1000;
/** The tables an import fills, compared row by row (generated ids left out: they are the database's, not NodeBB's). */
const TABLES = ['users', 'categories', 'topics', 'posts', 'votes', 'bookmarks', 'tags', 'topic_tags', 'topic_reads', 'privileges', 'group_members'] as const;

interface Target {
  env: Record<string, string>;
  dir: string;
  drop?: () => Promise<void>;
}

/** Starts the palaver CLI in a child process; `watch` may kill it. */
function palaver(
  t: Target,
  args: string[],
  watch?: (kill: () => void) => void,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], {
      env: { ...process.env, REDIS_URL: '', LOG_LEVEL: 'error', PALAVER_SECRET: 'resume-test-secret-resume-test-secret', ...t.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    let timer: NodeJS.Timeout | undefined;
    if (watch) timer = setInterval(() => watch(() => child.kill('SIGKILL')), 5);
    child.on('close', (code, signal) => {
      clearInterval(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Each table's row count and a checksum of its rows (sorted, ids left out). */
const open = (t: Target) =>
  openDatabase({ databaseUrl: t.env.DATABASE_URL || null, dataDir: t.dir }, { info: () => undefined, warn: () => undefined, error: () => undefined } as never);

async function fingerprint(t: Target): Promise<Record<string, { rows: number; sum: string }>> {
  const handle = open(t);
  try {
    const out: Record<string, { rows: number; sum: string }> = {};
    for (const table of TABLES) {
      const rows = (await handle.db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
      const lines = rows
        .map((r) =>
          JSON.stringify(
            Object.entries(r)
              .filter(([k]) => k !== 'id')
              .map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]),
          ),
        )
        .sort();
      out[table] = { rows: rows.length, sum: createHash('sha256').update(lines.join('\n')).digest('hex') };
    }
    return out;
  } finally {
    await handle.close();
  }
}

describe('an import killed (SIGKILL) half-way through a phase, then resumed', () => {
  let from: string;
  let drop: () => Promise<void>;
  const targets: Target[] = [];
  async function target(): Promise<Target> {
    const dir = mkdtempSync(path.join(tmpdir(), 'palaver-import-kill-'));
    const t: Target = { dir, env: { PALAVER_DATA_DIR: dir, DATABASE_URL: '' } };
    if (process.env.DATABASE_URL) {
      const pgDb = await freshPostgres(process.env.DATABASE_URL);
      t.env.DATABASE_URL = pgDb.url;
      t.drop = pgDb.drop;
    }
    targets.push(t);
    return t;
  }
  beforeAll(async () => {
    ({ url: from, drop } = await scratchRedis(syntheticForum(POSTS)));
  });
  afterAll(async () => {
    await drop?.();
    for (const t of targets) {
      await t.drop?.();
      rmSync(t.dir, { recursive: true, force: true });
    }
  });

  it('continues from the last record read, and ends with the forum an uninterrupted import makes', async () => {
    const killed = await target();
    const checkpointFile = path.join(killed.dir, 'import', 'nodebb-checkpoint.json');
    const read = (): Checkpoint | null => {
      try {
        return JSON.parse(readFileSync(checkpointFile, 'utf8')) as Checkpoint;
      } catch {
        return null;
      }
    };
    // Small pages: the posts phase takes many checkpoints; the process is killed once half of them are past.
    const first = await palaver(killed, ['import', 'nodebb', '--from', from, '--batch', '10'], (kill) => {
      const cp = read();
      if (cp?.phase === 'posts' && (cp.seen ?? 0) >= POSTS / 2) kill();
    });
    expect(first.signal).toBe('SIGKILL');
    const cp = read()!;
    expect(cp.phase).toBe('posts');
    expect(cp.done).toContain('topics');
    expect(cp.done).not.toContain('posts');
    // The cursor is the last post read: its pid and time.
    const [lastPid, lastTime] = JSON.parse(cp.cursor) as [string, number];
    expect(Number(lastPid)).toBeGreaterThanOrEqual(POSTS / 2);
    expect(Number(lastPid)).toBeLessThan(POSTS);
    expect(lastTime).toBe(Date.UTC(2024, 0, 1) + Number(lastPid) * 1000);
    const partial = await fingerprint(killed);
    expect(partial.posts!.rows).toBeGreaterThanOrEqual(cp.seen!);
    expect(partial.posts!.rows).toBeLessThan(POSTS);

    // A post of a page before the checkpoint is marked: a resumed import does not write it again.
    let handle = open(killed);
    const original = await handle.db.selectFrom('posts').select('content').where('pid', '=', 1).executeTakeFirstOrThrow();
    await handle.db.updateTable('posts').set({ content: 'written before the kill' }).where('pid', '=', 1).execute();
    await handle.close();

    const resumed = await palaver(killed, ['import', 'nodebb', '--from', from, '--batch', '10', '--resume']);
    expect(resumed.code).toBe(0);
    handle = open(killed);
    expect(await handle.db.selectFrom('posts').select('content').where('pid', '=', 1).executeTakeFirstOrThrow()).toEqual({
      content: 'written before the kill',
    });
    await handle.db.updateTable('posts').set(original).where('pid', '=', 1).execute();
    await handle.close();
    // The phases done before the kill are not run again; the posts go on from the checkpoint.
    expect(resumed.stderr).not.toMatch(/\] users /);
    expect(resumed.stderr).toMatch(new RegExp(`\\] posts ${POSTS.toLocaleString('en')}/${POSTS.toLocaleString('en')}`));
    expect(resumed.stdout).toMatch(new RegExp(`^Imported from .* posts ${POSTS.toLocaleString('en')},`, 'm'));

    const whole = await target();
    const once = await palaver(whole, ['import', 'nodebb', '--from', from, '--batch', '10']);
    expect(once.code).toBe(0);
    const [a, b] = [await fingerprint(killed), await fingerprint(whole)];
    expect(a.posts!.rows).toBe(POSTS);
    expect(a.votes!.rows).toBe(POSTS / 5);
    expect(a).toEqual(b);
    // The summary's last line (the counts) is the same too.
    const counts = (t: Target) =>
      JSON.parse(
        readFileSync(path.join(t.dir, 'import', 'nodebb-summary.ndjson'), 'utf8')
          .trim()
          .split('\n')
          .pop()!,
      ) as unknown;
    expect(counts(killed)).toEqual(counts(whole));
  }, 300_000);
});
