// Mixed load (issue 58): guests and members reading while writers post, at a set pace.
//   node bench/mixed.mjs '<json spec>'   → one JSON result line on stdout
// spec: { base, serverPid, loopFile?, dbCpu?, rate, guests, members, writeRate, warmupSec,
//         durationSec, usernames, password, token, uids, tids, slugs, cids, categorySlugs,
//         chatRoom, chatUids }
//
// Open loop: the read rate is spread over `guests` + `members` virtual readers, each on its own
// keep-alive connection, each sending its next request at its scheduled time (or as soon as its
// previous answer is in, when that is later). A request's latency runs from its scheduled time,
// so a server that falls behind shows it in the percentiles (no coordinated omission) and in
// the achieved rate. Members keep a socket.io connection open in a topic room, as a browser on
// a topic page does, and receive the live events the writes cause. Writers post at their own
// pace: replies (one in four mentioning a reading member), votes, new topics and chat messages,
// through /api/v3 with the master token acting as rotating members.
import http from 'node:http';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { io } from 'socket.io-client';
import { postBody, topicTitle } from './lib/content.mjs';
import { cpuSeconds } from './lib/server.mjs';
import { login } from './lib/session.mjs';

const spec = JSON.parse(process.argv[2]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One request on a keep-alive agent; resolves { status, ms } and drops the body. */
function send(agent, { method = 'GET', path, headers = {}, body }) {
  return new Promise((resolve) => {
    const req = http.request(spec.base + path, { method, agent, headers, timeout: 30_000 }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve({ status: res.statusCode }));
      res.on('error', () => resolve({ status: 0 }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0 }));
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

// --- who reads what ---
const small = spec.tids.small;
const hot = spec.writeTids.slice(0, 20);
// The seed names the slugs of its two read topics; the hot topics' slugs are read at set-up.
const slugs = { ...spec.slugs };
const topicPath = (tid, html) => `${html ? '' : '/api'}/topic/${tid}/${slugs[tid] ?? ''}`;
const cat = spec.cids[0];
/** A guest's next page: topic pages (HTML and data), the lists, a category (weights add to 1). */
function guestPage(n) {
  const r = (n * 7919) % 100;
  const tid = r % 2 ? hot[n % hot.length] : small;
  if (r < 30) return topicPath(tid, true);
  if (r < 55) return topicPath(tid, false);
  if (r < 70) return '/api/recent';
  if (r < 80) return '/recent';
  if (r < 90) return `/api/category/${spec.categorySlugs[cat]}`;
  return '/';
}
/** A member's next page: the same, plus their unread list and notifications. */
function memberPage(n) {
  const r = (n * 7919) % 100;
  const tid = r % 2 ? hot[n % hot.length] : small;
  if (r < 25) return topicPath(tid, true);
  if (r < 50) return topicPath(tid, false);
  if (r < 60) return '/api/recent';
  if (r < 70) return '/api/unread';
  if (r < 80) return '/api/notifications';
  if (r < 90) return `/api/category/${spec.categorySlugs[cat]}`;
  return '/api/categories';
}

// --- set-up: member sessions, their sockets, the posts to vote on ---
const members = [];
for (const name of spec.usernames.slice(0, spec.members)) members.push(await login(spec.base, name, spec.password));
let liveEvents = 0;
const sockets = await Promise.all(
  members.map(
    (m, i) =>
      new Promise((resolve, reject) => {
        const socket = io(spec.base, { path: '/socket.io', transports: ['websocket'], reconnection: false, forceNew: true, query: { _csrf: m.csrf }, extraHeaders: { cookie: m.cookie } });
        socket.once('connect_error', reject);
        socket.once('connect', () => socket.emit('meta.rooms.enter', { enter: `topic_${hot[i % hot.length]}` }, () => resolve(socket)));
        socket.onAny(() => (liveEvents += 1));
      }),
  ),
);
const votePids = [];
{
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const getJson = (path) => new Promise((resolve, reject) => http.get(spec.base + path, { agent }, (r) => { const c = []; r.on('data', (d) => c.push(d)); r.on('end', () => resolve(JSON.parse(Buffer.concat(c).toString()))); r.on('error', reject); }));
  for (const [i, tid] of hot.entries()) {
    const topic = await getJson(`/api/topic/${tid}`);
    slugs[tid] = String(topic.slug ?? '').split('/').pop();
    if (i < 10) for (const p of topic.posts ?? []) votePids.push(p.pid);
  }
  agent.destroy();
}
const bodies = Array.from({ length: 32 }, (_, i) => postBody(800_000 + i));
let writeN = 0;
/** The next write: replies (a quarter mention a reading member), votes, topics, chat messages. */
function nextWrite() {
  writeN += 1;
  const n = writeN;
  const uid = spec.uids[10 + (n % (spec.uids.length - 10))];
  const auth = { authorization: `Bearer ${spec.token}`, 'content-type': 'application/json' };
  const k = n % 20;
  if (k < 10) {
    const mention = k % 4 === 0 ? `\n\nWhat do you think, @${spec.usernames[n % spec.members]}?` : '';
    return { kind: mention ? 'reply-mention' : 'reply', method: 'POST', path: `/api/v3/topics/${hot[n % hot.length]}`, headers: auth, body: JSON.stringify({ content: bodies[n % bodies.length] + mention, _uid: uid }) };
  }
  if (k < 15 && votePids.length) {
    return { kind: 'vote', method: 'PUT', path: `/api/v3/posts/${votePids[n % votePids.length]}/vote`, headers: auth, body: JSON.stringify({ delta: n % 3 === 0 ? -1 : 1, _uid: uid }) };
  }
  if (k < 17) {
    return { kind: 'topic', method: 'POST', path: '/api/v3/topics', headers: auth, body: JSON.stringify({ cid: spec.cids[n % spec.cids.length], title: `Mixed ${topicTitle(60_000 + n)}`, content: bodies[n % bodies.length], _uid: uid }) };
  }
  const chatUid = spec.chatUids[n % spec.chatUids.length];
  return { kind: 'chat', method: 'POST', path: `/api/v3/chats/${spec.chatRoom}`, headers: auth, body: JSON.stringify({ message: `Mixed load message ${n}`, _uid: chatUid }) };
}

// --- the paced loops ---
const readers = spec.guests + spec.members;
const lat = { guest: [], member: [], write: [] };
const byKind = {};
const counts = { guest: 0, member: 0, write: 0, non2xx: 0, writeFail: 0 };
const statuses = {};
let measuring = false;
let stopping = false;

/** One virtual client: sends at its pace on one connection; `make(n)` gives the n-th request. */
async function client(kind, intervalMs, offsetMs, make) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let due = performance.now() + offsetMs;
  for (let n = 0; !stopping; n++) {
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    if (stopping) break;
    const scheduled = due;
    due += intervalMs;
    const req = make(n);
    const { status } = await send(agent, req);
    if (!measuring) continue;
    if (status < 200 || status >= 300) statuses[`${kind} ${req.kind ?? req.path.replace(/\d+/g, ':n')} ${status}`] = (statuses[`${kind} ${req.kind ?? req.path.replace(/\d+/g, ':n')} ${status}`] ?? 0) + 1;
    const ms = performance.now() - scheduled;
    lat[kind].push(ms);
    counts[kind] += 1;
    if (kind === 'write') {
      (byKind[req.kind] ??= []).push(ms);
      if (status < 200 || status >= 300) counts.writeFail += 1;
    } else if (status < 200 || status >= 300) counts.non2xx += 1;
  }
  agent.destroy();
}

const readInterval = (1000 * readers) / spec.rate;
const loops = [];
for (let g = 0; g < spec.guests; g++) loops.push(client('guest', readInterval, (g * readInterval) / readers, (n) => ({ path: guestPage(n * readers + g) })));
members.forEach((m, i) => loops.push(client('member', readInterval, ((spec.guests + i) * readInterval) / readers, (n) => ({ path: memberPage(n * readers + i), headers: { cookie: m.cookie } }))));
const writers = 2;
const writeInterval = (1000 * writers) / spec.writeRate;
for (let w = 0; w < writers; w++) loops.push(client('write', writeInterval, (w * writeInterval) / writers, () => nextWrite()));

// --- the measured window ---
function dbSeconds() {
  if (!spec.dbCpu) return null;
  let sum = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const f = stat.split(') ')[1].split(' ');
      sum += (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
    } catch {
      // gone meanwhile
    }
  }
  return sum;
}
const loopSeq = () => (spec.loopFile && existsSync(spec.loopFile) ? JSON.parse(readFileSync(spec.loopFile, 'utf8')).seq : 0);
const loopSignal = () => spec.loopFile && process.kill(spec.serverPid, 'SIGUSR2');
const rssOf = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${spec.serverPid}/status`, 'utf8'))[1]) * 1024;

await sleep(spec.warmupSec * 1000);
const loopSeq0 = loopSeq();
const cpu0 = cpuSeconds(spec.serverPid);
const self0 = process.cpuUsage();
const db0 = dbSeconds();
const live0 = liveEvents;
loopSignal();
measuring = true;
const t0 = performance.now();
let peakRss = 0;
const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, rssOf())), 1000);
await sleep(spec.durationSec * 1000);
measuring = false;
const seconds = (performance.now() - t0) / 1000;
const cpu1 = cpuSeconds(spec.serverPid);
const self1 = process.cpuUsage(self0);
const db1 = dbSeconds();
const live1 = liveEvents;
loopSignal();
clearInterval(rssTimer);
stopping = true;
await Promise.all(loops);
for (const s of sockets) s.close();
let loop = null;
if (spec.loopFile) {
  for (let i = 0; i < 150 && loopSeq() < loopSeq0 + 2; i++) await sleep(20);
  if (loopSeq() >= loopSeq0 + 2) loop = JSON.parse(readFileSync(spec.loopFile, 'utf8'));
}

const pct = (xs, p) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 10) / 10;
};
const reads = [...lat.guest, ...lat.member];
const requests = reads.length + lat.write.length;
process.stdout.write(
  `${JSON.stringify({
    target: { readsPerSec: spec.rate, writesPerSec: spec.writeRate, guests: spec.guests, members: spec.members, writers },
    rps: requests / seconds,
    readsPerSec: reads.length / seconds,
    writesPerSec: lat.write.length / seconds,
    p50: pct(reads, 50),
    p99: pct(reads, 99),
    max: pct(reads, 100),
    guest: { n: lat.guest.length, p50: pct(lat.guest, 50), p99: pct(lat.guest, 99) },
    member: { n: lat.member.length, p50: pct(lat.member, 50), p99: pct(lat.member, 99) },
    write: { n: lat.write.length, p50: pct(lat.write, 50), p99: pct(lat.write, 99), failed: counts.writeFail },
    writeKinds: Object.fromEntries(Object.entries(byKind).map(([k, xs]) => [k, { n: xs.length, p50: pct(xs, 50), p99: pct(xs, 99) }])),
    non2xx: counts.non2xx,
    statuses,
    liveEventsPerSec: (live1 - live0) / seconds,
    durationSec: seconds,
    cpuMsPerReq: cpu0 !== null && cpu1 !== null && requests ? ((cpu1 - cpu0) * 1000) / requests : null,
    serverCpuPct: cpu0 !== null && cpu1 !== null ? (100 * (cpu1 - cpu0)) / seconds : null,
    loadCpuPct: (self1.user + self1.system) / 1e4 / seconds,
    dbCpuPct: db0 !== null && db1 !== null ? (100 * (db1 - db0)) / seconds : null,
    peakRss,
    loop,
  })}\n`,
);
process.exit(0);
