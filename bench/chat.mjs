// Chat fan-out: one room of N members (default 200), each with one socket on the room
// (modules.chats.enter); S members (default 10) send messages at once through /api/v3 with the
// seed's master token. Measures messages/s and, per message, the time from its POST to the
// moment the last member's socket has its event:chats.receive.
//   node bench/chat.mjs '<json spec>'   → one JSON result line on stdout
// spec: { base, token, uids, usernames, password, members, senders, messages, warmup, serverPid }
// The members' sockets are in a child process (lib/chat-receivers.mjs).
// With serverPid, the server's CPU time (user + system, /proc/<pid>/stat) over the sending is
// divided by the messages: CPU ms per message, steadier than messages/s on a shared machine.
import { fork } from 'node:child_process';
import http from 'node:http';
import { cpuSeconds, request } from './lib/server.mjs';
import { login as loginAs } from './lib/session.mjs';

const spec = JSON.parse(process.argv[2]);
const log = (s) => process.stderr.write(`chat: ${s}\n`);
const members = Math.min(spec.members ?? 200, spec.uids.length);
const senders = Math.min(spec.senders ?? 10, members);

// The messages go out over node:http with keep-alive connections, not fetch: fetch cost the
// sending process half a millisecond of CPU per message, enough on a 2-core machine to take
// the core the server and the members' sockets need.
const agent = new http.Agent({ keepAlive: true, maxSockets: senders });
async function api(method, path, uid, body) {
  const payload = JSON.stringify({ ...(body ?? {}), _uid: uid });
  const res = await request(`${spec.base}${path}`, { method, agent, body: payload, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), authorization: `Bearer ${spec.token}` } });
  const json = JSON.parse(res.body);
  if (res.status !== 200) throw new Error(`${method} ${path} as ${uid}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json.response;
}

const login = (username) => loginAs(spec.base, username, spec.password);

// The room: created by the first member, the others added 49 at a time (the per-call bound).
const uids = spec.uids.slice(0, members);
// The master token is exempt from chatMessageDelay, as it is from the post delays.
const room = await api('POST', '/api/v3/chats', uids[0], { uids: uids.slice(1, 50), roomName: 'Bench room' });
for (let i = 50; i < uids.length; i += 49) await api('POST', `/api/v3/chats/${room.roomId}/users`, uids[0], { uids: uids.slice(i, i + 49) });

const sessions = [];
{
  let next = 0;
  const names = spec.usernames.slice(0, members);
  await Promise.all(Array.from({ length: 4 }, async () => { while (next < names.length) { const i = next++; sessions[i] = await login(names[i]); } }));
}

// The members' sockets live in a process of their own (bench/lib/chat-receivers.mjs): on a
// machine of few cores, one process that both decoded every delivery (members × messages) and
// sent the messages made the senders wait their turn behind the deliveries, and the server sat
// idle between them. 200 members are 200 machines; the senders are not slowed by them.
const receivers = fork(new URL('./lib/chat-receivers.mjs', import.meta.url), [JSON.stringify({ base: spec.base, roomId: room.roomId, sessions })], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const ask = (type, data = {}) =>
  new Promise((resolve, reject) => {
    const onMessage = (msg) => {
      if (msg.type !== type) return;
      receivers.off('message', onMessage);
      if (msg.error) reject(new Error(msg.error));
      else resolve(msg);
    };
    receivers.on('message', onMessage);
    receivers.send({ type, ...data });
  });
const { count: socketCount } = await ask('connect');
log(`${socketCount} member sockets in room ${room.roomId}`);
// mid → the time its POST started (absolute ms: performance.timeOrigin + now, comparable across processes)
const sentAt = new Map();
const perSender = spec.messages ?? 50;
const sendAll = (count, label, record) =>
  Promise.all(
    uids.slice(0, senders).map(async (uid, k) => {
      for (let i = 0; i < count; i++) {
        const start = performance.timeOrigin + performance.now();
        const m = await api('POST', `/api/v3/chats/${room.roomId}`, uid, { message: `Bench ${label} ${k}-${i}: some words to render, **bold** and a [link](https://example.com).` });
        record?.(m.mid, start, performance.timeOrigin + performance.now() - start);
      }
    }),
  );
// Warm-up, as the reads have: the server's first messages run cold code (JIT, statement cache).
const warm = [];
await sendAll(spec.warmup ?? 0, 'warm-up', (mid) => warm.push(mid));
if (warm.length) await ask('finish', { mids: warm });
const cpu0 = cpuSeconds(spec.serverPid);
// The bench processes' own CPU too: on a small machine they compete with the server for the cores.
const own0 = process.cpuUsage();
await ask('start');
const t0 = performance.now();
const postMs = [];
await sendAll(perSender, 'message', (mid, start, ms) => {
  sentAt.set(mid, start);
  postMs.push(ms);
});
const sendMs = performance.now() - t0;
// Let the last deliveries arrive: the receivers answer once every socket has every message (or 10 s).
const got = await ask('finish', { mids: [...sentAt.keys()] });
const cpu1 = cpuSeconds(spec.serverPid);
const own = process.cpuUsage(own0);
const wallMs = performance.now() - t0;
receivers.kill();

const fanout = [];
const firsts = [];
let missed = 0;
for (const [mid, start] of sentAt) {
  const e = got.seen[mid];
  missed += socketCount - (e?.got ?? 0);
  if (!e?.got) continue;
  fanout.push(e.last - start);
  firsts.push(e.first - start);
}
for (const a of [fanout, firsts, postMs]) a.sort((x, y) => x - y);
const pctOf = (list, p) => list[Math.min(list.length - 1, Math.ceil((p / 100) * list.length) - 1)];
const pct = (p) => pctOf(fanout, p);
process.stdout.write(`${JSON.stringify({ members: socketCount, senders, messages: fanout.length, perSec: (fanout.length / sendMs) * 1000, p50: pct(50), p99: pct(99), max: fanout.at(-1), firstP50: pctOf(firsts, 50), firstP99: pctOf(firsts, 99), postP50: pctOf(postMs, 50), postP99: pctOf(postMs, 99), missedDeliveries: missed, clientCpuShare: (own.user + own.system) / 1000 / wallMs, receiverCpuShare: got.cpuMs / wallMs, serverCpuShare: cpu0 !== null && cpu1 !== null ? ((cpu1 - cpu0) * 1000) / wallMs : null, cpuMsPerMessage: cpu0 !== null && cpu1 !== null && fanout.length ? ((cpu1 - cpu0) * 1000) / fanout.length : null })}\n`);
process.exit(0);
