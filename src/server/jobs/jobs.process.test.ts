import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../test/harness.js';

const worker = path.resolve(import.meta.dirname, 'test-worker.ts');

/** Runs the test worker in a child process on the forum's database; resolves with its exit code. */
function runWorker(forum: TestForum, mode: 'drain' | 'crash'): Promise<{ code: number; stdout: string }> {
  const { config } = forum.ctx;
  const env = { ...process.env, PALAVER_DATA_DIR: config.dataDir, DATABASE_URL: config.databaseUrl ?? '', REDIS_URL: '', PALAVER_SECRET: 'test-secret-test-secret-test-secret', LOG_LEVEL: 'error' };
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', worker, mode], { env }, (err, stdout) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout });
    });
  });
}

// Two real processes on one database (the same SQLite file, or the same PostgreSQL database).
describe('jobs across two processes', () => {
  let forum: TestForum;
  beforeAll(async () => {
    forum = await startTestForum();
    forum.ctx.jobs.define('test.proc', async () => {}, { leaseMs: 60_000 });
  });
  afterAll(async () => forum?.close());

  const ranEvents = async () =>
    (await forum.ctx.db.selectFrom('events').select('data').where('type', '=', 'test-job-ran').execute()).map((r) => JSON.parse(r.data) as { n: number; pid: number });

  it('runs each queued job exactly once when two processes drain the queue together', async () => {
    for (let n = 0; n < 30; n++) await forum.ctx.jobs.enqueue('test.proc', { n });
    const results = await Promise.all([runWorker(forum, 'drain'), runWorker(forum, 'drain')]);
    expect(results.map((r) => r.code)).toEqual([0, 0]);
    const ran = await ranEvents();
    expect(ran.map((r) => r.n).sort((a, b) => a - b)).toEqual([...Array(30).keys()]);
  }, 60_000);

  it('retries in another process a job whose process died holding its lease', async () => {
    const id = await forum.ctx.jobs.enqueue('test.proc', { n: 1000 });
    const crashed = await runWorker(forum, 'crash');
    expect(crashed).toMatchObject({ code: 3, stdout: 'claimed 1\n' });
    const row = await forum.ctx.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'queued', attempts: 1 });
    // This process takes it over once the dead process's lease has run out.
    const runner = forum.ctx.jobs;
    expect(await runner.runDue(row.lease_until - 1)).toBe(0);
    expect(await runner.runDue(row.lease_until + 1)).toBe(1);
    expect(await forum.ctx.db.selectFrom('jobs').select(['state', 'attempts']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ state: 'done', attempts: 2 });
  }, 60_000);
});
