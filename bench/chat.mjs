// Chat fan-out: one room of N members (default 200), each with one socket on the room
// (modules.chats.enter); S members (default 10) send messages at once through /api/v3 with the
// seed's master token. Measures messages/s and, per message, the time from its POST to the
// moment the last member's socket has its event:chats.receive.
//   node bench/chat.mjs '<json spec>'   → one JSON result line on stdout
// spec: { base, token, uids, usernames, password, members, senders, messages, serverPid }
// With serverPid, the server's CPU time (user + system, /proc/<pid>/stat) over the sending is
// divided by the messages: CPU ms per message, steadier than messages/s on a shared machine.
import { io } from 'socket.io-client';
import { cpuSeconds } from './lib/server.mjs';
import { login as loginAs } from './lib/session.mjs';

const spec = JSON.parse(process.argv[2]);
const log = (s) => process.stderr.write(`chat: ${s}\n`);
const members = Math.min(spec.members ?? 200, spec.uids.length);
const senders = Math.min(spec.senders ?? 10, members);

async function api(method, path, uid, body) {
  const res = await fetch(`${spec.base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${spec.token}` },
    body: JSON.stringify({ ...(body ?? {}), _uid: uid }),
  });
  const json = await res.json();
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

function connect(session) {
  return new Promise((resolve, reject) => {
    const socket = io(spec.base, { path: '/socket.io', transports: ['websocket'], reconnection: false, forceNew: true, timeout: 20_000, query: { _csrf: session.csrf }, extraHeaders: { cookie: session.cookie } });
    socket.once('connect_error', reject);
    socket.once('connect', () => socket.emit('modules.chats.enter', room.roomId, (err) => (err ? reject(new Error(JSON.stringify(err))) : resolve(socket))));
  });
}
const sockets = [];
for (let i = 0; i < sessions.length; i += 50) sockets.push(...(await Promise.all(sessions.slice(i, i + 50).map(connect))));
log(`${sockets.length} member sockets in room ${room.roomId}`);

// mid → { t0, got, last }
const seen = new Map();
const entry = (mid) => seen.get(mid) ?? (seen.set(mid, { got: 0, last: 0, t0: 0 }), seen.get(mid));
for (const s of sockets) {
  s.on('event:chats.receive', (data) => {
    const e = entry(data.message.mid);
    e.got += 1;
    e.last = performance.now();
  });
}

const perSender = spec.messages ?? 50;
const cpu0 = cpuSeconds(spec.serverPid);
// This process's own CPU too: it decodes every delivery (members × messages), and on a small
// machine it competes with the server for the cores.
const own0 = process.cpuUsage();
const t0 = performance.now();
await Promise.all(
  uids.slice(0, senders).map(async (uid, k) => {
    for (let i = 0; i < perSender; i++) {
      const start = performance.now();
      const m = await api('POST', `/api/v3/chats/${room.roomId}`, uid, { message: `Bench message ${k}-${i}: some words to render, **bold** and a [link](https://example.com).` });
      entry(m.mid).t0 = start;
    }
  }),
);
const sendMs = performance.now() - t0;
// Let the last deliveries arrive.
const deadline = performance.now() + 10_000;
while (performance.now() < deadline && [...seen.values()].some((e) => e.got < sockets.length)) await new Promise((r) => setTimeout(r, 50));
const cpu1 = cpuSeconds(spec.serverPid);
const own = process.cpuUsage(own0);
const wallMs = performance.now() - t0;
for (const s of sockets) s.close();

const fanout = [...seen.values()].filter((e) => e.t0 > 0).map((e) => e.last - e.t0).sort((a, b) => a - b);
const missed = [...seen.values()].reduce((n, e) => n + Math.max(0, sockets.length - e.got), 0);
const pct = (p) => fanout[Math.min(fanout.length - 1, Math.ceil((p / 100) * fanout.length) - 1)];
process.stdout.write(`${JSON.stringify({ members: sockets.length, senders, messages: fanout.length, perSec: (fanout.length / sendMs) * 1000, p50: pct(50), p99: pct(99), max: fanout.at(-1), missedDeliveries: missed, clientCpuShare: (own.user + own.system) / 1000 / wallMs, serverCpuShare: cpu0 !== null && cpu1 !== null ? ((cpu1 - cpu0) * 1000) / wallMs : null, cpuMsPerMessage: cpu0 !== null && cpu1 !== null && fanout.length ? ((cpu1 - cpu0) * 1000) / fanout.length : null })}\n`);
process.exit(0);
