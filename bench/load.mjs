// The load generator, run in its own process so it never shares an event loop with the server:
//   node bench/load.mjs '<json spec>'   → prints one JSON result line on stdout
// spec: { url, method?, headers?, body?, connections, warmupSec, durationSec, write? }
// write: { kind: 'reply' | 'reply-rich' | 'topic', token, tids, uids, cids, names? } makes every
// request a new reply (or topic) through /api/v3 with a master token acting as a rotating member
// (`_uid`); 'reply-rich' adds a mention of a member (`names`) and an emoji to every reply.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import { postBody, topicTitle } from './lib/content.mjs';
import { cpuSeconds } from './lib/server.mjs';

const spec = JSON.parse(process.argv[2]);

// autocannon keeps every answer's body as a string (body += chunk) for its verifyBody and
// expectBody options, which this load never uses. For a 50 KB page at 2,500 answers/s that
// was 60% of this process's time in young collections: the generator, not the server, set
// the pace (issue 18: member topic HTML measured at ~1,100 req/s and p99 ~100 ms with the
// server 70% busy; ~2,900 req/s and p99 ~35 ms once bodies are dropped). Bytes are still
// counted from the socket.
const PipelinedRequestsQueue = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js');
PipelinedRequestsQueue.prototype.addBody = function addBody() {};

function writeRequests(w) {
  let n = 0;
  const bodies = Array.from({ length: 64 }, (_, i) => postBody(900_000 + i));
  return [
    {
      method: 'POST',
      setupRequest(req) {
        n += 1;
        const uid = w.uids[n % w.uids.length];
        if (w.kind === 'reply' || w.kind === 'reply-rich') {
          const tid = w.tids[n % w.tids.length];
          const extra = w.kind === 'reply-rich' ? `\n\nThanks @${w.names[(n * 7) % w.names.length]} :tada: :+1:` : '';
          return { ...req, path: `/api/v3/topics/${tid}`, body: JSON.stringify({ content: bodies[n % bodies.length] + extra, _uid: uid }) };
        }
        const cid = w.cids[n % w.cids.length];
        return { ...req, path: '/api/v3/topics', body: JSON.stringify({ cid, title: `Load ${topicTitle(50_000 + n)}`, content: bodies[n % bodies.length], _uid: uid }) };
      },
    },
  ];
}

const headers = { ...(spec.headers ?? {}) };
if (spec.write) {
  headers['content-type'] = 'application/json';
  headers.authorization = `Bearer ${spec.write.token}`;
}
const base = {
  url: spec.url,
  method: spec.method ?? 'GET',
  headers,
  connections: spec.connections,
  pipelining: 1,
  timeout: 10,
  ...(spec.write ? { requests: writeRequests(spec.write) } : {}),
};

