import { createRequire } from 'node:module';
import type * as RedisAdapter from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { Server } from 'socket.io';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import type { ClientToServerEvents, ServerToClientEvents, SocketData } from './events.js';
import { reportRedisErrors } from '../core/redis-errors.js';
import { socketOriginAllowed, socketOrigins } from './origins.js';

/** The socket.io server with Palaver's event maps. */
export type Io = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** The server and the Redis clients it owns (quit on close). */
export interface IoHandle {
  io: Io;
  /** A Redis client for plain commands (presence), null without REDIS_URL. */
  redis: Redis | null;
  /** Stops accepting sockets and drops this process's ones; other processes keep theirs. */
  stop(): void;
  /** Quits the adapter's Redis clients. */
  close(): Promise<void>;
}

// A cross-process request (fetchSockets, serverSideEmit) gives up on a silent process after this.
const ADAPTER_REQUEST_TIMEOUT_MS = 3000;

/**
 * Attaches socket.io at `{relative_path}/socket.io` to the app's HTTP server; with REDIS_URL,
 * the Redis adapter carries broadcasts and room queries between processes.
 */
export function createIo(app: FastifyInstance, ctx: AppContext): IoHandle {
  const pub = ctx.redis ? ctx.redis.duplicate() : null;
  const sub = ctx.redis ? ctx.redis.duplicate() : null;
  const io: Io = new Server(app.server, {
    path: `${ctx.config.relativePath}/socket.io`,
    transports: ctx.config.socketTransports,
    serveClient: false,
    // Spec §9 allows 20 s to connect; pings find dead peers well before the proxy's idle timeout.
    connectTimeout: 20_000,
    pingInterval: 25_000,
    pingTimeout: 20_000,
    maxHttpBufferSize: 1e6,
    // Only the allowed origins (PALAVER_SOCKET_ORIGINS) open a socket, over either transport;
    // the list is read per request, so it follows the configured URL.
    allowRequest: (req, done) => done(null, socketOriginAllowed(req.headers.origin, req.headers.host, socketOrigins(ctx.config))),
    cors: { origin: (origin, done) => done(null, socketOriginAllowed(origin, undefined, socketOrigins(ctx.config))), credentials: true },
    ...(pub && sub
      ? {
          // Loaded only when Redis is configured: a single-process forum never needs it.
          adapter: (createRequire(import.meta.url)('@socket.io/redis-adapter') as typeof RedisAdapter).createAdapter(pub, sub, {
            key: `${ctx.config.redisPrefix}socket.io`,
            requestsTimeout: ADAPTER_REQUEST_TIMEOUT_MS,
            publishOnSpecificResponseChannel: true,
          }),
        }
      : {}),
  });
  if (pub) reportRedisErrors(pub, ctx.log, 'socket.io publisher');
  if (sub) reportRedisErrors(sub, ctx.log, 'socket.io subscriber');
  return {
    io,
    redis: pub,
    stop() {
      io.local.disconnectSockets(true);
      io.engine.close();
    },
    async close() {
      await Promise.resolve(io.of('/').adapter.close()).catch(() => undefined);
      await Promise.allSettled([pub, sub].map(async (c) => c?.quit()));
    },
  };
}
