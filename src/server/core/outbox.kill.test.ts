import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/index.js';
import { freshPostgres } from '../test/harness.js';
import { HttpClient } from '../test/http-client.js';
import { freePort } from '../test/net.js';

/**
 * The proof that side effects are durable: a real forum process (SQLite, or PostgreSQL
 * when DATABASE_URL is set) takes topics and replies mentioning other members from several
 * members as fast as they can post, and is killed with SIGKILL mid-run; started again, it
 * delivers what the dead process left in the outbox. Every committed post's mentions reach
 * their members, each exactly once (the receipts the notifications domain writes with the
 * notification), and nothing is left waiting or failed.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const secret = randomBytes(24).toString('base64url');
const admin = { username: 'killadmin', email: 'killadmin@example.com', password: 'Correct-Horse-42' };
const MEMBERS = 4;
const names = Array.from({ length: MEMBERS }, (_, i) => `killmember${i}`);

interface Proc {
  proc: ChildProcess;
  log: string[];
}

let dataDir = '';
let databaseUrl = '';
let dropDb: (() => Promise<void>) | null = null;
let port = 0;
let server: Proc | null = null;

/** Starts `palaver start` through tsx and waits until it answers. */
async function startServer(first: boolean): Promise<Proc> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    PORT: String(port),
    HOST: '127.0.0.1',
    PALAVER_URL: `http://127.0.0.1:${port}`,
    PALAVER_DATA_DIR: dataDir,
    PALAVER_SECRET: secret,
    PALAVER_RATE_LOGIN: '1000',
    PALAVER_RATE_POSTS: '100000',
    // A row left by the killed process is taken again half a second after its lease began.
    PALAVER_OUTBOX_LEASE_MS: '500',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(databaseUrl && process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, PALAVER_REDIS_PREFIX: `palaver-kill:${randomBytes(6).toString('hex')}:` } : {}),
    ...(first ? { PALAVER_ADMIN_USERNAME: admin.username, PALAVER_ADMIN_EMAIL: admin.email, PALAVER_ADMIN_PASSWORD: admin.password } : {}),
  };
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts', 'start'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const p: Proc = { proc, log: [] };
  for (const stream of [proc.stdout!, proc.stderr!]) stream.on('data', (d: Buffer) => p.log.push(d.toString()));
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited:\n${p.log.join('')}`);
    const up = await fetch(`http://127.0.0.1:${port}/api/config`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return p;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not start:\n${p.log.join('')}`);
}

async function login(username: string, password: string): Promise<HttpClient> {
  const client = new HttpClient(`http://127.0.0.1:${port}`);
  const res = await client.post('/login', { username, password });
  if (res.status !== 200) throw new Error(`login of ${username} failed: ${res.status} ${res.text}`);
  return client;
}

