import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../test/http-client.js';
import { freePort } from '../test/net.js';
import { call, connectLive, nextEvent, type LiveClient } from '../test/live-client.js';
import type { ChatMessage } from '../../shared/schemas/chat.js';
import type { LivePost } from './events.js';

/**
 * Two server processes on two ports, one PostgreSQL database and one Redis: what N processes
 * behind a load balancer do. It needs shared services, so it runs only when DATABASE_URL is set.
 */
const pgBase = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
if (!pgBase) console.warn('cluster.test.ts skipped: set DATABASE_URL (PostgreSQL) and REDIS_URL to run the two-process test.');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const secret = randomBytes(24).toString('base64url');
const prefix = `palaver-cluster:${randomBytes(6).toString('hex')}:`;
const dbName = `palaver_cluster_${process.pid}_${randomBytes(4).toString('hex')}`;
const adminLogin = { username: 'clusteradmin', email: 'admin@example.com', password: 'Correct-Horse-42' };

interface Node {
  proc: ChildProcess;
  url: string;
  log: string[];
  dir: string;
}
const nodes: Node[] = [];

async function adminQuery(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: pgBase });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** Starts `palaver start` through tsx and waits until it answers. */
async function startNode(port: number, publicUrl: string, dbUrl: string, withAdmin: boolean): Promise<Node> {
  const dir = mkdtempSync(path.join(tmpdir(), 'palaver-node-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    PALAVER_URL: publicUrl,
    PALAVER_DATA_DIR: dir,
    DATABASE_URL: dbUrl,
    REDIS_URL: redisUrl,
    PALAVER_REDIS_PREFIX: prefix,
    PALAVER_SECRET: secret,
    PALAVER_RATE_LOGIN: '1000',
    PALAVER_RATE_POSTS: '1000',
    ...(withAdmin ? { PALAVER_ADMIN_USERNAME: adminLogin.username, PALAVER_ADMIN_EMAIL: adminLogin.email, PALAVER_ADMIN_PASSWORD: adminLogin.password } : {}),
  };
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts', 'start'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const node: Node = { proc, url: `http://127.0.0.1:${port}`, log: [], dir };
  for (const stream of [proc.stdout!, proc.stderr!]) stream.on('data', (d: Buffer) => node.log.push(d.toString()));
  nodes.push(node);
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`node on ${port} exited:\n${node.log.join('')}`);
    const up = await fetch(`${node.url}/api/config`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return node;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`node on ${port} did not start:\n${node.log.join('')}`);
}

