// Notification fan-out: a reply in a topic watched by N members (default 1,000). Builds the
// app in this process on a fresh SQLite database in bench/.cache, makes N watchers (rows
// written directly: N argon2 hashes would take minutes),
// then posts replies one at a time through the posts service and times each until every
// listener has run: the N notifications stored (merged), the live events emitted to the N
// readers' rooms, the mail claims and the push hook. The same replies in a topic nobody
// watches give the base cost; the difference over N is the cost per watcher.
//   node bench/notify.mjs '<json spec>'   → one JSON result line on stdout
// spec: { watchers = 1000, replies = 50 }
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureServerBuild, serverModule } from './lib/build.mjs';
import { BENCH_SECRET, CACHE } from './lib/paths.mjs';

const spec = JSON.parse(process.argv[2] ?? '{}');
const WATCHERS = spec.watchers ?? 1000;
const REPLIES = spec.replies ?? 50;
const log = (s) => process.stderr.write(`notify: ${s}\n`);
await ensureServerBuild({ log });
const load = async (rel) => import(pathToFileURL(serverModule(rel)).href);
const { loadConfig } = await load('config.js');
const { buildApp } = await load('app.js');
const { prepareDatabase, SYSTEM } = await load('setup.js');

const runDir = path.join(CACHE, `notify-${process.pid}`);
rmSync(runDir, { recursive: true, force: true });
mkdirSync(runDir, { recursive: true });
// SQLite (the 500 replies/s budget is stated for it), whatever DATABASE_URL says.
const config = loadConfig(
  { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', PALAVER_SECRET: BENCH_SECRET, LOG_LEVEL: 'warn', PALAVER_CONFIG: path.join(runDir, 'none.json'), PALAVER_DATA_DIR: runDir },
  runDir,
);
const app = await buildApp(config, { logger: false });
await prepareDatabase(app.ctx);
await app.ready();
const ctx = app.ctx;
await ctx.settings.set({ postDelay: 0, newbiePostDelay: 0 });

const { uid: authorUid } = await ctx.users.create({ username: 'fanout-author', password: 'Bench-Horse-Battery-42!' });
const { uid: replierUid } = await ctx.users.create({ username: 'fanout-replier', password: 'Bench-Horse-Battery-42!' });
const now = Date.now();
const rows = Array.from({ length: WATCHERS }, (_, i) => ({ username: `watcher${i}`, userslug: `watcher${i}`, email: `watcher${i}@example.com`, email_confirmed: 1, password_hash: null, joindate: now }));
const uids = [];
for (let i = 0; i < rows.length; i += 200) {
  const ins = await ctx.db.insertInto('users').values(rows.slice(i, i + 200)).returning('uid').execute();
  uids.push(...ins.map((r) => r.uid));
}
for (let i = 0; i < uids.length; i += 200) {
  await ctx.db.insertInto('group_members').values(uids.slice(i, i + 200).map((uid) => ({ group_name: 'registered-users', uid, joined: now }))).execute();
}
const cid = (await ctx.categories.create(SYSTEM, { name: 'Fan-out' })).cid;
const author = { ...(await ctx.privileges.viewer(authorUid)), master: true };
const replier = { ...(await ctx.privileges.viewer(replierUid)), master: true };
const watched = (await ctx.topics.create(author, { cid, title: 'A topic a thousand members watch', content: 'The first post of the watched topic.' })).topic;
const quiet = (await ctx.topics.create(author, { cid, title: 'A topic nobody else watches', content: 'The first post of the quiet topic.' })).topic;
// The author watches both (their own topics); the watched one gains N more.
for (let i = 0; i < uids.length; i += 200) {
  await ctx.db.insertInto('topic_follows').values(uids.slice(i, i + 200).map((uid) => ({ tid: watched.tid, uid, state: 'follow' }))).execute();
}
log(`${WATCHERS} watchers ready; ${REPLIES} replies to each topic`);

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
async function run(tid) {
  const times = [];
  const t0 = performance.now();
  for (let i = 0; i < REPLIES; i++) {
    const t = performance.now();
    await ctx.posts.reply(replier, tid, { content: `Reply number ${i} to the topic, long enough to pass.` });
    await ctx.hooks.idle();
    times.push(performance.now() - t);
  }
  const total = performance.now() - t0;
  return { p50: pct(times, 50), p99: pct(times, 99), perSec: (REPLIES * 1000) / total };
}
await run(quiet.tid); // warm-up: statement caches, JIT
const none = await run(quiet.tid);
const fanout = await run(watched.tid);
const stored = await ctx.db.selectFrom('notifications').select((eb) => eb.fn.countAll().as('n')).where('tid', '=', watched.tid).executeTakeFirst();
const result = {
  watchers: WATCHERS,
  replies: REPLIES,
  stored: Number(stored.n),
  fanout,
  none,
  perWatcherUs: ((1000 / fanout.perSec - 1000 / none.perSec) * 1000) / WATCHERS,
};
log(
  `reply + fan-out to ${WATCHERS}: p50 ${fanout.p50.toFixed(1)} ms, p99 ${fanout.p99.toFixed(1)} ms, ${fanout.perSec.toFixed(0)} replies/s; no watchers: p50 ${none.p50.toFixed(1)} ms, ${none.perSec.toFixed(0)} replies/s; ${result.perWatcherUs.toFixed(1)} µs per watcher`,
);
await app.close();
rmSync(runDir, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify(result)}\n`);
