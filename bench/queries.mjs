#!/usr/bin/env node
// Queries per request: builds the app in-process on a copy of the seeded forum with a Kysely
// that logs every query, injects each benchmarked read (guest and member) and prints how many
// queries it ran, their time, the repeated ones (N+1 suspects) and each distinct statement's
// plan (EXPLAIN QUERY PLAN on SQLite, EXPLAIN on PostgreSQL), flagging full scans and sorts.
//   node bench/queries.mjs [--scale 1] [--verbose] [--only topic,recent]
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { ensureServerBuild, serverModule } from './lib/build.mjs';
import { BENCH_SECRET, CACHE, RESULTS } from './lib/paths.mjs';
import { benchReads } from './lib/reads.mjs';
import { postgresSeed, sqliteSeed } from './lib/seeding.mjs';

const { values: opts } = parseArgs({
  options: { scale: { type: 'string', default: '1' }, verbose: { type: 'boolean', default: false }, only: { type: 'string' }, cost: { type: 'string', default: '0' }, indexes: { type: 'boolean', default: false } },
});
const log = (s) => process.stderr.write(`${s}\n`);
await ensureServerBuild({ log });
const pgUrl = process.env.DATABASE_URL || null;
const runDir = path.join(CACHE, `queries-${process.pid}`);
const baseEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', PALAVER_SECRET: BENCH_SECRET, PALAVER_RATE_LOGIN: '1000000', PALAVER_CONFIG: path.join(runDir, 'none.json') };
const seed = pgUrl ? await postgresSeed({ url: pgUrl, scale: Number(opts.scale), baseEnv, log }) : sqliteSeed({ scale: Number(opts.scale), runDir, baseEnv, log });

const load = async (rel) => import(pathToFileURL(serverModule(rel)).href);
const { loadConfig } = await load('config.js');
const { buildApp } = await load('app.js');
const { Kysely, SqliteDialect, PostgresDialect } = await import('kysely');
// Committed writes per table, as src/server/db/index.ts gives the app (the session cache needs them).
const { TableWrites } = await load('db/table-writes.js');
const writes = new TableWrites();

let recording = null;
const config = loadConfig({ ...baseEnv, LOG_LEVEL: 'warn', ...(pgUrl ? { DATABASE_URL: pgUrl } : { PALAVER_DATA_DIR: runDir }) }, runDir);
// The same settings as src/server/db/index.ts, plus a query log.
const handle = (() => {
  if (pgUrl) {
    // The server's pg, with its type parsers (int8 as numbers: dates and counts).
    return load('db/index.js').then(({ loadPg }) => {
      const pg = loadPg();
      const pool = new pg.Pool({ connectionString: pgUrl, max: 10 });
      const k = new Kysely({ dialect: new PostgresDialect({ pool }), log: onLog, plugins: [writes] });
      return { db: k, dialect: 'postgres', writes, close: () => k.destroy(), raw: pool };
    });
  }
  return import('better-sqlite3').then(({ default: SQLite }) => {
    const file = new SQLite(path.join(runDir, 'palaver.sqlite'));
    file.pragma('journal_mode = WAL');
    file.pragma('foreign_keys = ON');
    file.pragma('synchronous = NORMAL');
    file.pragma('busy_timeout = 5000');
    const k = new Kysely({ dialect: new SqliteDialect({ database: file }), log: onLog, plugins: [writes] });
    return { db: k, dialect: 'sqlite', writes, close: () => k.destroy(), raw: file };
  });
})();
if (opts.indexes && !pgUrl) {
  // --indexes: the proposed indexes of bench/experiments/indexes.sql on this run's copy.
  const { readFileSync } = await import('node:fs');
  const { default: SQLite } = await import('better-sqlite3');
  const f = new SQLite(path.join(runDir, 'palaver.sqlite'));
  f.exec(readFileSync(new URL('./experiments/indexes.sql', import.meta.url), 'utf8'));
  f.close();
}
function onLog(event) {
  if (recording && event.level === 'query') recording.push({ sql: event.query.sql, params: event.query.parameters, ms: event.queryDurationMillis });
}
const h = await handle;
const app = await buildApp(config, { db: h, logger: false });
const { prepareDatabase } = await load('setup.js');
await prepareDatabase(app.ctx);
await app.ready();