// One autocannon run: warm-up, then the measured window on the same connections. (A fresh
// run opens 50 connections at once; a saturated Node server accepts one new connection per
// turn of its event loop, so the last of them wait ~1 s for their first answer — seen with a
// bare node:http server too. That start-up queue is not the steady state this measures, and
// in a 3 s window it alone made the p99 of the slower routes.)
const latencies = [];
let ok = 0;
let total = 0;
let non2xx = 0;
let bytes = 0;
let measuring = false;
let cpu0 = null;
let load0 = null;
let t0 = 0;
let seconds = 0;
let cpu1 = null;
let self0 = null;
let self1 = null;
let closed = false;
// The server's event-loop probe (bench/lib/loop-probe.mjs), when the spec names its file: a
// signal opens its window with ours and another closes it; its answer lands in the file.
const loopSeq = () => (spec.loopFile && existsSync(spec.loopFile) ? JSON.parse(readFileSync(spec.loopFile, 'utf8')).seq : 0);
const loopSignal = () => {
  if (!spec.loopFile) return;
  try {
    process.kill(spec.cpuPid, 'SIGUSR2');
  } catch {
    // the server is gone; the loads below report it
  }
};
const loopSeq0 = loopSeq();
// PostgreSQL on the same machine (spec.dbCpu): the CPU seconds of every process named
// postgres, so a read's report shows what the database took from the cores the server and
// this generator share. Each process's reaped children count too (cutime, cstime): a
// backend or autovacuum worker that exits in the window moves its time into the
// postmaster's, instead of taking it out of the sum (which once showed -139%).
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
let db0 = null;
let db1 = null;
const warmupMs = spec.warmupSec * 1000;
const r = await new Promise((resolve, reject) => {
  // Stopped by hand once the measured window is over; the duration is only a backstop.
  const instance = autocannon({ ...base, duration: spec.warmupSec + spec.durationSec + 60 }, (err, result) => (err ? reject(err) : resolve(result)));
  const begin = () => {
    if (measuring) return;
    measuring = true;
    cpu0 = cpuSeconds(spec.cpuPid);
    self0 = process.cpuUsage();
    db0 = dbSeconds();
    loopSignal();
    load0 = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    t0 = performance.now();
    setTimeout(() => {
      // The window closes here: answers arriving while autocannon winds down are not counted.
      seconds = (performance.now() - t0) / 1000;
      cpu1 = cpuSeconds(spec.cpuPid);
      self1 = process.cpuUsage(self0);
      db1 = dbSeconds();
      loopSignal();
      closed = true;
      instance.stop();
    }, spec.durationSec * 1000);
  };
  // A server that never answers every connection is measured anyway, 30 s after the warm-up.
  const backstop = setTimeout(begin, warmupMs + 30_000);
  instance.on('done', () => clearTimeout(backstop));
  // The window opens once the warm-up has passed and every connection has had an answer
  // (on a slow route the last connection's first answer can take longer than the warm-up).
  const answered = new Set();
  let warm = false;
  setTimeout(() => {
    warm = true;
    if (answered.size >= spec.connections) begin();
  }, warmupMs);
  instance.on('response', (client, status, resBytes, responseTime) => {
    if (closed) return;
    if (!measuring) {
      answered.add(client);
      if (warm && answered.size >= spec.connections) begin();
      return;
    }
    total += 1;
    bytes += resBytes;
    latencies.push(responseTime);
    if (status >= 200 && status < 300) ok += 1;
    else non2xx += 1;
  });
});
latencies.sort((a, b) => a - b);
// The probe answers from the server's loop: wait (up to 3 s) for its second answer.
let loop = null;
if (spec.loopFile && measuring) {
  for (let i = 0; i < 150 && loopSeq() < loopSeq0 + 2; i++) await new Promise((res) => setTimeout(res, 20));
  if (loopSeq() >= loopSeq0 + 2) loop = JSON.parse(readFileSync(spec.loopFile, 'utf8'));
}
const pct = (p) => (latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] * 100) / 100 : null);
process.stdout.write(
  `${JSON.stringify({
    rps: ok / seconds,
    rpsAll: total / seconds,
    p50: pct(50),
    p90: pct(90),
    p99: pct(99),
    max: pct(100),
    mean: latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : null,
    requests: total,
    ok,
    non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    bytesPerReq: total ? Math.round(bytes / total) : 0,
    durationSec: seconds,
    connections: spec.connections,
    // The server's CPU time per answered request: steadier than req/s on a shared machine.
    cpuMsPerReq: cpu0 !== null && cpu1 !== null && total ? ((cpu1 - cpu0) * 1000) / total : null,
    serverCpuPct: cpu0 !== null && cpu1 !== null ? (100 * (cpu1 - cpu0)) / seconds : null,
    // This generator's own share of a core: near 100% means it, not the server, set the pace.
    loadCpuPct: self1 ? (self1.user + self1.system) / 1e4 / seconds : null,
    dbCpuPct: db0 !== null && db1 !== null ? (100 * (db1 - db0)) / seconds : null,
    loadavg: Number(load0),
    loop,
  })}\n`,
);
