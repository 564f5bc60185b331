// Seeds a fresh forum for the benchmark through the services (no HTTP, no raw inserts), so
// counters, rendered HTML and indexes are exactly what real use produces.
// Run by bench/run.mjs in its own process, against PALAVER_DATA_DIR or DATABASE_URL:
//   node bench/seed.mjs <meta.json> [--scale 1]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { serverModule } from './lib/build.mjs';
import { postBody, replyCounts, topicTags, topicTitle } from './lib/content.mjs';
import { BENCH_PASSWORD } from './lib/paths.mjs';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { scale: { type: 'string', default: '1' } } });
const metaFile = positionals[0];
if (!metaFile) throw new Error('usage: node bench/seed.mjs <meta.json>');
const scale = Number(values.scale);

/** The seed's shape (the numbers; --scale shrinks it for a smoke test). */
export const SHAPE = {
  categories: 10,
  users: Math.max(10, Math.round(200 * scale)),
  topics: Math.max(20, Math.round(2000 * scale)),
  /** Posts in all, main posts included. */
  posts: Math.max(200, Math.round(20000 * scale)),
  bigPosts: 500,
  smallPosts: 10,
};

const load = async (rel) => import(pathToFileURL(serverModule(rel)).href);
const { loadConfig } = await load('config.js');
const { createContext } = await load('context.js');
const { prepareDatabase, SYSTEM } = await load('setup.js');
const { loadBuiltinPlugins } = await load('plugins/index.js');
const pino = (await import('pino')).default;

const config = loadConfig();
const ctx = createContext(config, pino({ level: 'warn' }));
const t0 = performance.now();
const times = {};
const lap = (name, since) => (times[name] = Math.round(performance.now() - since));
const say = (s) => process.stderr.write(`seed: ${s}\n`);