// A member session through the real login route.
const cfg = await app.inject({ method: 'GET', url: '/api/config' });
const csrf = cfg.json().csrf_token;
const guestCookies = cfg.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
const res = await app.inject({ method: 'POST', url: '/login', headers: { 'x-csrf-token': csrf, cookie: guestCookies }, payload: { username: seed.usernames[0], password: seed.password } });
const sid = res.cookies.find((c) => c.name === 'palaver.sid');
if (!sid) throw new Error(`login failed: ${res.statusCode} ${res.body.slice(0, 200)}`);
const memberCookie = `palaver.sid=${sid.value}`;
// An administrator for the dashboard read, made as `palaver user create --admin` makes one.
const ADMIN = { username: 'queries-admin', password: 'Queries-Admin-Horse-42!' };
// A PostgreSQL seed is reused between runs, so the administrator may be there already (a
// failed creation shows as a failed login below).
await app.ctx.users.create({ username: ADMIN.username, email: null, password: ADMIN.password }, { admin: true }).catch(() => undefined);
const adminLogin = await app.inject({ method: 'POST', url: '/login', headers: { 'x-csrf-token': csrf, cookie: guestCookies }, payload: ADMIN });
const adminSid = adminLogin.cookies.find((c) => c.name === 'palaver.sid');
if (!adminSid) throw new Error(`admin login failed: ${adminLogin.statusCode} ${adminLogin.body.slice(0, 200)}`);
const adminCookie = `palaver.sid=${adminSid.value}`;

// The run's reads, and search as the run's common word and a phrase the seed never holds (the
// rare word's posts are written by run.mjs only, so here it stands for a search with no results).
const READS = [
  ...benchReads(seed),
  { id: 'searchCommon', path: '/api/search?term=database&in=titlesposts' },
  { id: 'searchRare', path: '/api/search?term=zyzzyva&in=titlesposts' },
];
const only = opts.only ? opts.only.split(',') : null;

const shape = (sql) => sql.replace(/\s+/g, ' ').replace(/\bin \([^)]*\)/gi, 'in (…)');
async function plan(sql, params) {
  try {
    if (h.dialect === 'sqlite') {
      const rows = h.raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params);
      return rows.map((r) => r.detail);
    }
    const r = await h.raw.query(`EXPLAIN ${sql}`, params);
    return r.rows.map((x) => x['QUERY PLAN']);
  } catch (err) {
    return [`(no plan: ${err.message})`];
  }
}
const suspicious = (line) => (/^SCAN (?!CONSTANT)/.test(line) && !/USING (COVERING )?INDEX/.test(line)) || /TEMP B-TREE/.test(line) || /Seq Scan/.test(line) || /Sort /.test(line);

const report = [];
const plans = new Map();
for (const read of READS) {
  if (only && !only.includes(read.id)) continue;
  for (const as of read.admin || read.member ? ['member'] : ['guest', 'member']) {
    const headers = as === 'member' ? { cookie: read.admin ? adminCookie : memberCookie } : {};
    await app.inject({ method: 'GET', url: read.path, headers }); // warm caches
    recording = [];
    const t0 = performance.now();
    const r = await app.inject({ method: 'GET', url: read.path, headers });
    const wall = performance.now() - t0;
    const qs = recording;
    recording = null;
    const counts = new Map();
    for (const q of qs) counts.set(shape(q.sql), (counts.get(shape(q.sql)) ?? 0) + 1);
    const repeated = [...counts].filter(([, n]) => n > 1).sort((a, b) => b[1] - a[1]);
    const entry = { id: read.id, as, path: read.path, status: r.statusCode, queries: qs.length, dbMs: qs.reduce((a, q) => a + q.ms, 0), wallMs: wall, repeated: repeated.map(([sql, n]) => ({ n, sql })) };
    report.push(entry);
    log(`\n${as.padEnd(6)} ${read.path} → ${r.statusCode}: ${qs.length} queries, ${entry.dbMs.toFixed(2)} ms in the database, ${wall.toFixed(1)} ms in all`);
    for (const { n, sql } of entry.repeated) log(`   ×${n}  ${sql.slice(0, 160)}`);
    for (const q of qs) {
      const key = shape(q.sql);
      if (plans.has(key)) continue;
      const p = await plan(q.sql, q.params);
      plans.set(key, { sql: q.sql, plan: p, ms: q.ms, flagged: p.some(suspicious) });
      if (opts.verbose) log(`   ${q.ms.toFixed(2)} ms  ${q.sql.slice(0, 200)}`);
    }
  }
}

