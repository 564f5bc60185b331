#!/usr/bin/env node
// `node bench/backup.mjs [--posts N] [--quick] [--db sqlite|postgres|both]`: backup and restore
// throughput (issue 55). Generates a forum of N posts (raw inserts into a migrated SQLite file:
// the generation is not what is measured), then times the production CLI of the bench's private
// build: `palaver backup` from SQLite, `palaver restore` into a fresh SQLite file and into a fresh
// PostgreSQL database, and `palaver backup` from that PostgreSQL database. Reports rows/s and
// MB/s (of the table data and of the archive), with the baseline of the same run: every row of
// every table read and turned into JSON in one process, no archive (the floor any logical backup
// stands on). Targets for 1,000,000 posts: backup under 2 minutes, restore under 5.
import { execFileSync } from 'node:child_process';
import { createReadStream, mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import Database from 'better-sqlite3';
import pg from 'pg';
import tar from 'tar-stream';
import { BUILD, ensureServerBuild } from './lib/build.mjs';
import { BENCH_SECRET, CACHE } from './lib/paths.mjs';

const { values: opts } = parseArgs({
  options: {
    posts: { type: 'string', default: '100000' },
    quick: { type: 'boolean', default: false },
    db: { type: 'string', default: 'both' },
  },
});
const POSTS = opts.quick ? 10_000 : Number(opts.posts);
const PG_BASE = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const say = (s) => process.stderr.write(`${s}\n`);
const dir = path.join(CACHE, `backup-bench-${process.pid}`);
if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

await ensureServerBuild({ log: say });
const bin = path.join(BUILD, 'dist/server/main.js');
const palaver = (env, ...args) => {
  const t = performance.now();
  const out = execFileSync(process.execPath, [bin, ...args], {
    env: { ...process.env, REDIS_URL: '', LOG_LEVEL: 'error', PALAVER_SECRET: BENCH_SECRET, ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();
  return { secs: (performance.now() - t) / 1000, out: out.trim() };
};

// ---- the forum: N posts in topics of 20, 1 member per 50 posts ----
const source = path.join(dir, 'source');
palaver(
  { PALAVER_DATA_DIR: source },
  'setup',
  '--admin-username',
  'admin',
  '--admin-email',
  'admin@example.com',
  '--admin-password',
  'Bench-Horse-Battery-42!',
);
{
  const t = performance.now();
  const db = new Database(path.join(source, 'palaver.sqlite'));
  db.pragma('journal_mode = WAL');
  const now = Date.now() - POSTS * 1000;
  const members = Math.max(10, Math.ceil(POSTS / 50));
  const topics = Math.ceil(POSTS / 20);
  // Words picked by a fixed pseudo-random sequence: text that compresses like a forum's (not a repeated line).
  const WORDS =
    'the a forum post reply topic member thread question answer because would could which their there about other people think really thanks anyone using version server backup restore database moving machine upload image photo guide problem works error update today yesterday weekend garden coffee bicycle music travel kitchen recipe weather football history science'.split(
      ' ',
    );
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const text = (n) => {
    const words = [];
    for (let i = 0, len = 30 + Math.floor(rnd() * 90); i < len; i++) words.push(WORDS[Math.floor(rnd() * WORDS.length)]);
    return `Post ${n}: ${words.join(' ')}.`;
  };
  db.transaction(() => {
    const u = db.prepare('INSERT INTO users (username, userslug, email, joindate) VALUES (?, ?, ?, ?)');
    for (let i = 0; i < members; i++) u.run(`member${i}`, `member${i}`, `member${i}@example.com`, now);
    const cid = db.prepare('SELECT min(cid) AS c FROM categories').get().c;
    const tp = db.prepare('INSERT INTO topics (tid, cid, uid, title, slug, main_pid, created, last_post_time, post_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const ps = db.prepare('INSERT INTO posts (pid, tid, uid, content, content_html, created) VALUES (?, ?, ?, ?, ?, ?)');
    let pid = 0;
    for (let t = 1; t <= topics; t++) {
      const first = pid + 1;
      tp.run(
        t,
        cid,
        2 + (t % members),
        `Topic ${t}: a discussion`,
        `${t}/topic-${t}`,
        first,
        now + first * 1000,
        now + Math.min(POSTS, first + 19) * 1000,
        Math.min(20, POSTS - pid),
      );
      for (let k = 0; k < 20 && pid < POSTS; k++) {
        pid += 1;
        const body = text(pid);
        ps.run(pid, t, 2 + (pid % members), body, `<p>${body}</p>`, now + pid * 1000);
      }
    }
  })();
  db.close();
  say(
    `bench: generated ${POSTS.toLocaleString('en')} posts, ${topics.toLocaleString('en')} topics, ${members.toLocaleString('en')} members in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
}

/** Rows and table bytes of an archive, from its manifest. */
async function manifestOf(file) {
  const extract = tar.extract();
  createReadStream(file).pipe(createGunzip()).pipe(extract);
  for await (const e of extract) {
    if (e.header.name !== 'manifest.json') {
      e.resume();
      continue;
    }
    const chunks = [];
    for await (const c of e) chunks.push(c);
    const m = JSON.parse(Buffer.concat(chunks).toString());
    extract.destroy();
    return { rows: m.tables.reduce((n, t) => n + t.rows, 0), dataBytes: m.tables.reduce((n, t) => n + t.parts.reduce((a, p) => a + p.size, 0), 0) };
  }
  throw new Error('no manifest');
}

// ---- the baseline: every row read and turned into JSON, in this process ----
let baseline;
{
  const t = performance.now();
  const db = new Database(path.join(source, 'palaver.sqlite'), { readonly: true });
  let rows = 0;
  let bytes = 0;
  for (const { name } of db.prepare("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite%'").all()) {
    for (const r of db.prepare(`SELECT * FROM "${name}"`).raw(true).iterate()) {
      bytes += JSON.stringify(r).length + 1;
      rows += 1;
    }
  }
  db.close();
  baseline = { secs: (performance.now() - t) / 1000, rows, bytes };
}

const results = [];
const record = (what, secs, archive, m) => {
  results.push({ what, secs, rowsPerSec: m.rows / secs, dataMBps: m.dataBytes / 1e6 / secs, archiveMBps: archive / 1e6 / secs, ratio: secs / baseline.secs });
  say(`bench: ${what} in ${secs.toFixed(1)} s`);
};

const archive = path.join(dir, 'sqlite.tar.gz');
const made = palaver({ PALAVER_DATA_DIR: source }, 'backup', '--out', archive);
const size = statSync(archive).size;
const m = await manifestOf(archive);
record('backup SQLite', made.secs, size, m);

if (opts.db !== 'postgres') {
  const env = { PALAVER_DATA_DIR: path.join(dir, 'restored-sqlite') };
  const r = palaver(env, 'restore', archive);
  record('restore → SQLite', r.secs, size, m);
  // The search index is not in the archive: the restore queues its rebuild (a job, after the commit), timed here as `palaver reindex`.
  record('  then search index rebuilt (SQLite)', palaver(env, 'reindex').secs, size, m);
}
if (opts.db !== 'sqlite') {
  const name = `palaver_bench_backup_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(PG_BASE);
  url.pathname = `/${name}`;
  try {
    const env = { PALAVER_DATA_DIR: path.join(dir, 'restored-pg'), DATABASE_URL: url.toString() };
    const r = palaver(env, 'restore', archive);
    record('restore → PostgreSQL', r.secs, size, m);
    record('  then search index rebuilt (PostgreSQL)', palaver(env, 'reindex').secs, size, m);
    const pgArchive = path.join(dir, 'postgres.tar.gz');
    const b = palaver(env, 'backup', '--out', pgArchive);
    record('backup PostgreSQL', b.secs, statSync(pgArchive).size, await manifestOf(pgArchive));
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

process.stdout.write(
  `\nBackup and restore, ${POSTS.toLocaleString('en')} posts (${m.rows.toLocaleString('en')} rows, ${(m.dataBytes / 1e6).toFixed(1)} MB of table data, archive ${(size / 1e6).toFixed(1)} MB)\n`,
);
process.stdout.write(
  `baseline: every row read as JSON in one process, ${baseline.secs.toFixed(2)} s (${Math.round(baseline.rows / baseline.secs).toLocaleString('en')} rows/s)\n\n`,
);
process.stdout.write('| step | seconds | rows/s | table MB/s | archive MB/s | × baseline |\n|---|---|---|---|---|---|\n');
for (const r of results) {
  process.stdout.write(
    `| ${r.what} | ${r.secs.toFixed(1)} | ${Math.round(r.rowsPerSec).toLocaleString('en')} | ${r.dataMBps.toFixed(1)} | ${r.archiveMBps.toFixed(1)} | ${r.ratio.toFixed(1)} |\n`,
  );
}
const perMillion = (s) => ((s * 1_000_000) / POSTS / 60).toFixed(1);
const b = results.find((r) => r.what === 'backup SQLite');
const worstRestore = Math.max(...results.filter((r) => r.what.startsWith('restore')).map((r) => r.secs));
const worstIndex = Math.max(0, ...results.filter((r) => r.what.includes('search index')).map((r) => r.secs));
process.stdout.write(
  `\nScaled to 1,000,000 posts (linear): backup ~${perMillion(b.secs)} min (target < 2), slowest restore ~${perMillion(worstRestore)} min (target < 5); the search index's rebuild after it ~${perMillion(worstIndex)} min more (the forum serves meanwhile).\n`,
);
if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
