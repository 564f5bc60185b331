// Starting, probing and stopping benchmark servers (each in its own process, on loopback).
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';

/** A free loopback port. */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** One plain HTTP request (a connection of its own unless given an `agent`); resolves { status, headers, body }. */
export function request(url, { method = 'GET', headers = {}, body, timeout = 10_000, agent = false } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent, timeout }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: ${method} ${url}`)));
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat, or null. */
export function cpuSeconds(pid) {
  if (!pid) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Resident set size of a process in bytes (Linux /proc), or null. */
export function rssOf(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Spawns `node [nodeArgs] script args` with env and waits for the first 200 on probePath.
 * Returns { child, pid, port, base, startupMs, stop() }. Start-up is timed from spawn.
 */
export async function startProcess({ script, args = [], nodeArgs = [], env, port, probePath = '/', logFile, timeoutMs = 60_000, name = 'server' }) {
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = logFile ? createWriteStream(logFile, { flags: 'a' }) : null;
  let tail = '';
  const keep = (chunk) => {
    log?.write(chunk);
    tail = (tail + chunk.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = null;
  const exitPromise = new Promise((resolve) => child.once('exit', (code, signal) => resolve((exited = { code, signal }))));
  let startupMs = null;
  // Bounded: polls every 5 ms until the first 200 or the time-out.
  while (performance.now() - t0 < timeoutMs) {
    if (exited) throw new Error(`${name} exited (${exited.code ?? exited.signal}) before answering:\n${tail}`);
    try {
      const res = await request(base + probePath, { timeout: 2000 });
      if (res.status === 200) {
        startupMs = performance.now() - t0;
        break;
      }
    } catch {
      // not listening yet
    }
    await sleep(5);
  }
  if (startupMs === null) {
    child.kill('SIGKILL');
    throw new Error(`${name} did not answer 200 on ${probePath} within ${timeoutMs} ms:\n${tail}`);
  }
  return {
    child,
    pid: child.pid,
    port,
    base,
    startupMs,
    tail: () => tail,
    rss: () => rssOf(child.pid),
    async stop() {
      if (exited) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const result = await exitPromise;
      clearTimeout(timer);
      log?.end();
      return result;
    },
  };
}