// One reply and one new topic through /api/v3, as the write benchmark sends them.
if (!only || only.includes('writes')) {
  const writes = [
    { label: `POST /api/v3/topics/${seed.writeTids[0]} (reply)`, url: `/api/v3/topics/${seed.writeTids[0]}`, payload: { content: 'A reply of the query census, long enough to pass the rules.', _uid: seed.uids[2] } },
    { label: 'POST /api/v3/topics (new topic)', url: '/api/v3/topics', payload: { cid: seed.cids[0], title: 'Query census topic', content: 'A topic of the query census, long enough to pass the rules.', _uid: seed.uids[2] } },
  ];
  for (const w of writes) {
    const headers = { authorization: `Bearer ${seed.masterToken}`, 'content-type': 'application/json' };
    await app.inject({ method: 'POST', url: w.url, headers, payload: w.payload }); // warm
    recording = [];
    const t0 = performance.now();
    const r = await app.inject({ method: 'POST', url: w.url, headers, payload: w.payload });
    const wall = performance.now() - t0;
    const qs = recording;
    recording = null;
    const entry = { id: 'write', as: 'master', path: w.label, status: r.statusCode, queries: qs.length, dbMs: qs.reduce((a, q) => a + q.ms, 0), wallMs: wall, statements: qs.map((q) => ({ ms: q.ms, sql: q.sql })) };
    report.push(entry);
    log(`\n${w.label} → ${r.statusCode}: ${qs.length} queries, ${entry.dbMs.toFixed(2)} ms in the database, ${wall.toFixed(1)} ms in all`);
    for (const q of qs) {
      log(`   ${q.ms.toFixed(2).padStart(6)} ms  ${q.sql.replace(/\s+/g, ' ').slice(0, 170)}`);
      const key = shape(q.sql);
      if (!plans.has(key) && /^select/i.test(q.sql)) {
        const p = await plan(q.sql, q.params);
        plans.set(key, { sql: q.sql, plan: p, ms: q.ms, flagged: p.some(suspicious) });
      }
    }
  }
}

// --cost N: CPU time per request in-process (app.inject, no sockets), N requests each.
const n = Number(opts.cost);
if (n > 0) {
  log(`\nCPU per request in-process (${n} injected requests each${opts.indexes ? ', with the proposed indexes' : ''}):`);
  for (const read of READS) {
    if (only && !only.includes(read.id)) continue;
    for (const as of ['guest', 'member']) {
      const headers = as === 'member' ? { cookie: memberCookie } : {};
      for (let i = 0; i < 20; i++) await app.inject({ method: 'GET', url: read.path, headers });
      const c0 = process.cpuUsage();
      for (let i = 0; i < n; i++) await app.inject({ method: 'GET', url: read.path, headers });
      const c = process.cpuUsage(c0);
      const ms = (c.user + c.system) / 1000 / n;
      const e = report.find((r) => r.id === read.id && r.as === as);
      if (e) e.cpuMsPerReq = ms;
      log(`  ${as.padEnd(6)} ${read.id.padEnd(10)} ${ms.toFixed(3)} ms`);
    }
  }
}

log('\nStatements whose plan scans a table or sorts in a temporary b-tree:');
for (const [, p] of plans) {
  if (!p.flagged) continue;
  log(`\n  ${p.sql.replace(/\s+/g, ' ').slice(0, 400)}`);
  for (const line of p.plan) log(`     ${suspicious(line) ? '!!' : '  '} ${line}`);
}
mkdirSync(RESULTS, { recursive: true });
const file = path.join(RESULTS, `queries-${h.dialect}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, JSON.stringify({ reads: report, plans: [...plans.values()] }, null, 2));
log(`\nresults: ${file}`);
await app.close();
rmSync(runDir, { recursive: true, force: true });
