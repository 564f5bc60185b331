// Live fan-out: N guest sockets in one topic room; each reply is POSTed through /api/v3 and
// timed until the last socket has its event:new_post. Also samples the server's RSS before and
// after the sockets connect (memory per idle socket).
//   node bench/live.mjs '<json spec>'   → one JSON result line on stdout
// spec: { base, serverPid, tid, sockets, replies, token, uid, usernames, password }
// Only members' sockets connect (session cookie + its CSRF token), so the sockets are spread
// over up to 200 logged-in members, several tabs each.
import { readFileSync } from 'node:fs';
import { io } from 'socket.io-client';
import { postBody } from './lib/content.mjs';
import { login as loginAs } from './lib/session.mjs';

const spec = JSON.parse(process.argv[2]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (s) => process.stderr.write(`live: ${s}\n`);

function rss(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m[1]) * 1024;
}


const login = (username) => loginAs(spec.base, username, spec.password);

const sessions = [];
{
  const names = spec.usernames.slice(0, Math.min(200, spec.sockets));
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < names.length) sessions.push(await login(names[next++]));
    }),
  );
}
let connected = 0;

function connect() {
  return new Promise((resolve, reject) => {
    const session = sessions[connected++ % sessions.length];
    const socket = io(spec.base, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      timeout: 20_000,
      query: { _csrf: session.csrf },
      extraHeaders: { cookie: session.cookie },
    });
    const fail = (err) => {
      socket.close();
      reject(err);
    };
    socket.once('connect_error', fail);
    socket.once('connect', () => {
      socket.off('connect_error', fail);
      const timer = setTimeout(() => fail(new Error('meta.rooms.enter: no answer in 10 s')), 10_000);
      socket.emit('meta.rooms.enter', { enter: `topic_${spec.tid}` }, (err) => {
        clearTimeout(timer);
        if (err) fail(new Error(`meta.rooms.enter refused: ${JSON.stringify(err)}`));
        else resolve(socket);
      });
    });
  });
}

function percentile(sorted, p) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

// Let the server settle before the baseline.
await sleep(1000);
const before = rss(spec.serverPid);
const sockets = [];
const tConnect = performance.now();
// Batches of 50, so the connect storm does not dominate what is measured.
for (let i = 0; i < spec.sockets; i += 50) {
  const batch = await Promise.all(Array.from({ length: Math.min(50, spec.sockets - i) }, connect));
  sockets.push(...batch);
}
const connectMs = performance.now() - tConnect;
log(`${sockets.length} sockets of ${sessions.length} members connected and in topic_${spec.tid} in ${(connectMs / 1000).toFixed(1)} s`);
await sleep(3000);
const after = rss(spec.serverPid);

// pid → { t0, got, last }
const pending = new Map();
const waiters = new Map();
for (const s of sockets) {
  s.on('event:new_post', (data) => {
    const now = performance.now();
    for (const post of data?.posts ?? []) {
      let p = pending.get(post.pid);
      if (!p) pending.set(post.pid, (p = { got: 0, last: 0 }));
      p.got += 1;
      p.last = now;
      if (p.got === sockets.length) waiters.get(post.pid)?.();
    }
  });
}

const fanout = [];
let missed = 0;
for (let i = 0; i < spec.replies; i++) {
  const t0 = performance.now();
  const res = await fetch(`${spec.base}/api/v3/topics/${spec.tid}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${spec.token}` },
    body: JSON.stringify({ content: postBody(800_000 + i), _uid: spec.uid }),
  });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`reply failed: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  const pid = json.response.pid;
  // The event may have arrived before the POST's answer: count what already came in.
  const entry = pending.get(pid) ?? { got: 0, last: 0 };
  entry.t0 = t0;
  pending.set(pid, entry);
  if (entry.got < sockets.length) {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 5000);
      waiters.set(pid, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  const done = pending.get(pid);
  if (done.got < sockets.length) missed += sockets.length - done.got;
  fanout.push(done.last - t0);
  await sleep(100);
}
for (const s of sockets) s.close();
const sorted = [...fanout].sort((a, b) => a - b);
process.stdout.write(
  `${JSON.stringify({
    sockets: sockets.length,
    replies: fanout.length,
    connectMs,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
    missedDeliveries: missed,
    rssBefore: before,
    rssAfter: after,
    bytesPerSocket: (after - before) / sockets.length,
  })}\n`,
);