async function stopNode(node: Node): Promise<void> {
  if (node.proc.exitCode === null) {
    const exited = new Promise((r) => node.proc.once('exit', r));
    node.proc.kill('SIGTERM');
    const timer = setTimeout(() => node.proc.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(node.dir, { recursive: true, force: true });
}

async function login(base: string, username: string, password: string): Promise<HttpClient> {
  const client = new HttpClient(base);
  const res = await client.post('/login', { username, password });
  if (res.status !== 200) throw new Error(`login on ${base} failed: ${res.status} ${res.text}`);
  return client;
}

describe('two processes, one PostgreSQL, one Redis', () => {
  let a: Node;
  let b: Node;
  let admin: HttpClient;
  const sockets: LiveClient[] = [];

  beforeAll(async () => {
    if (!pgBase) return;
    await adminQuery(`CREATE DATABASE ${dbName}`);
    const dbUrl = new URL(pgBase);
    dbUrl.pathname = `/${dbName}`;
    const [portA, portB] = [await freePort(), await freePort()];
    // Both answer for one public address, as behind a load balancer; A migrates and sets up first.
    const publicUrl = `http://127.0.0.1:${portA}`;
    a = await startNode(portA, publicUrl, dbUrl.toString(), true);
    b = await startNode(portB, publicUrl, dbUrl.toString(), false);
    admin = await login(a.url, adminLogin.username, adminLogin.password);
  }, 240_000);

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await Promise.all(nodes.map(stopNode));
    if (!pgBase) return;
    await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }, 60_000);

  it.skipIf(!pgBase)(
    'carries a reply, presence and a ban from process A to a socket on process B',
    async () => {
      const cid = (await admin.post('/api/v3/categories', { name: 'Cluster' })).body.response.cid as number;
      const topic = await admin.post('/api/v3/topics', { cid, title: 'Across processes', content: 'Posted through process A' });
      expect(topic.status).toBe(200);
      const tid = topic.body.response.tid as number;
      const created = await admin.post('/api/v3/users', { username: 'clustermember', email: 'member@example.com', password: 'Correct-Horse-42' });
      const memberUid = created.body.response.uid as number;

      // The admin listens on A; the member connects to B and reads the topic there.
      const adminSocket = await connectLive(admin);
      sockets.push(adminSocket);
      const arrival = nextEvent<{ uid: number; status: string }>(adminSocket, 'event:user_status_change', 10_000, (d) => d.uid === memberUid);
      const member = await login(b.url, 'clustermember', 'Correct-Horse-42');
      const memberSocket = await connectLive(member);
      sockets.push(memberSocket);
      await call(memberSocket, 'meta.rooms.enter', { enter: `topic_${tid}` });
      expect(await arrival).toEqual({ uid: memberUid, status: 'online' });
      expect((await admin.get(`/api/v3/users/${memberUid}/status`)).body.response.status).toBe('online');

      const newPost = nextEvent<{ posts: LivePost[] }>(memberSocket, 'event:new_post', 10_000);
      const reply = await admin.post(`/api/v3/topics/${tid}`, { content: 'A reply through process A' });
      expect(reply.status).toBe(200);
      const { posts } = await newPost;
      expect(posts[0]).toMatchObject({ pid: reply.body.response.pid, tid, content: expect.stringContaining('through process A') });

      const banned = nextEvent(memberSocket, 'event:banned', 10_000);
      const closed = nextEvent<string>(memberSocket, 'disconnect', 10_000);
      expect((await admin.put(`/api/v3/users/${memberUid}/ban`, { reason: 'Cluster test' })).status).toBe(200);
      expect(await banned).toEqual({ reason: 'Cluster test' });
      expect(await closed).toBe('io server disconnect');

      // B saw the member's last socket close; A reads the shared presence.
      const deadline = Date.now() + 5000;
      let status = '';
      while (Date.now() < deadline && status !== 'offline') {
        status = (await admin.get(`/api/v3/users/${memberUid}/status`)).body.response.status as string;
        if (status !== 'offline') await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe('offline');
    },
    60_000,
  );

  it.skipIf(!pgBase)(
    'delivers a message, typing and the unread badge from process A to sockets on process B; the rate limit is shared',
    async () => {
      const created = await admin.post('/api/v3/users', { username: 'chatmember', email: 'chat@example.com', password: 'Correct-Horse-42' });
      const memberUid = created.body.response.uid as number;
      const member = await login(b.url, 'chatmember', 'Correct-Horse-42');
      const room = await admin.post('/api/v3/chats', { uids: [memberUid] });
      expect(room.status).toBe(200);
      const roomId = room.body.response.roomId as number;

      // Two sockets of the member on B: one with the room open, one only on its uid room (the sidebar).
      const [open, sidebar] = [await connectLive(member), await connectLive(member)];
      sockets.push(open, sidebar);
      await call(open, 'modules.chats.enter', roomId);

      const arrivals = [nextEvent<{ message: ChatMessage }>(open, 'event:chats.receive', 10_000), nextEvent<{ message: ChatMessage }>(sidebar, 'event:chats.receive', 10_000)];
      const badge = nextEvent<{ count: number }>(sidebar, 'event:unread.updateChatCount', 10_000);
      const sent = await admin.post(`/api/v3/chats/${roomId}`, { message: 'Across processes' });
      expect(sent.status).toBe(200);
      for (const d of await Promise.all(arrivals)) expect(d.message).toMatchObject({ mid: sent.body.response.mid, content: expect.stringContaining('Across processes') });
      expect((await badge).count).toBe(1);

      const typing = nextEvent<{ uid: number; typing: boolean }>(open, 'event:chats.typing', 10_000);
      await admin.put(`/api/v3/chats/${roomId}/typing`, { typing: true });
      expect(await typing).toMatchObject({ roomId, typing: true });

      // chatMessageDelay 5000 ms: two messages per 10 s, counted in Redis whichever process answers.
      expect((await admin.put('/api/v3/admin/settings/chatMessageDelay', { value: '5000' })).status).toBe(200);
      expect((await member.post(`/api/v3/chats/${roomId}`, { message: 'one from B' })).status).toBe(200);
      const viaA = await login(a.url, 'chatmember', 'Correct-Horse-42');
      expect((await viaA.post(`/api/v3/chats/${roomId}`, { message: 'two from A' })).status).toBe(200);
      const third = await member.post(`/api/v3/chats/${roomId}`, { message: 'three from B' });
      expect([third.status, third.body.status.key]).toEqual([429, 'error:too-many-messages']);
    },
    60_000,
  );

  it.skipIf(!pgBase)(
    "a member removed from a room through process A stops hearing it on process B; a turn's messages still arrive",
    async () => {
      const made = async (name: string) => (await admin.post('/api/v3/users', { username: name, email: `${name}@example.com`, password: 'Correct-Horse-42' })).body.response.uid as number;
      const [leaverUid, stayerUid] = [await made('chatleaver'), await made('chatstayer')];
      const room = await admin.post('/api/v3/chats', { uids: [leaverUid, stayerUid] });
      expect(room.status).toBe(200);
      const roomId = room.body.response.roomId as number;
      const [leaver, stayer] = [await login(b.url, 'chatleaver', 'Correct-Horse-42'), await login(b.url, 'chatstayer', 'Correct-Horse-42')];
      const [leaverSocket, stayerSocket] = [await connectLive(leaver), await connectLive(stayer)];
      sockets.push(leaverSocket, stayerSocket);
      await call(leaverSocket, 'modules.chats.enter', roomId);
      await call(stayerSocket, 'modules.chats.enter', roomId);

      const left = nextEvent<{ roomId: number }>(leaverSocket, 'event:chats.left', 10_000);
      expect((await admin.del(`/api/v3/chats/${roomId}/users/${leaverUid}`)).status).toBe(200);
      expect(await left).toEqual({ roomId });

      // Several messages at once (one turn's batch) reach the member still in, none the one who left.
      const heard: unknown[] = [];
      leaverSocket.on('event:chats.receive', (d: unknown) => heard.push(d));
      const texts = ['first of three', 'second of three', 'third of three'];
      const arrived: string[] = [];
      const all = new Promise<void>((resolve) => {
        stayerSocket.on('event:chats.receive', (d: { message: ChatMessage }) => {
          if (!d.message.system) arrived.push(d.message.content);
          if (arrived.length === texts.length) resolve();
        });
      });
      const sent = await Promise.all(texts.map((message) => admin.post(`/api/v3/chats/${roomId}`, { message })));
      for (const s of sent) expect(s.status).toBe(200);
      await all;
      expect(arrived.map((c) => c.replace(/<[^>]+>/g, '').trim()).sort()).toEqual([...texts].sort());
      // A message sent after the others is heard by the member still in: by then the leaver's copies would have come.
      const last = nextEvent<{ message: ChatMessage }>(stayerSocket, 'event:chats.receive', 10_000);
      await admin.post(`/api/v3/chats/${roomId}`, { message: 'the last one' });
      await last;
      expect(heard).toEqual([]);
    },
    60_000,
  );
});
