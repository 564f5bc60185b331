import { createServer, Socket, type Server } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../test/net.js';
import { reportRedisErrors } from './redis-errors.js';

/** What the forum's logger was given, by level. */
function recorder() {
  const lines: { level: 'error' | 'info'; msg: string }[] = [];
  return {
    lines,
    log: {
      error: (_obj: object, msg: string) => void lines.push({ level: 'error', msg }),
      info: (_obj: object, msg: string) => void lines.push({ level: 'info', msg }),
    } as never,
  };
}

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A TCP proxy to the real Redis that a test can take down and bring back on the same port. */
class Proxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  constructor(
    readonly port: number,
    private readonly target: URL,
  ) {}
  async up(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = new Socket().connect(Number(this.target.port || 6379), this.target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => this.sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => this.server!.listen(this.port, '127.0.0.1', r));
  }
  async down(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    this.server = null;
  }
}

const clients: Redis[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.disconnect();
});

describe('Redis connection errors', () => {
  it('are logged once per outage, however often the client retries', async () => {
    const port = await freePort();
    const { lines, log } = recorder();
    const client = new Redis({ host: '127.0.0.1', port, retryStrategy: () => 20, maxRetriesPerRequest: 0, lazyConnect: false });
    clients.push(client);
    let errors = 0;
    client.on('error', () => (errors += 1));
    reportRedisErrors(client, log, 'test');
    await until('several failed attempts', () => errors >= 5);
    expect(lines.filter((l) => l.level === 'error')).toHaveLength(1);
  });

  it.skipIf(!process.env.REDIS_URL)('log the return, and the next outage once again', async () => {
    const proxy = new Proxy(await freePort(), new URL(process.env.REDIS_URL!));
    await proxy.up();
    const { lines, log } = recorder();
    const client = new Redis({ host: '127.0.0.1', port: proxy.port, retryStrategy: () => 20, maxRetriesPerRequest: 0 });
    clients.push(client);
    let errors = 0;
    client.on('error', () => (errors += 1));
    reportRedisErrors(client, log, 'test');
    await until('the client is ready', () => client.status === 'ready');
    for (let outage = 1; outage <= 2; outage++) {
      const before = errors;
      await proxy.down();
      await until('several failed attempts', () => errors >= before + 3);
      await proxy.up();
      await until('the client is ready again', () => client.status === 'ready');
      expect(lines.map((l) => l.level)).toEqual(Array.from({ length: outage }, () => ['error', 'info']).flat());
    }
    expect(await client.ping()).toBe('PONG');
  });
});
