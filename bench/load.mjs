// The load generator, run in its own process so it never shares an event loop with the server:
//   node bench/load.mjs '<json spec>'   → prints one JSON result line on stdout
// spec: { url, method?, headers?, body?, connections, warmupSec, durationSec, write? }
// write: { kind: 'reply' | 'topic', token, tids, uids, cids } makes every request a new reply
// (or topic) through /api/v3 with a master token acting as a rotating member (`_uid`).
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { postBody, topicTitle } from './lib/content.mjs';

const spec = JSON.parse(process.argv[2]);

function writeRequests(w) {
  let n = 0;
  const bodies = Array.from({ length: 64 }, (_, i) => postBody(900_000 + i));
  return [
    {
      method: 'POST',
      setupRequest(req) {
        n += 1;
        const uid = w.uids[n % w.uids.length];
        if (w.kind === 'reply') {
          const tid = w.tids[n % w.tids.length];
          return { ...req, path: `/api/v3/topics/${tid}`, body: JSON.stringify({ content: bodies[n % bodies.length], _uid: uid }) };
        }
        const cid = w.cids[n % w.cids.length];
        return { ...req, path: '/api/v3/topics', body: JSON.stringify({ cid, title: `Load ${topicTitle(50_000 + n)}`, content: bodies[n % bodies.length], _uid: uid }) };
      },
    },
  ];
}

function run(opts) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
    // Bounded even if the server stalls: autocannon stops at `duration`; this is the backstop.
    const guard = setTimeout(() => instance.stop(), (opts.duration + 30) * 1000);
    instance.on('done', () => clearTimeout(guard));
  });
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

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
function cpuSeconds(pid) {
  if (!pid) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

if (spec.warmupSec > 0) await run({ ...base, duration: spec.warmupSec });
const cpu0 = cpuSeconds(spec.cpuPid);
const load0 = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
const r = await run({ ...base, duration: spec.durationSec });
const cpu1 = cpuSeconds(spec.cpuPid);
const ok = r['2xx'];
process.stdout.write(
  `${JSON.stringify({
    rps: ok / r.duration,
    rpsAll: r.requests.total / r.duration,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    mean: r.latency.average,
    requests: r.requests.total,
    ok,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    bytesPerReq: r.requests.total ? Math.round(r.throughput.total / r.requests.total) : 0,
    durationSec: r.duration,
    connections: spec.connections,
    // The server's CPU time per answered request: steadier than req/s on a shared machine.
    cpuMsPerReq: cpu0 !== null && cpu1 !== null && r.requests.total ? ((cpu1 - cpu0) * 1000) / r.requests.total : null,
    serverCpuPct: cpu0 !== null && cpu1 !== null ? (100 * (cpu1 - cpu0)) / r.duration : null,
    loadavg: Number(load0),
  })}\n`,
);
