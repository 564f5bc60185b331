#!/usr/bin/env node
// `node bench/import.mjs [--posts N] [--quick] [--db sqlite|postgres|both]` (or, from
// bench/run.mjs, one JSON argument {posts, db}): the NodeBB importer's throughput (issue 54).
// Generates a NodeBB-layout forum of N posts in a scratch Redis database (10-15, claimed with
// a marker key; emptied after; never database 0): members (one per 50 posts), 10 categories,
// topics of 20 posts with tags, a vote on every fifth post, markdown bodies of ~300
// characters. Then times the production CLI of the bench's private build, `palaver import
// nodebb --from redis://…`, into a fresh SQLite data dir and a fresh PostgreSQL database, and
// reports posts/s and the import process's peak memory (VmHWM). Target (1,000,000 posts):
// >= 10,000 posts/s into SQLite, >= 5,000/s into PostgreSQL, under 300 MB.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { BUILD, ensureServerBuild } from './lib/build.mjs';
import { BENCH_SECRET, CACHE } from './lib/paths.mjs';

const fromRun = process.argv[2]?.startsWith('{') ? JSON.parse(process.argv[2]) : null;
const { values: opts } = fromRun
  ? { values: { posts: String(fromRun.posts ?? 100000), quick: false, db: fromRun.db ?? 'both' } }
  : parseArgs({ options: { posts: { type: 'string', default: '1000000' }, quick: { type: 'boolean', default: false }, db: { type: 'string', default: 'both' } } });
const POSTS = opts.quick ? 20_000 : Number(opts.posts);
const PG_BASE = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_BASE = (process.env.IMPORT_REDIS || 'redis://127.0.0.1:6379').replace(/\/\d*$/, '');
const say = (s) => process.stderr.write(`${s}\n`);
const dir = path.join(CACHE, `import-bench-${process.pid}`);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

// ---- a scratch Redis database ----
const LOCK = '__palaver_import_bench__';
let redis;
let redisUrl;
for (let db = 10; db <= 15 && !redis; db++) {
  const r = new Redis(`${REDIS_BASE}/${db}`);
  if ((await r.set(LOCK, String(process.pid), 'EX', 3600, 'NX')) === 'OK' && (await r.dbsize()) === 1) {
    redis = r;
    redisUrl = `${REDIS_BASE}/${db}`;
  } else {
    if ((await r.get(LOCK)) === String(process.pid)) await r.del(LOCK);
    r.disconnect();
  }
}
if (!redis) throw new Error('no free scratch Redis database (10-15)');

