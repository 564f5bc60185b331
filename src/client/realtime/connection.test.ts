import { createServer, connect as tcpConnect, type Server, type Socket as TcpSocket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ClientConfig } from '../../shared/types';
import { hashSecret } from '../../server/domains/auth/service.js';
import { startTestForum, type TestForum } from '../../server/test/harness.js';
import type { HttpClient } from '../../server/test/http-client.js';
import { readFileSync } from 'node:fs';
import type { Runtime } from '../app/runtime';
import { createI18n } from '../i18n';
import type { AlertInput } from '../state/alerts';
import { setSocketCaller } from '../components/composer/socket-call';
import { mentionStrategy } from '../components/composer/strategies';
import { createEmit, isRevalidateFailure, socketOptions, type CallError } from './connection';

/**
 * A TCP relay in front of the forum: the network between a browser and the server, which a
 * test can cut (every open connection dropped, new ones refused) and mend.
 */
class Relay {
  private server: Server | null = null;
  private open = new Set<TcpSocket>();
  port = 0;
  constructor(private readonly target: number) {}

  async up(): Promise<this> {
    this.server = createServer((inbound) => {
      const outbound = tcpConnect(this.target, '127.0.0.1');
      this.open.add(inbound).add(outbound);
      const drop = () => {
        inbound.destroy();
        outbound.destroy();
        this.open.delete(inbound);
        this.open.delete(outbound);
      };
      inbound.on('error', drop).on('close', drop).pipe(outbound);
      outbound.on('error', drop).on('close', drop).pipe(inbound);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    for (const s of this.open) s.destroy();
    this.open.clear();
    await closed;
    this.server = null;
  }
}

let forum: TestForum;
let admin: HttpClient;
const sockets: Socket[] = [];

beforeAll(async () => {
  forum = await startTestForum();
  admin = (await forum.loginAs({ admin: true })).client;
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});
afterAll(async () => forum?.close());

/** The member's client config, as the page gets it. */
const configOf = async (client: HttpClient) => (await client.get('/api/config')).body as ClientConfig;

/** A socket made as the browser makes it (socketOptions from the client config), to `origin`, not yet connected. */
function browserSocket(client: HttpClient, config: ClientConfig, origin = new URL(client.baseUrl).origin): Socket {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const socket = io(origin, { ...socketOptions(config), extraHeaders: { cookie }, autoConnect: false, forceNew: true });
  sockets.push(socket);
  return socket;
}
const connected = (socket: Socket) =>
  new Promise<Socket>((resolve, reject) => {
    if (socket.connected) return resolve(socket);
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
    socket.connect();
  });
const once = <T = unknown>(target: { once(e: string, f: (v: T) => void): unknown }, event: string) => new Promise<T>((resolve) => target.once(event, resolve));

describe('socket client options (spec §9)', () => {
  it('by default: unlimited attempts, 1000 ms growing up to 5000 ms with a jitter of 0.5, a 20 s connect timeout', async () => {
    const { client } = await forum.loginAs();
    const config = await configOf(client);
    expect(config.maxReconnectionAttempts).toBe(0);
    expect(config.reconnectionDelay).toBe(1000);
    const socket = await connected(browserSocket(client, config));
    expect(socket.io.reconnectionAttempts()).toBe(Infinity);
    expect(socket.io.reconnectionDelay()).toBe(1000);
    expect(socket.io.reconnectionDelayMax()).toBe(5000);
    expect(socket.io.randomizationFactor()).toBe(0.5);
    expect(socket.io.timeout()).toBe(20000);
  });

  it('follows the forum\u2019s maxReconnectionAttempts and reconnectionDelay: two attempts, then it gives up', async () => {
    expect((await admin.put('/api/v3/admin/settings', { values: { maxReconnectionAttempts: 2, reconnectionDelay: 200 } })).status).toBe(200);
    try {
      const { client } = await forum.loginAs();
      const config = await configOf(client);
      expect(config).toMatchObject({ maxReconnectionAttempts: 2, reconnectionDelay: 200 });
      const relay = await new Relay(Number(new URL(client.baseUrl).port)).up();
      const socket = await connected(browserSocket(client, config, `http://127.0.0.1:${relay.port}`));
      const attempts: number[] = [];
      socket.io.on('reconnect_attempt', () => attempts.push(Date.now()));
      const failed = once(socket.io, 'reconnect_failed');
      const dropped = Date.now();
      await relay.cut();
      await failed;
      expect(attempts).toHaveLength(2);
      // The first attempt waits the forum's delay, give or take the jitter of 0.5.
      expect(attempts[0]! - dropped).toBeGreaterThanOrEqual(100);
      expect(socket.connected).toBe(false);
    } finally {
      await admin.put('/api/v3/admin/settings', { values: { maxReconnectionAttempts: 0, reconnectionDelay: 1000 } });
    }
  });

  it('with no limit keeps trying until the server is back, then connects again', async () => {
    expect((await admin.put('/api/v3/admin/settings', { values: { reconnectionDelay: 50 } })).status).toBe(200);
    try {
      const { client } = await forum.loginAs();
      const relay = await new Relay(Number(new URL(client.baseUrl).port)).up();
      const socket = await connected(browserSocket(client, await configOf(client), `http://127.0.0.1:${relay.port}`));
      let attempts = 0;
      let failed = false;
      const six = new Promise<void>((resolve) =>
        socket.io.on('reconnect_attempt', () => {
          if (++attempts === 6) resolve();
        }),
      );
      socket.io.on('reconnect_failed', () => (failed = true));
      await relay.cut();
      await six;
      const back = once(socket, 'connect');
      await relay.up();
      await back;
      expect(socket.connected).toBe(true);
      expect(failed).toBe(false);
    } finally {
      await admin.put('/api/v3/admin/settings', { values: { reconnectionDelay: 1000 } });
    }
  });
});

describe('emit (spec §7)', () => {
  it('returns a promise of the answer, or gives it to a callback, error first', async () => {
    const { client } = await forum.loginAs();
    const socket = await connected(browserSocket(client, await configOf(client)));
    const emit = createEmit(socket);
    expect(await emit('meta.reconnected')).toMatchObject({ 'cache-buster': forum.ctx.config.cacheBuster });

    const answered = await new Promise<[CallError | null, unknown]>((resolve) => void emit('meta.reconnected', (err: CallError | null, data: unknown) => resolve([err, data])));
    expect(answered[0]).toBeNull();
    expect(answered[1]).toMatchObject({ 'cache-buster': forum.ctx.config.cacheBuster });

    const refused = await new Promise<CallError | null>((resolve) => void emit('meta.rooms.enter', { enter: 42 }, (err: CallError | null) => resolve(err)));
    expect(refused).toMatchObject({ key: 'error:invalid-data', message: '[[error:invalid-data]]' });
    await expect(emit('meta.rooms.enter', { enter: 42 })).rejects.toMatchObject({ key: 'error:invalid-data' });
  });

  it('a revalidation failure disconnects and connects again (a new handshake) instead of being an error to show', async () => {
    const { client } = await forum.loginAs();
    const socket = await connected(browserSocket(client, await configOf(client)));
    const emit = createEmit(socket);
    await emit('meta.rooms.enter', { enter: 'recent_topics' });
    await forum.ctx.auth.destroySession(hashSecret(client.cookies.get('palaver.sid')!));
    const reasons: string[] = [];
    socket.on('disconnect', (r) => reasons.push(r));
    // The new handshake finds the session gone, and the server says so.
    const invalid = once(socket, 'event:invalid_session');
    const err = await emit('meta.rooms.leaveCurrent').catch((e: CallError) => e);
    expect(err).toMatchObject({ key: 'error:revalidate-failure' });
    expect(isRevalidateFailure(err)).toBe(true);
    await invalid;
    expect(reasons[0]).toBe('io client disconnect');
    // Any other refusal is not one.
    expect(isRevalidateFailure(Object.assign(new Error('[[error:invalid-data]]'), { key: 'error:invalid-data' }))).toBe(false);
  });
});

describe('the composer\u2019s socket calls (spec §8)', () => {
  it('a refused group list shows an error alert, and the suggestions still come', async () => {
    const { client, user } = await forum.loginAs();
    const socket = await connected(browserSocket(client, await configOf(client)));
    const en = (ns: string) => JSON.parse(readFileSync(`public/language/en-GB/${ns}.json`, 'utf8')) as Record<string, string>;
    const alerts: AlertInput[] = [];
    const rt = { i18n: createI18n('en-GB', { 'en-GB': { error: en('error'), global: en('global') } }), alert: (a: AlertInput) => (alerts.push(a), 'id') } as unknown as Runtime;
    setSocketCaller(rt, createEmit(socket));
    // Members may not see groups any more: the server refuses plugins.mentions.listGroups.
    await forum.ctx.privileges.take(0, ['view:groups'], 'registered-users');
    try {
      const found = await mentionStrategy(rt, 0).search(user.username.slice(0, 3));
      expect(alerts).toEqual([expect.objectContaining({ type: 'error', title: 'Error', message: 'You do not have enough privileges for this action.' })]);
      // Members found by name still come (others named like the searcher); no group among them.
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((m) => m.kind === 'user')).toBe(true);
    } finally {
      await forum.ctx.privileges.give(0, ['view:groups'], 'registered-users');
    }
  });
});