/** Polls `check` until it passes (it throws while it does not), or throws its last error at the deadline. */
async function eventually(check: () => Promise<void>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

describe(`kill -9 between commit and delivery (${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  let db: DatabaseHandle | null = null;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'palaver-kill-'));
    if (process.env.DATABASE_URL) {
      const fresh = await freshPostgres(process.env.DATABASE_URL);
      databaseUrl = fresh.url;
      dropDb = fresh.drop;
    }
    port = await freePort();
  }, 60_000);

  afterAll(async () => {
    if (server && server.proc.exitCode === null) {
      const exited = new Promise((r) => server!.proc.once('exit', r));
      server.proc.kill('SIGTERM');
      const timer = setTimeout(() => server!.proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await db?.close();
    await dropDb?.();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('loses no mention and doubles none when the process is killed mid-run and started again', async () => {
    server = await startServer(true);
    const boss = await login(admin.username, admin.password);
    // Members post as fast as they can: no flood delays.
    expect((await boss.put('/api/v3/admin/settings', { values: { postDelay: 0, newbiePostDelay: 0, initialPostDelay: 0 } })).status).toBe(200);
    const cid = (await boss.post('/api/v3/categories', { name: 'Kill test' })).body.response.cid as number;
    const uids: number[] = [];
    for (const username of names) {
      const res = await boss.post('/api/v3/users', { username, email: `${username}@example.com`, password: admin.password });
      expect(res.status).toBe(200);
      uids.push(res.body.response.uid as number);
    }
    const clients = await Promise.all(names.map((n) => login(n, admin.password)));

    // Each member writes topics and replies naming the next two members, until the process dies.
    let dead = false;
    const acknowledged: number[] = [];
    const writer = async (i: number) => {
      const client = clients[i]!;
      const mention = `@${names[(i + 1) % MEMBERS]} and @${names[(i + 2) % MEMBERS]}`;
      let tid = 0;
      for (let n = 0; !dead; n++) {
        try {
          if (n % 4 === 0) {
            const res = await client.post('/api/v3/topics', { cid, title: `Topic ${i}-${n} for the kill test`, content: `Hello ${mention}, topic ${n}` });
            if (res.status !== 200) throw new Error(`topic answered ${res.status} ${res.text}`);
            tid = res.body.response.tid as number;
            acknowledged.push(res.body.response.mainPost.pid as number);
          } else {
            const res = await client.post(`/api/v3/topics/${tid}`, { content: `Again ${mention}, reply ${n}` });
            if (res.status !== 200) throw new Error(`reply answered ${res.status} ${res.text}`);
            acknowledged.push(res.body.response.pid as number);
          }
        } catch (err) {
          if (dead) return;
          throw err;
        }
      }
    };
    const writers = clients.map((_, i) => writer(i));
    // Killed while the members are still writing: some posts committed with their outbox rows not yet run.
    while (acknowledged.length < 40) {
      if (server.proc.exitCode !== null) throw new Error(`server died:\n${server.log.join('')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const exited = new Promise((r) => server!.proc.once('exit', r));
    server.proc.kill('SIGKILL');
    dead = true;
    await exited;
    await Promise.all(writers);

    db = openDatabase({ databaseUrl: databaseUrl || null, dataDir });
    const q = db.db;
    // The kill fell between commits and deliveries: the dead process left rows to finish (6 to 12 in trials).
    expect((await q.selectFrom('outbox').select('id').execute()).length).toBeGreaterThan(0);
    server = await startServer(false);

    // Every acknowledged post is committed.
    const posts = await q.selectFrom('posts').select(['pid', 'tid', 'uid']).where('uid', 'in', uids).execute();
    const pids = new Set(posts.map((p) => p.pid));
    expect(acknowledged.filter((pid) => !pids.has(pid))).toEqual([]);
    expect(posts.length).toBeGreaterThanOrEqual(40);

    // Every committed post's two mentions, each once: a receipt per post and member named, a notification per topic and member.
    const expected = posts.flatMap((p) => {
      const i = uids.indexOf(p.uid);
      return [uids[(i + 1) % MEMBERS]!, uids[(i + 2) % MEMBERS]!].map((uid) => `mention:${p.pid}|${uid}`);
    });
    await eventually(async () => {
      const receipts = await q.selectFrom('notification_receipts').select(['event_key', 'uid']).where('event_key', 'like', 'mention:%').execute();
      expect(receipts.map((r) => `${r.event_key}|${r.uid}`).sort()).toEqual([...expected].sort());
      const left = await q.selectFrom('outbox').select(['id', 'hook', 'state', 'last_error']).execute();
      expect(left).toEqual([]);
    }, 60_000);
    const notes = await q.selectFrom('notifications').select(['uid', 'merge_key', 'type']).where('type', '=', 'mention').execute();
    const noted = new Set(notes.map((n) => `${n.merge_key}|${n.uid}`));
    for (const p of posts) {
      const i = uids.indexOf(p.uid);
      for (const uid of [uids[(i + 1) % MEMBERS]!, uids[(i + 2) % MEMBERS]!]) expect(noted.has(`mention:tid:${p.tid}|${uid}`)).toBe(true);
    }
    // One notification row per topic and reader (merged), never two.
    expect(noted.size).toBe(notes.length);
  }, 240_000);
});
