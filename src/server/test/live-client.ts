import { io as ioClient, type Socket } from 'socket.io-client';
import type { CallError } from '../realtime/events.js';
import type { HttpClient } from './http-client.js';

/** A socket.io client as a browser tab would hold one. */
export type LiveClient = Socket;

/**
 * A socket for an HTTP client's session, not yet connected (so a test can listen for what
 * arrives on connect). `csrf: null` sends none; transports default to the spec's order.
 */
export async function liveSocket(client: HttpClient, opts: { csrf?: string | null; transports?: ('websocket' | 'polling')[] } = {}): Promise<LiveClient> {
  const base = new URL(client.baseUrl);
  const csrf = opts.csrf === undefined ? (client.cookies.size ? await client.refreshCsrf() : null) : opts.csrf;
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return ioClient(base.origin, {
    path: `${base.pathname.replace(/\/$/, '')}/socket.io`,
    query: csrf === null ? {} : { _csrf: csrf },
    extraHeaders: cookie ? { cookie } : {},
    transports: opts.transports ?? ['websocket', 'polling'],
    reconnection: false,
    autoConnect: false,
    forceNew: true,
  });
}

/** Connects and resolves once connected; rejects with the server's refusal. */
export async function connect(socket: LiveClient): Promise<LiveClient> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
    socket.connect();
  });
}

/** A connected socket for an HTTP client's session. */
export async function connectLive(client: HttpClient, opts?: Parameters<typeof liveSocket>[1]): Promise<LiveClient> {
  return connect(await liveSocket(client, opts));
}

/** The next `event` on the socket (the next one passing `where`, when given); rejects after `ms`. */
export function nextEvent<T = unknown>(socket: LiveClient, event: string, ms = 5000, where?: (data: T) => boolean): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, on);
      reject(new Error(`no ${event} within ${ms} ms`));
    }, ms);
    const on = (data: T) => {
      if (where && !where(data)) return;
      clearTimeout(timer);
      socket.off(event, on);
      resolve(data);
    };
    socket.on(event, on);
  });
}

/** Every `event` the socket receives from now on, collected. */
export function collect<T = unknown>(socket: LiveClient, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (data: T) => seen.push(data));
  return seen;
}

/** A NodeBB-style call: resolves with the callback's result, rejects with its error. */
export function call<T = unknown>(socket: LiveClient, name: string, ...payload: unknown[]): Promise<T> {
  return new Promise((resolve, reject) => {
    socket.timeout(5000).emit(name, ...payload, (timeout: Error | null, err: CallError | null, result: T) => {
      if (timeout) reject(timeout);
      else if (err) reject(Object.assign(new Error(err.message), err));
      else resolve(result);
    });
  });
}

/** Resolves once the socket is disconnected, with the reason. */
export function disconnected(socket: LiveClient, ms = 5000): Promise<string> {
  if (socket.disconnected && !socket.active) return Promise.resolve('already');
  return nextEvent<string>(socket, 'disconnect', ms);
}

/**
 * Resolves once everything the forum has pushed so far has reached these sockets, so a test may
 * then assert that a push did not arrive (no fixed wait): the forum's background work (listeners,
 * outbox runs, live deliveries) is idle, then each socket makes a round trip, whose answer the
 * server writes after anything it wrote to that socket before.
 */
export async function delivered(forum: { ctx: { hooks: { idle(): Promise<void> } } }, ...sockets: LiveClient[]): Promise<void> {
  await forum.ctx.hooks.idle();
  await Promise.all(sockets.map((s) => call(s, 'meta.reconnected')));
}
