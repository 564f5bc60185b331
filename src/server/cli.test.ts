import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const dataDir = mkdtempSync(path.join(tmpdir(), 'palaver-cli-'));
const main = path.resolve(import.meta.dirname, 'main.ts');

/** Runs the palaver CLI in a child process on a throwaway SQLite data dir. */
async function palaver(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', main, ...args], {
      env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', PALAVER_DATA_DIR: dataDir, LOG_LEVEL: 'error' },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('palaver CLI', () => {
  it('sets up the first admin once, creates members and tokens', async () => {
    const setup = await palaver('setup', '--admin-username', 'root', '--admin-email', 'root@example.com', '--admin-password', 'Correct-Horse-42');
    expect(setup.stdout).toContain('Created administrator root');
    const again = await palaver('setup', '--admin-username', 'root2', '--admin-email', 'r2@example.com', '--admin-password', 'Correct-Horse-42');
    expect(again.stdout).toContain('already exists');
    const member = await palaver('user', 'create', '--username', 'member1', '--email', 'm1@example.com', '--password', 'Correct-Horse-42');
    expect(member.stdout).toMatch(/Created member member1 \(uid \d+\)/);
    const weak = await palaver('user', 'create', '--username', 'member2', '--password', 'x');
    expect(weak.code).not.toBe(0);
    expect(weak.stderr).toContain('Password too short');
    const token = await palaver('token', 'create', '--uid', '1');
    expect(token.stdout.trim()).toMatch(/^[\w-]{20,}$/);
    const master = await palaver('token', 'create', '--master');
    expect(master.stdout.trim()).toMatch(/^[\w-]{20,}$/);
    const unknown = await palaver('token', 'create', '--uid', '999');
    expect(unknown.code).not.toBe(0);
    const pw = await palaver('user', 'password', '--username', 'member1', '--password', 'Brand-New-Horse-9');
    expect(pw.stdout).toContain('Password changed');
    // Eight CLI processes, each compiling the server with tsx: on a loaded two-core machine
    // that has taken over a minute.
  }, 180_000);

  it('explains bad configuration one line per value', async () => {
    const { code, stderr } = await run(process.execPath, ['--import', 'tsx', main, 'migrate'], {
      env: { ...process.env, PORT: 'x', DATABASE_URL: 'mysql://h/db', PALAVER_DATA_DIR: dataDir },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/PORT: expected a whole number/);
    expect(stderr).toMatch(/DATABASE_URL: only postgres/);
  });

  it('prints usage for an unknown command', async () => {
    const res = await palaver('frobnicate');
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('Usage: palaver');
  });
});
