#!/usr/bin/env node
// `npm run bench [-- --quick] [-- --profile topic]`: seeds (or reuses) a forum, starts it in
// production mode on loopback, loads it from a second process and compares every read with a
// bare Fastify ceiling. See bench/README.md.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { ensureServerBuild } from './lib/build.mjs';
import { BENCH_SECRET, CACHE, RESULTS, ROOT } from './lib/paths.mjs';
import { summariseProfile } from './lib/profile.mjs';
import { benchReads } from './lib/reads.mjs';
import { budgets, renderReport } from './lib/report.mjs';
import { freePort, request, rssOf, startProcess } from './lib/server.mjs';
import { postgresSeed, sqliteSeed } from './lib/seeding.mjs';
import { START_ENV } from '../scripts/start-env.mjs';

const { values: opts } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    scale: { type: 'string', default: '1' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string', default: '50' },
    only: { type: 'string' },
    'no-writes': { type: 'boolean', default: false },
    'no-live': { type: 'boolean', default: false },
    sockets: { type: 'string', default: '1000' },
    profile: { type: 'string' },
    experiment: { type: 'string' },
    'server-node-args': { type: 'string' },
    'server-env': { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    'guest-cache-off': { type: 'boolean', default: false },
    'mixed-rate': { type: 'string', default: '1000' },
    'mixed-writes': { type: 'string', default: '20' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (opts.help) {
  process.stdout.write(`Usage: npm run bench -- [--quick] [--only topic,recent] [--profile [member:]<read id>] [--no-writes] [--no-live]
  --quick            1 s warm-up + 3 s per load (default 5 s + 20 s)
  --duration N       seconds measured per load;  --warmup N  seconds of warm-up
  --connections N    read connections (default 50)
  --only a,b         only these parts (reads: categories category recent popularMonth topic topicBig topicHtml home dashboard unread notifications chats chatRoom profile userPosts tags users; search; mixed; live; chat; upload; writes; notify; widgets; languages)
  --mixed-rate N     the mixed load's reads per second (default 1000), spread over 40 guests and 8 members
  --mixed-writes N   the mixed load's writes per second (default 20), from 2 writers
  --profile [member:]ID  run the server with --cpu-prof during read ID only (as a guest unless
                     prefixed with member:), print the hottest functions
  --no-build         reuse the last private build as it is (compare runs on one snapshot of src/)
  --guest-cache-off  run the forum with PALAVER_GUEST_CACHE_MS=0: guests' reads are built for
                     each request, as a member's are (issue 18 budgets guests without the cache)
  --scale F          seed F × the full shape (smoke tests of the bench itself)
  --server-node-args "…"  extra node options for the forum process (V8 heap flags, say)
  --server-env "K=V …"    extra environment of the forum process (MALLOC_ARENA_MAX=2, say)
  --experiment a,b   measure a proposed fix without editing src/: stmt-cache (cache prepared
                     statements), indexes (bench/experiments/indexes.sql on the run's SQLite copy),
                     admission (at most PALAVER_BENCH_ADMISSION requests in the server at once)
  DATABASE_URL=postgres://… runs against that (fresh, empty) PostgreSQL database.
`);
  process.exit(0);
}

const quick = opts.quick;
const settings = {
  connections: Number(opts.connections),
  warmupSec: Number(opts.warmup ?? (quick ? 1 : 5)),
  durationSec: Number(opts.duration ?? (quick ? 3 : 20)),
  writeWarmupSec: quick ? 1 : 2,
  writeDurationSec: Number(opts.duration ?? (quick ? 3 : 20)),
  liveReplies: quick ? 20 : 100,
};
const log = (s) => process.stderr.write(`${s}\n`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const pgUrl = process.env.DATABASE_URL || null;
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const runDir = path.join(CACHE, `run-${process.pid}`);
mkdirSync(RESULTS, { recursive: true });
const serverLog = path.join(RESULTS, `server-${stamp}.log`);

/** Runs a bench child script and parses the JSON line it prints. */
function child(script, spec) {
  const out = execFileSync(process.execPath, [path.join(ROOT, 'bench', script), JSON.stringify(spec)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(out.toString().trim().split('\n').pop());
}

// --no-build: reuse bench/.cache/build as it is (e.g. to compare runs of one snapshot of src/).
const main = opts['no-build'] ? path.join(ROOT, 'bench/.cache/build/dist/server/main.js') : await ensureServerBuild({ log });
// The environment `npm start` gives the server (scripts/start-env.mjs: two malloc arenas), for
// every process the bench starts; `--server-env` overrides it for the forum.
const baseEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  ...START_ENV,
  NODE_ENV: 'production',
  PALAVER_SECRET: BENCH_SECRET,
  // High limits: the benchmark measures throughput, not the limiter's refusals.
  PALAVER_RATE_LOGIN: '1000000',
  PALAVER_RATE_REGISTER: '1000000',
  PALAVER_RATE_POSTS: '1000000000',
  PALAVER_CONFIG: path.join(runDir, 'no-config.json'),
  ...(opts['guest-cache-off'] ? { PALAVER_GUEST_CACHE_MS: '0' } : {}),
};

const seed = pgUrl
  ? await postgresSeed({ url: pgUrl, scale: Number(opts.scale), baseEnv, log })
  : sqliteSeed({ scale: Number(opts.scale), runDir, baseEnv, log });
const dialect = pgUrl ? 'postgres' : 'sqlite';
const experiments = opts.experiment ? opts.experiment.split(',') : [];
const experimentArgs = ['stmt-cache', 'admission']
  .filter((name) => experiments.includes(name))
  .flatMap((name) => ['--import', pathToFileURL(path.join(ROOT, `bench/experiments/${name}.mjs`)).href]);
if (experiments.includes('indexes')) {
  const sqlText = readFileSync(path.join(ROOT, 'bench/experiments/indexes.sql'), 'utf8');
  if (pgUrl) throw new Error('--experiment indexes is for SQLite runs');
  const { default: SQLite } = await import('better-sqlite3');
  const file = new SQLite(path.join(runDir, 'palaver.sqlite'));
  file.exec(sqlText);
  file.close();
}

const results = {
  startedAt: new Date().toISOString(),
  dialect,
  quick,
  experiments,
  guestCache: opts['guest-cache-off'] ? 'off' : 'on',
  machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? '?', node: process.version, memGB: Math.round(os.totalmem() / 2 ** 30) },
  settings,
  seed: { key: seed.key, cached: seed.cached, shape: seed.shape, posts: seed.posts, seedMs: seed.seedMs, perPostMs: seed.perPostMs },
  startup: null,
  memory: {},
  ceiling: null,
  reads: [],
  writes: [],
  live: null,
};

// Every forum process carries the event-loop probe (bench/lib/loop-probe.mjs); each read's
// load signals it and reports what the server's loop did in the measured window.
mkdirSync(runDir, { recursive: true });
const loopFile = path.join(runDir, 'loop.json');
const serverNodeArgs = opts['server-node-args'] ? opts['server-node-args'].split(/\s+/).filter(Boolean) : [];
results.serverNodeArgs = serverNodeArgs;
// Variables the C library reads when the process starts (glibc's MALLOC_ARENA_MAX) cannot be
// set from inside it: they come with the spawn, as an operator's unit file would give them.
const serverEnv = Object.fromEntries(
  (opts['server-env'] ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((kv) => {
      const i = kv.indexOf('=');
      if (i < 1) throw new Error(`--server-env: expected NAME=value, got "${kv}"`);
      return [kv.slice(0, i), kv.slice(i + 1)];
    }),
);
results.serverEnv = serverEnv;
results.startEnv = START_ENV;
const loopProbe = ['--import', pathToFileURL(path.join(ROOT, 'bench/lib/loop-probe.mjs')).href];
async function startForum(extraNodeArgs = []) {
  const port = await freePort();
  rmSync(loopFile, { force: true });
  const env = {
    ...baseEnv,
    ...serverEnv,
    PALAVER_BENCH_LOOP_FILE: loopFile,
    PORT: String(port),
    HOST: '127.0.0.1',
    PALAVER_URL: `http://127.0.0.1:${port}`,
    ...(pgUrl ? { DATABASE_URL: pgUrl } : { PALAVER_DATA_DIR: runDir }),
  };
  return startProcess({ script: main, args: ['start'], nodeArgs: [...loopProbe, ...serverNodeArgs, ...experimentArgs, ...extraNodeArgs], env, port, probePath: '/', logFile: serverLog, name: 'palaver' });
}

// An administrator for the dashboard read (issue 16 §3), made through the CLI as an operator
// would; on a reused PostgreSQL database it already exists and the CLI refusal is ignored.
const ADMIN = { username: 'bench-admin', password: 'Bench-Admin-Horse-42!' };
try {
  execFileSync(process.execPath, [main, 'user', 'create', '--username', ADMIN.username, '--password', ADMIN.password, '--admin'], {
    env: { ...baseEnv, ...(pgUrl ? { DATABASE_URL: pgUrl } : { PALAVER_DATA_DIR: runDir }) },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
} catch {
  // already there
}

// --- start-up: time from spawn to the first 200 on the home page, on the seeded database ---
const startupSamples = [];
for (let i = 0; i < (quick ? 0 : 2); i++) {
  const s = await startForum();
  startupSamples.push(s.startupMs);
  await s.stop();
}
const profileDir = path.join(RESULTS, `prof-${stamp}`);
let forum = await startForum(opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
startupSamples.push(forum.startupMs);
results.startup = { probe: 'GET /', samplesMs: startupSamples.map(Math.round), medianMs: Math.round(median(startupSamples)) };
log(`bench: palaver (${dialect}) answered 200 after ${Math.round(forum.startupMs)} ms; pid ${forum.pid}`);
await new Promise((r) => setTimeout(r, 2000));
results.memory.rss2s = forum.rss();
// The memory mode the forum runs in (PALAVER_MEMORY; `auto` depends on the machine), from its
// "Palaver is listening" log line: every memory and CPU figure depends on it.
results.memory.mode = /"memory":"(\w+)"/.exec(forum.tail())?.[1] ?? null;
// Idle RSS: what the idle server holds once V8's memory reducer has returned the start-up
// garbage (module compilation, schema compilation). The reducer starts that collection only
// once its allocation-rate estimate, sampled every 8 s, has fallen low: on a 2-core machine
// that starts in ~2 s, 30 s after start-up on an empty forum (--trace-gc: "Mark-Compact
// (reduce)" at 32.5 s, heap 80 → 52 MB, RSS 122 MB) and 45–50 s after the first 200 on the
// seeded one, past the 30 s this waited until 2026-11-28.
// Sampled each second for up to 60 s; the settled value is the lowest once three samples in a
// row agree within 1 MB after it fell.
{
  const samples = [results.memory.rss2s];
  for (let i = 0; i < 60; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    samples.push(forum.rss());
    const last = samples.slice(-3);
    if (samples.length > 3 && Math.min(...samples) < results.memory.rss2s * 0.95 && Math.max(...last) - Math.min(...last) < 1048576) break;
  }
  results.memory.idleRss = Math.min(...samples);
  results.memory.idleRssSamples = samples;
  results.memory.idleSettledSec = samples.length + 1;
  log(`bench: RSS 2 s after the first 200 ${(results.memory.rss2s / 1048576).toFixed(1)} MB; idle ${(results.memory.idleRss / 1048576).toFixed(1)} MB after ${results.memory.idleSettledSec} s`);
}

// --- a member session (login over HTTP, as the browser does) ---
async function login(base, username, password) {
  const cfg = await request(`${base}/api/config`);
  const csrf = JSON.parse(cfg.body).csrf_token;
  const cookies = (cfg.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
  const res = await request(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrf, cookie: cookies.join('; ') },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.body.slice(0, 200)}`);
  const sid = (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).find((c) => c.startsWith('palaver.sid='));
  if (!sid) throw new Error('login answered 200 without a palaver.sid cookie');
  return sid;
}
const memberCookie = await login(forum.base, seed.usernames[0], seed.password);
const adminCookie = await login(forum.base, ADMIN.username, ADMIN.password).catch((err) => {
  log(`bench: admin login failed (${err.message}); the dashboard read is skipped`);
  return null;
});

// --- the reads ---
const READS = benchReads(seed);
// Search (issue 15): a common word of the seed (in about half its posts), a rare word and a
// Chinese-Japanese phrase, both written into a few extra posts before the reads.
const SEARCHES = [
  { id: 'searchCommon', label: '/api/search: a common word', path: '/api/search?term=database&in=titlesposts' },
  { id: 'searchRare', label: '/api/search: a rare word', path: '/api/search?term=zyzzyva&in=titlesposts' },
  { id: 'searchCjk', label: '/api/search: a CJK phrase', path: `/api/search?term=${encodeURIComponent('東京タワー')}&in=titlesposts` },
];
const wantSearch = opts.profile ? /search/.test(opts.profile) : !opts.only || opts.only.split(',').some((o) => o === 'search' || o.startsWith('search'));
if (wantSearch) {
  const texts = ['東京タワーに行ったことがありますか？夜景がとてもきれいです。', 'The zyzzyva is a weevil; this post is the rare word of the benchmark.', '北京大学の図書館と東京タワーの写真を比べました。'];
  for (let i = 0; i < 12; i++) {
    const res = await request(`${forum.base}/api/v3/topics`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seed.masterToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ cid: seed.cids[i % seed.cids.length], title: `Search sample ${i + 1}`, content: texts[i % texts.length], _uid: seed.uids[i % seed.uids.length] }),
    });
    if (res.status !== 200) throw new Error(`search sample post failed: ${res.status} ${res.body.slice(0, 200)}`);
  }
  READS.push(...SEARCHES);
}
// --profile [guest:|member:]id
const profileAs = opts.profile?.includes(':') ? opts.profile.split(':')[0] : 'guest';
const profileRead = opts.profile?.split(':').pop();
const only = opts.profile ? [profileRead] : opts.only ? opts.only.split(',').flatMap((o) => (o === 'search' ? SEARCHES.map((x) => x.id) : [o])) : null;

/** One line on the server's event loop in a read's window (bench/lib/loop-probe.mjs). */
function loopSummary(l) {
  const gcs = Object.entries(l.gc).map(([k, g]) => `${k} ${g.count}× max ${g.maxMs.toFixed(1)} ms`).join(', ');
  const m = l.memory ?? {};
  return `loop delay p50 ${l.delay.p50} p99 ${l.delay.p99} max ${l.delay.max} ms, busy ${Math.round(l.elu * 100)}%, GC ${gcs || 'none'}; RSS ${m.rss} MB (heap ${m.heapUsed}/${m.heapTotal}, external ${m.external})`;
}

/** Checks a read answers 200 with the page (not a redirect or an error) for this viewer. */
const cookieFor = (read, as) => (as !== 'member' ? null : read.admin ? adminCookie : memberCookie);
async function probe(read, as) {
  if (read.admin && as === 'guest') return { skipped: 'admins only' };
  if (read.member && as === 'guest') return { skipped: 'members only' };
  if (read.admin && !adminCookie) return { skipped: 'no admin session' };
  const res = await request(forum.base + read.path, { headers: cookieFor(read, as) ? { cookie: cookieFor(read, as) } : {} });
  if (res.status !== 200) return { skipped: `answers ${res.status}${res.headers.location ? ` → ${res.headers.location}` : ''} (route not there yet?)` };
  if (res.headers['x-redirect']) return { skipped: `redirects to ${res.headers['x-redirect']}` };
  const loggedIn = /"loggedIn":true/.test(res.body);
  if (as === 'member' && !loggedIn) return { skipped: 'the member cookie was not honoured' };
  if (as === 'guest' && loggedIn) return { skipped: 'a guest read came back logged in' };
  return { bytes: Buffer.byteLength(res.body) };
}

// --- the ceiling: bare Fastify answering a JSON body the size of the topic page ---
const topicProbe = await probe(READS.find((r) => r.id === 'topic'), 'guest');
const ceilingBytes = topicProbe.bytes ?? 20_000;
const ceilingPort = await freePort();
const ceiling = await startProcess({ script: path.join(ROOT, 'bench/ceiling.mjs'), args: [String(ceilingBytes)], env: { ...baseEnv, PORT: String(ceilingPort) }, port: ceilingPort, probePath: '/', name: 'ceiling' });
log(`bench: ceiling (bare Fastify, ${ceilingBytes} B JSON${topicProbe.bytes ? ', the size of the topic page' : ', a guess: the topic page is missing'})`);
/** Loads the ceiling once; it is measured before and after the reads, and the mean is the reference. */
function measureCeiling(when) {
  const r = child('load.mjs', { url: `${ceiling.base}/`, cpuPid: ceiling.pid, connections: settings.connections, warmupSec: settings.warmupSec, durationSec: settings.durationSec });
  log(`  ceiling (${when}): ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.cpuMsPerReq?.toFixed(3)} CPU ms/req`);
  return r;
}
const ceilingRuns = [measureCeiling('before the reads')];
results.ceiling = { ...ceilingRuns[0], bytes: ceilingBytes };

for (const read of READS) {
  for (const as of ['guest', 'member']) {
    if (only && !only.includes(read.id)) continue;
    if (opts.profile && as !== profileAs) continue;
    const entry = { id: read.id, label: read.label, path: read.path, as };
    const p = await probe(read, as);
    if (p.skipped) {
      results.reads.push({ ...entry, skipped: p.skipped });
      log(`  ${as} ${read.path}: skipped (${p.skipped})`);
      continue;
    }
    const r = child('load.mjs', {
      url: forum.base + read.path,
      cpuPid: forum.pid,
      headers: cookieFor(read, as) ? { cookie: cookieFor(read, as) } : {},
      connections: settings.connections,
      warmupSec: settings.warmupSec,
      durationSec: settings.durationSec,
      loopFile,
      dbCpu: Boolean(pgUrl),
    });
    results.reads.push({ ...entry, ...r });
    log(`  ${as} ${read.path}: ${Math.round(r.rps)} req/s (${((r.rps / ceilingRuns[0].rps) * 100).toFixed(0)}% of the first ceiling), p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.cpuMsPerReq?.toFixed(3)} CPU ms/req, server ${Math.round(r.serverCpuPct)}% / load ${Math.round(r.loadCpuPct)}%${r.dbCpuPct != null ? ` / PostgreSQL ${Math.round(r.dbCpuPct)}%` : ''} of a core${r.non2xx ? `, ${r.non2xx} non-2xx` : ''}${r.loop ? `; ${loopSummary(r.loop)}` : ''}`);
  }
}
ceilingRuns.push(measureCeiling('after the reads'));
await ceiling.stop();
{
  const mean = (k) => ceilingRuns.reduce((a, r) => a + r[k], 0) / ceilingRuns.length;
  results.ceiling = { ...ceilingRuns[0], rps: mean('rps'), p50: mean('p50'), p99: mean('p99'), cpuMsPerReq: mean('cpuMsPerReq'), bytes: ceilingBytes, runs: ceilingRuns };
  for (const r of results.reads) {
    if (r.skipped) continue;
    r.fraction = r.rps / results.ceiling.rps;
    r.cpuFraction = r.cpuMsPerReq > 0 && r.requests > 0 ? results.ceiling.cpuMsPerReq / r.cpuMsPerReq : null;
  }
}
results.memory.afterReadsRss = forum.rss();

// --- widgets (issue 16 §7): a public page with three widgets vs none, in the same run ---
// As a member (a guest's page would come from the guest cache either way). The widgets'
// HTML is cached per template and group set, so the page should cost about the same.
if (forum && !opts.profile && adminCookie && (!only || only.includes('widgets'))) {
  const load = () =>
    child('load.mjs', { url: `${forum.base}/api/categories`, cpuPid: forum.pid, headers: { cookie: memberCookie }, connections: settings.connections, warmupSec: settings.warmupSec, durationSec: settings.durationSec });
  const setWidgets = async (widgets) => {
    const cfg = await request(`${forum.base}/api/config`, { headers: { cookie: adminCookie } });
    const csrf = JSON.parse(cfg.body).csrf_token;
    const res = await request(`${forum.base}/api/v3/admin/widgets`, {
      method: 'PUT',
      headers: { cookie: adminCookie, 'x-csrf-token': csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ template: 'global', areas: { sidebar: widgets } }),
    });
    if (res.status !== 200) throw new Error(`widgets save failed: ${res.status} ${res.body.slice(0, 200)}`);
  };
  try {
    // A first load warms the server up; then without, with, and without again (the mean of the two is the reference).
    load();
    const without1 = load();
    await setWidgets([
      { type: 'recenttopics', title: 'Recent', count: 5 },
      { type: 'populartags', title: 'Tags', count: 10 },
      { type: 'html', title: 'About', text: '<p>Welcome to the <strong>bench</strong> forum.</p>' },
    ]);
    const withWidgets = load();
    await setWidgets([]);
    const without2 = load();
    const rps = (without1.rps + without2.rps) / 2;
    const cpu = (without1.cpuMsPerReq + without2.cpuMsPerReq) / 2;
    results.widgets = { path: '/api/categories', as: 'member', widgets: 3, without: [without1, without2], with: withWidgets, ratio: withWidgets.rps / rps, cpuRatio: withWidgets.cpuMsPerReq / cpu };
    log(`  widgets: member /api/categories ${Math.round(without1.rps)} and ${Math.round(without2.rps)} req/s without, ${Math.round(withWidgets.rps)} req/s with three widgets (req/s ratio ${results.widgets.ratio.toFixed(3)}, CPU ms/req ratio ${results.widgets.cpuRatio.toFixed(3)})`);
  } catch (err) {
    results.widgets = { skipped: `failed: ${String(err.message).split('\n')[0]}` };
    log(`bench: widgets failed — ${err.message}`);
  }
}

// --- languages (issue 56): the topic page (server render) in Arabic against en-GB, in the same run ---
// As the member (a guest's page may come from the guest cache): their language is their
// setting, so the same request renders en-GB, then ar (right to left, six plural forms), then
// en-GB again; the mean of the two en-GB loads is the reference.
if (forum && !opts.profile && (!only || only.includes('languages'))) {
  const read = READS.find((r) => r.id === 'topicHtml');
  const load = () => child('load.mjs', { url: forum.base + read.path, cpuPid: forum.pid, headers: { cookie: memberCookie }, connections: settings.connections, warmupSec: settings.warmupSec, durationSec: settings.durationSec });
  const setLanguage = async (userLang) => {
    const cfg = await request(`${forum.base}/api/config`, { headers: { cookie: memberCookie } });
    const csrf = JSON.parse(cfg.body).csrf_token;
    // The member the reads log in as is the seed's first.
    const res = await request(`${forum.base}/api/v3/users/${seed.uids[0]}/settings`, {
      method: 'PUT',
      headers: { cookie: memberCookie, 'x-csrf-token': csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ settings: { userLang } }),
    });
    if (res.status !== 200) throw new Error(`language save failed: ${res.status} ${res.body.slice(0, 200)}`);
    const page = await request(forum.base + read.path, { headers: { cookie: memberCookie } });
    if (!page.body.includes(`<html lang="${userLang}"`)) throw new Error(`the topic page did not come back in ${userLang}`);
  };
  try {
    await setLanguage('en-GB');
    load(); // warm-up
    const en1 = load();
    await setLanguage('ar');
    const ar = load();
    await setLanguage('en-GB');
    const en2 = load();
    const cpu = (en1.cpuMsPerReq + en2.cpuMsPerReq) / 2;
    results.languages = { path: read.path, as: 'member', en: [en1, en2], ar, cpuRatio: ar.cpuMsPerReq / cpu, rpsRatio: ar.rps / ((en1.rps + en2.rps) / 2) };
    log(`  languages: member topic HTML ${en1.cpuMsPerReq.toFixed(3)} and ${en2.cpuMsPerReq.toFixed(3)} CPU ms/req in en-GB, ${ar.cpuMsPerReq.toFixed(3)} in ar (CPU ms/req ratio ar/en-GB ${results.languages.cpuRatio.toFixed(3)}, req/s ratio ${results.languages.rpsRatio.toFixed(3)})`);
  } catch (err) {
    results.languages = { skipped: `failed: ${String(err.message).split('\n')[0]}` };
    log(`bench: languages failed — ${err.message}`);
  }
}

if (opts.profile && profileRead !== 'chat' && profileRead !== 'mixed') {
  await forum.stop();
  results.profile = summariseProfile(profileDir);
  log(`\nCPU profile of the server during ${opts.profile} (self time, top functions) — ${profileDir}`);
  for (const f of results.profile.top) log(`  ${f.pct.toFixed(1).padStart(5)}%  ${f.name}  ${f.where}`);
  forum = null;
}

// --- mixed: guests and members reading at a set pace while writers post (bench/mixed.mjs) ---
if (forum && (!only || only.includes('mixed'))) {
  try {
    results.mixed = child('mixed.mjs', {
      base: forum.base,
      serverPid: forum.pid,
      loopFile,
      dbCpu: Boolean(pgUrl),
      rate: Number(opts['mixed-rate']),
      writeRate: Number(opts['mixed-writes']),
      guests: 40,
      members: 8,
      warmupSec: quick ? 3 : 10,
      durationSec: quick ? 10 : 60,
      usernames: seed.usernames,
      password: seed.password,
      token: seed.masterToken,
      uids: seed.uids,
      tids: seed.tids,
      writeTids: seed.writeTids,
      slugs: seed.slugs,
      cids: seed.cids,
      categorySlugs: seed.categorySlugs,
      chatRoom: seed.chatRoom,
      chatUids: seed.uids.slice(0, 5),
    });
    const m = results.mixed;
    log(`  mixed: ${Math.round(m.readsPerSec)} reads/s of ${m.target.readsPerSec} and ${m.writesPerSec.toFixed(1)} writes/s of ${m.target.writesPerSec}; reads p50 ${m.p50} ms, p99 ${m.p99} ms (guests ${m.guest.p99}, members ${m.member.p99}); writes p50 ${m.write.p50} ms, p99 ${m.write.p99} ms${m.write.failed ? `, ${m.write.failed} failed` : ''}${m.non2xx ? `, ${m.non2xx} non-2xx reads` : ''}; ${m.cpuMsPerReq?.toFixed(3)} CPU ms/req, server ${Math.round(m.serverCpuPct)}% / load ${Math.round(m.loadCpuPct)}%${m.dbCpuPct != null ? ` / PostgreSQL ${Math.round(m.dbCpuPct)}%` : ''}; peak RSS ${(m.peakRss / 1048576).toFixed(0)} MB${m.loop ? `; ${loopSummary(m.loop)}` : ''}`);
  } catch (err) {
    results.mixed = { skipped: `failed: ${String(err.message).split('\n')[0]}` };
    log(`bench: mixed failed — ${err.message}`);
  }
}
// --profile mixed: the server ran with --cpu-prof through the mixed load (log-ins and warm-up included).
if (forum && opts.profile && profileRead === 'mixed') {
  await forum.stop();
  results.profile = summariseProfile(profileDir);
  log(`\nCPU profile of the server during the mixed load (self time, top functions) — ${profileDir}`);
  for (const f of results.profile.top) log(`  ${f.pct.toFixed(1).padStart(5)}%  ${f.name}  ${f.where}`);
  forum = null;
}

// --- live: 1,000 sockets in one topic room ---
if (forum && !opts['no-live'] && (!only || only.includes('live'))) {
  const handshake = await request(`${forum.base}/socket.io/?EIO=4&transport=polling`).catch((e) => ({ status: String(e.message) }));
  if (handshake.status !== 200) {
    results.live = { skipped: `realtime is not registered (GET /socket.io/ answers ${handshake.status})` };
    log(`bench: live skipped — ${results.live.skipped}`);
  } else {
    try {
      results.live = child('live.mjs', {
        base: forum.base,
        serverPid: forum.pid,
        tid: seed.writeTids[seed.writeTids.length - 1],
        sockets: Number(opts.sockets),
        replies: settings.liveReplies,
        token: seed.masterToken,
        uid: seed.uids[1],
        usernames: seed.usernames,
        password: seed.password,
      });
      log(`  live: p50 ${results.live.p50?.toFixed(1)} ms, p99 ${results.live.p99?.toFixed(1)} ms, ${(results.live.bytesPerSocket / 1024).toFixed(1)} KiB per socket`);
    } catch (err) {
      results.live = { skipped: `failed: ${String(err.message).split('\n')[0]}` };
      log(`bench: live failed — ${err.message}`);
    }
  }
}

// --- chat: one room of 200 members online, 10 of them sending (bench/chat.mjs) ---
if (forum && !opts['no-live'] && (!only || only.includes('chat'))) {
  try {
    results.chat = child('chat.mjs', { base: forum.base, token: seed.masterToken, uids: seed.uids, usernames: seed.usernames, password: seed.password, members: 200, senders: 10, messages: quick ? 20 : 200, warmup: quick ? 5 : 30, serverPid: forum.pid });
    const c = results.chat;
    log(`  chat: ${c.members} members, ${c.senders} senders: ${c.perSec.toFixed(0)} messages/s, ${c.cpuMsPerMessage?.toFixed(2)} server CPU ms/message, to the last member's socket p50 ${c.p50?.toFixed(1)} ms, p99 ${c.p99?.toFixed(1)} ms (POST answered p50 ${c.postP50?.toFixed(1)} ms, first member's copy p50 ${c.firstP50?.toFixed(1)} ms)${c.missedDeliveries ? `, ${c.missedDeliveries} missed` : ''}`);
  } catch (err) {
    results.chat = { skipped: `failed: ${String(err.message).split('\n')[0]}` };
    log(`bench: chat failed — ${err.message}`);
  }
}
// --profile chat: the server ran with --cpu-prof through the chat part (log-ins and room set-up included).
if (forum && opts.profile && profileRead === 'chat') {
  await forum.stop();
  results.profile = summariseProfile(profileDir);
  log(`\nCPU profile of the server during chat (self time, top functions) — ${profileDir}`);
  for (const f of results.profile.top) log(`  ${f.pct.toFixed(1).padStart(5)}%  ${f.name}  ${f.where}`);
  forum = null;
}

// --- uploads: a 2 MB JPEG through POST /api/post/upload, 4 clients (bench/upload.mjs) ---
if (forum && (!only || only.includes('upload'))) {
  try {
    results.upload = child('upload.mjs', { base: forum.base, pid: forum.pid, usernames: seed.usernames, password: seed.password, clients: 4, durationSec: quick ? 5 : 20 });
    const u = results.upload;
    log(`  upload: ${(u.bytes / 1e6).toFixed(2)} MB JPEG, ${u.clients} clients: ${u.perSec.toFixed(1)} uploads/s, p50 ${u.p50?.toFixed(0)} ms, p99 ${u.p99?.toFixed(0)} ms, server peak RSS ${(u.peakRss / 1048576).toFixed(0)} MB (${(u.rssBefore / 1048576).toFixed(0)} MB before)${u.failed ? `, ${u.failed} failed` : ''}`);
  } catch (err) {
    results.upload = { skipped: `failed: ${String(err.message).split('\n')[0]}` };
    log(`bench: upload failed — ${err.message}`);
  }
}

// --- writes through /api/v3 with a master token acting as rotating members ---
if (forum && !opts['no-writes'] && (!only || only.includes('writes'))) {
  const write = { token: seed.masterToken, uids: seed.uids, tids: seed.writeTids.slice(0, -1), cids: seed.cids, names: seed.usernames };
  // reply-rich: every reply mentions a member and carries emoji (mentions and emoji plugins).
  for (const kind of ['reply', 'reply-rich', 'topic']) {
    for (const connections of [1, 10]) {
      const what = { reply: 'replies', 'reply-rich': 'replies with @mention + emoji', topic: 'new topics' }[kind];
      const label = `${what}, ${connections} client${connections > 1 ? 's' : ''}`;
      const r = child('load.mjs', {
        url: `${forum.base}/`,
        cpuPid: forum.pid,
        write: { kind, ...write },
        connections,
        warmupSec: settings.writeWarmupSec,
        durationSec: settings.writeDurationSec,
      });
      results.writes.push({ id: kind, label, ...r });
      log(`  ${label}: ${Math.round(r.rps)}/s, p50 ${r.p50} ms, p99 ${r.p99} ms${r.non2xx ? `, ${r.non2xx} non-2xx` : ''}`);
    }
  }
  results.memory.afterWritesRss = forum.rss();
}

// --- search without its result cache: one client asking a different page each time ---
if (forum && wantSearch) {
  const uncached = {};
  for (const q of SEARCHES) {
    const times = [];
    for (let page = 1; page <= (quick ? 20 : 100); page++) {
      const t0 = performance.now();
      const res = await request(`${forum.base}${q.path}&page=${page}`, { headers: { cookie: memberCookie } });
      // Past the last page answers 200 with no posts (the count still runs): still a search.
      if (res.status !== 200) throw new Error(`search ${q.id} page ${page}: ${res.status}`);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    uncached[q.id] = { label: q.label, n: times.length, p50: times[Math.floor(times.length / 2)], p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] };
    log(`  ${q.label}, uncached (1 client, a new page each time): p50 ${uncached[q.id].p50.toFixed(1)} ms, p99 ${uncached[q.id].p99.toFixed(1)} ms`);
  }
  results.search = { uncached };
}

if (forum) await forum.stop();
// --- search: the index build time for the whole seed (palaver reindex, the server stopped) ---
if (wantSearch && results.search) {
  const env = { ...baseEnv, ...(pgUrl ? { DATABASE_URL: pgUrl } : { PALAVER_DATA_DIR: runDir }) };
  const t0 = performance.now();
  const out = execFileSync(process.execPath, [main, 'reindex'], { env, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  results.search.reindex = { ms: performance.now() - t0, posts: Number(/Indexed (\d+)/.exec(out)?.[1] ?? 0) };
  log(`  search index build (palaver reindex): ${results.search.reindex.posts} posts in ${(results.search.reindex.ms / 1000).toFixed(1)} s`);
}
rmSync(runDir, { recursive: true, force: true });

// --- notification fan-out: replies in a topic 1,000 members watch (bench/notify.mjs, in-process, on its own SQLite database) ---
if (!opts.profile && (!only || only.includes('notify'))) {
  try {
    results.notify = child('notify.mjs', { watchers: 1000, replies: quick ? 20 : 100 });
    const n = results.notify;
    log(`  notify: reply + fan-out to ${n.watchers} watchers p50 ${n.fanout.p50.toFixed(1)} ms, p99 ${n.fanout.p99.toFixed(1)} ms, ${n.fanout.perSec.toFixed(0)}/s; no watchers ${n.none.perSec.toFixed(0)}/s; ${n.perWatcherUs.toFixed(1)} µs per watcher`);
  } catch (err) {
    results.notify = { skipped: `failed: ${String(err.message).split('\n')[0]}` };
    log(`bench: notify failed — ${err.message}`);
  }
}

// --- NodeBB import: posts/s of `palaver import nodebb` from a generated NodeBB forum in Redis into this run's database (bench/import.mjs) ---
if (!opts.profile && only?.includes('import')) {
  try {
    results.import = child('import.mjs', { posts: quick ? 20_000 : 1_000_000, db: dialect });
    const r = results.import[dialect];
    log(`  import: ${results.import.posts} NodeBB posts into ${dialect} at ${r.postsPerSec} posts/s, peak ${r.peakMB} MB`);
  } catch (err) {
    results.import = { skipped: `failed: ${String(err.message).split('\n')[0]}` };
    log(`bench: import failed — ${err.message}`);
  }
}

results.budgets = budgets(results);
const file = path.join(RESULTS, `bench-${dialect}${quick ? '-quick' : ''}${opts['guest-cache-off'] ? '-no-guest-cache' : ''}${experiments.length ? `-${experiments.join('+')}` : ''}-${stamp}.json`);
writeFileSync(file, JSON.stringify(results, null, 2));
process.stdout.write(`\n${renderReport(results)}\n\nresults: ${path.relative(ROOT, file)}\nserver log: ${path.relative(ROOT, serverLog)}\n`);
void rssOf;