try {
  // ---- the NodeBB forum ----
  const t0 = performance.now();
  const USERS = Math.max(10, Math.ceil(POSTS / 50));
  const TOPICS = Math.ceil(POSTS / 20);
  const CATS = 10;
  const start = Date.UTC(2020, 0, 1);
  const words = 'alpha beta gamma delta forum reply thread keyboard switch clack tactile linear spring board layout keycap macro'.split(' ');
  const body = (i) =>
    `Reply **${i}** about ${words[i % words.length]} and _${words[(i * 7) % words.length]}_.\n\n` +
    `${Array.from({ length: 30 }, (_, k) => words[(i + k * 3) % words.length]).join(' ')}\n\n- one\n- two [link](/topic/${1 + (i % TOPICS)})\n`;
  let p = redis.pipeline();
  let queued = 0;
  const flush = async (force) => {
    if (queued >= 5000 || (force && queued)) {
      await p.exec();
      p = redis.pipeline();
      queued = 0;
    }
  };
  for (let c = 1; c <= CATS; c++) {
    p.hset(`category:${c}`, { cid: c, name: `Category ${c}`, slug: `${c}/category-${c}`, description: `About ${c}`, parentCid: 0, order: c, bgColor: '#333', color: '#fff', icon: 'fa-comments', timestamp: start });
    p.zadd('categories:cid', c, c);
    for (const priv of ['find', 'read', 'topics:read', 'topics:create', 'topics:reply']) p.zadd(`group:cid:${c}:privileges:groups:${priv}:members`, start, 'registered-users');
    for (const priv of ['find', 'read', 'topics:read']) p.zadd(`group:cid:${c}:privileges:groups:${priv}:members`, start, 'guests');
  }
  for (let u = 1; u <= USERS; u++) {
    // A fixed bcrypt hash (of "password"): the import copies it, never computes one.
    p.hset(`user:${u}`, { uid: u, username: `member${u}`, userslug: `member${u}`, email: `member${u}@example.com`, 'email:confirmed': 1, password: '$2a$12$Zy6CxIWQ2x5mZ2/YK8TKiOYLlIDj4vUL3tJi1R3KXQXn8ghNT0Sym', joindate: start + u, lastonline: start + u, reputation: u % 7 });
    p.zadd('users:joindate', start + u, u);
    queued += 2;
    await flush();
  }
  for (let t = 1; t <= TOPICS; t++) {
    const first = (t - 1) * 20 + 1;
    p.hset(`topic:${t}`, { tid: t, cid: 1 + (t % CATS), uid: 1 + (t % USERS), mainPid: first, title: `Topic ${t} about ${words[t % words.length]}`, slug: `${t}/topic-${t}`, timestamp: start + first * 1000, lastposttime: start + Math.min(POSTS, first + 19) * 1000, postcount: 20, viewcount: t % 100, tags: `${words[t % words.length]},${words[(t + 3) % words.length]}` });
    p.zadd('topics:tid', start + first * 1000, t);
    queued += 2;
    await flush();
  }
  for (let i = 1; i <= POSTS; i++) {
    const tid = Math.ceil(i / 20);
    p.hset(`post:${i}`, { pid: i, tid, uid: 1 + (i % USERS), content: body(i), timestamp: start + i * 1000, ip: '127.0.0.1', ...(i % 5 === 0 ? { upvotes: 1 } : {}) });
    p.zadd('posts:pid', start + i * 1000, i);
    if (i % 20 !== 1) p.zadd(`tid:${tid}:posts`, start + i * 1000, i);
    if (i % 5 === 0) p.sadd(`pid:${i}:upvote`, 1 + ((i + 1) % USERS));
    queued += 4;
    await flush();
  }
  await flush(true);
  const genSecs = (performance.now() - t0) / 1000;
  say(`bench import: generated a NodeBB forum of ${POSTS.toLocaleString('en')} posts, ${TOPICS.toLocaleString('en')} topics, ${USERS.toLocaleString('en')} members in Redis (${genSecs.toFixed(1)} s)`);

  // ---- the import, by the production CLI ----
  await ensureServerBuild({ log: say });
  const bin = path.join(BUILD, 'dist/server/main.js');
  /** Runs the CLI; answers its time and peak resident memory (VmHWM, polled from /proc). */
  const palaver = (env, ...args) =>
    new Promise((resolve, reject) => {
      const t = performance.now();
      const prof = process.env.IMPORT_BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.IMPORT_BENCH_PROF] : [];
      const child = spawn(process.execPath, [...prof, bin, ...args], {
        env: { ...process.env, REDIS_URL: '', LOG_LEVEL: 'error', PALAVER_SECRET: BENCH_SECRET, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      let peak = 0;
      const probe = setInterval(() => {
        try {
          const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          if (m) peak = Math.max(peak, Number(m[1]) * 1024);
        } catch {
          // the process has ended
        }
      }, 100);
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('close', (code) => {
        clearInterval(probe);
        if (code !== 0) reject(new Error(`palaver ${args.join(' ')} exited ${code}: ${err.slice(-500)}`));
        else resolve({ secs: (performance.now() - t) / 1000, peakBytes: peak, out: out.trim(), err });
      });
    });

  const results = { posts: POSTS, topics: TOPICS, members: USERS, generateSecs: genSecs };
  const targets = [];
  if (opts.db === 'sqlite' || opts.db === 'both') targets.push('sqlite');
  if (opts.db === 'postgres' || opts.db === 'both') targets.push('postgres');
  for (const target of targets) {
    let env;
    let dropPg = null;
    if (target === 'sqlite') env = { PALAVER_DATA_DIR: path.join(dir, 'sqlite'), DATABASE_URL: '' };
    else {
      const name = `palaver_import_bench_${process.pid}`;
      const admin = new pg.Client({ connectionString: PG_BASE });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(PG_BASE);
      url.pathname = `/${name}`;
      env = { PALAVER_DATA_DIR: path.join(dir, 'pg'), DATABASE_URL: url.toString() };
      dropPg = async () => {
        const c = new pg.Client({ connectionString: PG_BASE });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      };
    }
    try {
      // The schema first (not measured): `palaver migrate`.
      await palaver(env, 'migrate');
      const r = await palaver(env, 'import', 'nodebb', '--from', redisUrl);
      if (process.env.IMPORT_BENCH_VERBOSE) say(r.err);
      results[target] = { secs: r.secs, postsPerSec: Math.round(POSTS / r.secs), peakMB: Math.round(r.peakBytes / 1048576), summary: r.out.split('\n').pop() };
      say(`bench import → ${target}: ${POSTS.toLocaleString('en')} posts in ${r.secs.toFixed(1)} s = ${results[target].postsPerSec.toLocaleString('en')} posts/s (whole import, every phase), peak ${results[target].peakMB} MB`);
    } finally {
      await dropPg?.();
    }
  }
  process.stdout.write(`${JSON.stringify(results)}\n`);
} finally {
  await redis.flushdb();
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
}