try {
  await prepareDatabase(ctx);
  await loadBuiltinPlugins(ctx);
  if ((await ctx.categories.count()) > 0) throw new Error('the database is not empty; the benchmark seeds a fresh forum');
  // No flood control for anyone in the benchmark forum; the password rule stays default.
  await ctx.settings.set({ postDelay: 0, newbiePostDelay: 0, initialPostDelay: 0 });

  let t = performance.now();
  const cids = [];
  for (let i = 0; i < SHAPE.categories; i++) {
    const row = await ctx.categories.create(SYSTEM, { name: `Bench category ${i + 1}`, description: `Benchmark category number ${i + 1}, for load tests.`, icon: 'fa-comments', bgColor: '#2c7be5' });
    cids.push(row.cid);
  }
  lap('categories', t);

  // Each create hashes a password with argon2 (the service's rule); hashing runs on libuv's
  // threads, so a few at a time use both cores.
  t = performance.now();
  const uids = new Array(SHAPE.users);
  const usernames = new Array(SHAPE.users);
  let nextUser = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (nextUser < SHAPE.users) {
        const i = nextUser++;
        const username = `bench${String(i + 1).padStart(3, '0')}`;
        const row = await ctx.users.create({ username, email: `${username}@bench.invalid`, password: BENCH_PASSWORD });
        uids[i] = row.uid;
        usernames[i] = username;
      }
    }),
  );
  lap('users', t);
  say(`${SHAPE.categories} categories, ${SHAPE.users} members in ${((times.categories + times.users) / 1000).toFixed(1)} s`);

  // Viewers as the seed acts through them: members with the master flag (no flood control).
  const viewers = new Map();
  const actAs = async (uid) => {
    let v = viewers.get(uid);
    if (!v) viewers.set(uid, (v = { ...(await ctx.privileges.viewer(uid)), master: true }));
    return v;
  };

  const big = Math.floor(SHAPE.topics / 2);
  const small = Math.floor((SHAPE.topics * 3) / 4);
  const counts = replyCounts({
    topics: SHAPE.topics,
    replies: SHAPE.posts - SHAPE.topics,
    big,
    bigReplies: SHAPE.bigPosts - 1,
    small,
    smallReplies: SHAPE.smallPosts - 1,
  });
  const tids = [];
  const slugs = {};
  let posts = 0;
  let topicMs = 0;
  let replyMs = 0;
  let bodyN = 0;
  let nextReport = 2000;
  t = performance.now();
  for (let i = 0; i < SHAPE.topics; i++) {
    const author = await actAs(uids[(i * 7 + 3) % uids.length]);
    let s = performance.now();
    const created = await ctx.topics.create(author, { cid: cids[i % cids.length], title: topicTitle(i), content: postBody(bodyN++), tags: topicTags(i) });
    topicMs += performance.now() - s;
    tids.push(created.topic.tid);
    if (i === big || i === small) slugs[created.topic.tid] = created.topic.slug;
    posts += 1;
    s = performance.now();
    for (let r = 0; r < counts[i]; r++) {
      const replier = await actAs(uids[(i * 3 + r * 5 + 1) % uids.length]);
      await ctx.posts.reply(replier, created.topic.tid, { content: postBody(bodyN++) });
      posts += 1;
    }
    replyMs += performance.now() - s;
    if (posts >= nextReport) {
      say(`${posts} posts (${i + 1} topics) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      nextReport += 2000;
    }
  }
  lap('content', t);
  times.topicCreates = Math.round(topicMs);
  times.replies = Math.round(replyMs);

  // The bench member's own state (the first member, the one the reads log in as): the
  // pages of their notifications and chats read it. The app's listeners are not registered in
  // this process, so replies above told nobody; the services are called as the listeners
  // would. 60 notifications of replies (one per topic, from 60 members), the first 40 read.
  t = performance.now();
  const member = await ctx.privileges.viewer(uids[0]);
  const notifyReply = async (k) => {
    const topic = await ctx.topics.get(tids[(k * 13) % tids.length]);
    await ctx.notifications.notify({
      type: 'new-reply',
      mergeKey: `new_post:tid:${topic.tid}`,
      subject: { type: 'post', id: topic.main_pid },
      from: uids[1 + (k % (uids.length - 1))],
      path: `/post/${topic.main_pid}`,
      bodyKey: 'notifications:user-posted-to',
      params: [topic.title],
      pid: topic.main_pid,
      tid: topic.tid,
      cid: topic.cid,
      uids: [uids[0]],
    });
  };
  for (let k = 0; k < 40; k++) await notifyReply(k);
  await ctx.notifications.markAllRead(member);
  for (let k = 40; k < 60; k++) await notifyReply(k);
  // 12 chat rooms of the member with one or two others, 8 messages each, and one room of
  // 5 members with 100 messages (the room the chat read opens).
  const chatRooms = [];
  for (let r = 0; r < 13; r++) {
    const others = r === 12 ? [uids[1], uids[2], uids[3], uids[4]] : r % 3 === 0 ? [uids[5 + r], uids[6 + r]] : [uids[5 + r]];
    const room = await ctx.chats.create(await actAs(uids[0]), { uids: others, ...(others.length > 1 ? { roomName: `Bench room ${r + 1}` } : {}) });
    const speakers = [uids[0], ...others];
    for (let m = 0; m < (r === 12 ? 100 : 8); m++) await ctx.chats.send(await actAs(speakers[m % speakers.length]), room.roomId, postBody(bodyN++).slice(0, 200));
    chatRooms.push(room.roomId);
  }
  lap('memberState', t);

  // Topics the write benchmark replies to: short ones nobody reads in the read benchmark.
  const writeTids = tids.filter((_, i) => i !== big && i !== small).slice(0, 100);
  const masterToken = await ctx.auth.createToken(0, 'bench master');
  times.total = Math.round(performance.now() - t0);
  const meta = {
    shape: SHAPE,
    dialect: ctx.dialect,
    cids,
    categorySlugs: Object.fromEntries(await Promise.all(cids.map(async (cid) => [cid, (await ctx.categories.get(cid)).slug]))),
    uids,
    usernames,
    password: BENCH_PASSWORD,
    tids: { big: tids[big], small: tids[small], first: tids[0], last: tids[tids.length - 1] },
    slugs,
    writeTids,
    chatRoom: chatRooms[chatRooms.length - 1],
    masterToken,
    posts,
    seedMs: times,
    perPostMs: { topicCreate: topicMs / SHAPE.topics, reply: replyMs / (posts - SHAPE.topics) },
  };
  writeFileSync(metaFile, JSON.stringify(meta, null, 2));
  say(`done: ${posts} posts in ${(times.total / 1000).toFixed(1)} s (topic create ${meta.perPostMs.topicCreate.toFixed(2)} ms, reply ${meta.perPostMs.reply.toFixed(2)} ms each)`);
} finally {
  await ctx.close();
}
