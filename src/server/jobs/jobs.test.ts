import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../app.js';
import { startTestForum, type TestForum } from '../test/harness.js';
import { byId } from './store.js';

// Two app instances on the same database (the same SQLite file, or the same PostgreSQL
// database) play two processes of one forum; the clock is passed in, so nothing sleeps.
describe('job runner with leases, across two processes', () => {
  let forum: TestForum;
  let other: App;
  const ran: { by: string; n: number }[] = [];

  beforeAll(async () => {
    forum = await startTestForum();
    other = await buildApp(forum.ctx.config, { logger: false });
    for (const [label, app] of [['a', forum.app], ['b', other]] as const) {
      app.ctx.jobs.define<{ n: number }>('test.record', async ({ payload }) => void ran.push({ by: label, n: payload.n }), { leaseMs: 60_000 });
      app.ctx.jobs.define('test.fails', async () => {
        throw new Error(`fails in ${label}`);
      }, { maxAttempts: 2 });
    }
  });
  afterAll(async () => {
    await other?.close();
    await forum?.close();
  });

  it('runs each queued job exactly once when both processes poll together', async () => {
    ran.length = 0;
    const a = forum.ctx.jobs;
    for (let n = 0; n < 12; n++) await a.enqueue('test.record', { n });
    const now = Date.now() + 1;
    // Both claim at the same time, twice over: every run goes to exactly one of them.
    await Promise.all([a.runDue(now), other.ctx.jobs.runDue(now), a.runDue(now), other.ctx.jobs.runDue(now)]);
    await Promise.all([a.runDue(now), other.ctx.jobs.runDue(now)]);
    expect(ran.map((r) => r.n).sort((x, y) => x - y)).toEqual([...Array(12).keys()]);
    const rows = await forum.ctx.db.selectFrom('jobs').select(['state', 'attempts']).where('name', '=', 'test.record').execute();
    expect(rows.every((r) => r.state === 'done' && r.attempts === 1)).toBe(true);
  });

  it('gives a run whose process died to another process once its lease expires', async () => {
    ran.length = 0;
    const id = await forum.ctx.jobs.enqueue('test.record', { n: 99 });
    const t0 = Date.now() + 1;
    // Process A takes the lease and dies before running it.
    const claimed = await forum.ctx.jobs.claimNext(t0);
    expect(claimed?.id).toBe(id);
    // While the lease holds, B leaves it alone.
    expect(await other.ctx.jobs.runDue(t0 + 30_000)).toBe(0);
    expect(ran).toEqual([]);
    // Once it expires, B runs it: one run, on the second attempt.
    expect(await other.ctx.jobs.runDue(t0 + 60_001)).toBe(1);
    expect(ran).toEqual([{ by: 'b', n: 99 }]);
    expect(await byId(forum.ctx.db, id)).toMatchObject({ state: 'done', attempts: 2, lease_owner: null });
  });

  it('backs a failing job off and stops after its attempts', async () => {
    const id = await forum.ctx.jobs.enqueue('test.fails', {});
    const t0 = Date.now() + 1;
    expect(await forum.ctx.jobs.runDue(t0)).toBe(1);
    const first = await byId(forum.ctx.db, id);
    expect(first).toMatchObject({ state: 'queued', attempts: 1, last_error: 'fails in a' });
    // Not before its back-off.
    expect(first!.run_at).toBeGreaterThan(Date.now());
    expect(await other.ctx.jobs.runDue(first!.run_at - 1)).toBe(0);
    expect(await other.ctx.jobs.runDue(first!.run_at)).toBe(1);
    expect(await byId(forum.ctx.db, id)).toMatchObject({ state: 'failed', attempts: 2, last_error: 'fails in b' });
    expect(await forum.ctx.jobs.runDue(first!.run_at + 10 * 3_600_000)).toBe(0);
  });

  it('keeps one schedule row per recurring job however many processes declare it', async () => {
    await Promise.all([forum.ctx.jobs.schedule(), other.ctx.jobs.schedule(), forum.ctx.jobs.schedule()]);
    const rows = await forum.ctx.db.selectFrom('jobs').select(['name', 'every_ms']).where('key', 'is not', null).orderBy('name').execute();
    expect(rows).toEqual([
      { name: 'backups.schedule', every_ms: 600_000 },
      { name: 'exports.clean', every_ms: 3_600_000 },
      { name: 'federation.kv-prune', every_ms: 6 * 3_600_000 },
      { name: 'jobs.prune', every_ms: 24 * 3_600_000 },
      { name: 'mail.send', every_ms: 10_000 },
      { name: 'notifications.digest', every_ms: 3_600_000 },
      { name: 'notifications.receipts', every_ms: 3_600_000 },
      { name: 'rewards.apply', every_ms: 3_600_000 },
      { name: 'sessions.prune', every_ms: 3_600_000 },
      { name: 'uploads.clean', every_ms: 3_600_000 },
    ]);
  });

  it('prunes expired sessions hourly and keeps live ones', async () => {
    const { client, user } = await forum.loginAs();
    const now = Date.now();
    await forum.ctx.db
      .insertInto('sessions')
      .values({ id_hash: 'expired-session-h3', uid: user.uid, created: now - 10_000, expires: now - 1, last_seen: now - 10_000 })
      .execute();
    await forum.ctx.jobs.schedule(now);
    await other.ctx.jobs.schedule(now);
    // Due now: the ten recurring jobs (sessions.prune, jobs.prune, mail.send, notifications.digest, notifications.receipts, rewards.apply, uploads.clean, exports.clean, backups.schedule, federation.kv-prune) run once each, in one process or the other.
    const runs = (await Promise.all([forum.ctx.jobs.runDue(now + 1), other.ctx.jobs.runDue(now + 1)])).reduce((x, y) => x + y, 0);
    expect(runs).toBe(10);
    const ids = (await forum.ctx.db.selectFrom('sessions').select('id_hash').where('uid', '=', user.uid).execute()).map((r) => r.id_hash);
    expect(ids).not.toContain('expired-session-h3');
    expect(ids.length).toBe(1);
    // The live session still works.
    expect((await client.get('/api/config')).body.uid).toBe(user.uid);
    // And the schedule moved an hour on.
    const row = await forum.ctx.db.selectFrom('jobs').selectAll().where('key', '=', 'every:sessions.prune').executeTakeFirstOrThrow();
    expect(row.run_at).toBeGreaterThanOrEqual(now + 3_600_000);
    expect(row.lease_owner).toBeNull();
  });

  it('leases each run when it starts, so a queue longer than one poll runs once across both processes', async () => {
    ran.length = 0;
    // Runs that take a while: under the old batch lease the last of ten leased up front ran out of lease while it waited.
    for (const app of [forum.app, other]) app.ctx.jobs.define<{ n: number }>('test.slow', async ({ payload }) => {
      await new Promise<void>((r) => setImmediate(r));
      ran.push({ by: app === other ? 'b' : 'a', n: payload.n });
    }, { leaseMs: 60_000 });
    for (let n = 0; n < 25; n++) await forum.ctx.jobs.enqueue('test.slow', { n });
    const drain = async (app: App) => {
      while ((await app.ctx.jobs.runDue()) > 0);
    };
    await Promise.all([drain(forum.app), drain(other)]);
    expect(ran.map((r) => r.n).sort((x, y) => x - y)).toEqual([...Array(25).keys()]);
    const rows = await forum.ctx.db.selectFrom('jobs').select(['state', 'attempts']).where('name', '=', 'test.slow').execute();
    expect(rows.every((r) => r.state === 'done' && r.attempts === 1)).toBe(true);
  });

  it('keeps the lease of a long job by its heartbeat: the other process never takes it over', async () => {
    const LEASE = 150;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const starts: string[] = [];
    for (const [label, app] of [['a', forum.app], ['b', other]] as const) {
      app.ctx.jobs.define('test.long', async () => {
        starts.push(label);
        await gate;
      }, { leaseMs: LEASE });
    }
    const id = await forum.ctx.jobs.enqueue('test.long', {});
    const running = forum.ctx.jobs.runDue();
    await vi.waitFor(() => expect(starts).toEqual(['a']));
    const started = Date.now();
    // Four lease lengths later the run is still A's: B polls all the while and finds nothing it may take.
    let polls = 0;
    while (Date.now() - started < 4 * LEASE) {
      expect(await other.ctx.jobs.runDue()).toBe(0);
      polls += 1;
      await new Promise<void>((r) => setTimeout(r, 10));
    }
    expect(polls).toBeGreaterThan(5);
    release();
    expect(await running).toBe(1);
    expect(starts).toEqual(['a']);
    expect(await byId(forum.ctx.db, id)).toMatchObject({ state: 'done', attempts: 1, lease_owner: null });
  });

  it('aborts a run whose lease another process holds now, and leaves the run to it', async () => {
    const LEASE = 120;
    let seen: AbortSignal | null = null;
    forum.ctx.jobs.define('test.stolen', async ({ signal }) => {
      seen = signal;
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
    }, { leaseMs: LEASE });
    const id = await forum.ctx.jobs.enqueue('test.stolen', {});
    const running = forum.ctx.jobs.runDue();
    await vi.waitFor(() => expect(seen).not.toBeNull());
    // Another process took it (as it would after a pause longer than the lease).
    await forum.ctx.db.updateTable('jobs').set({ lease_owner: 'thief', lease_until: Date.now() + 60_000 }).where('id', '=', id).execute();
    expect(await running).toBe(1);
    expect(seen!.aborted).toBe(true);
    expect(await byId(forum.ctx.db, id)).toMatchObject({ state: 'queued', lease_owner: 'thief' });
  });
});
