import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { serverHostname } from '../http/client-config.js';
import { Viewers } from './audience.js';
import { asAppError, Calls } from './calls.js';
import { registerChatCalls, type ChatAccess } from './chats.js';
import { registerComposerCalls } from './composer-calls.js';
import type { LiveAlert } from './events.js';
import type { Hub } from './hub.js';
import { registerMemberBridges } from './member-bridges.js';
import { registerMetaCalls } from './meta.js';
import { Presence } from './presence.js';
import { ADMINS, ONLINE_USERS, sessionRoom, userRoom } from './rooms.js';
import { registerStatusRoutes } from './routes.js';
import { createIo, type Io, type IoHandle } from './server.js';
import { checkHandshake, connectError, type LiveSocket } from './session.js';
import { registerUserCalls } from './user-calls.js';

// How long shutdown waits for pushes already under way.
const DRAIN_MS = 2000;

/** The live side of the forum: socket.io, its rooms and calls, presence, and the hook bridges. */
export class Realtime implements Hub {
  readonly io: Io;
  readonly viewers: Viewers;
  readonly presence: Presence;
  readonly calls: Calls;
  private chatAccess: ChatAccess | null = null;
  private pending = new Set<Promise<unknown>>();

  constructor(
    app: FastifyInstance,
    readonly ctx: AppContext,
    private readonly handle: IoHandle,
  ) {
    this.io = handle.io;
    this.viewers = new Viewers(ctx);
    this.presence = new Presence(ctx, this.io, handle.redis);
    this.calls = new Calls(app, ctx, this.viewers);
    registerMetaCalls(this.calls, ctx);
    registerChatCalls(this.calls, () => this.chatAccess);
    registerUserCalls(this.calls, ctx);
    registerComposerCalls(this.calls, ctx);
    registerMemberBridges(this);
    // The chats domain decides who may follow which chat room live (its events: domains/chats/live.ts).
    this.chatAccess = (viewer, roomIds, publicRoom) => ctx.chats.liveAccess(viewer, roomIds, publicRoom);
    this.io.use((socket, next) => {
      checkHandshake(app, ctx, socket).then(
        (found) => {
          socket.data = 'invalid' in found ? { uid: 0, sessionHash: '', currentRoom: null } : { ...found, currentRoom: null };
          next();
        },
        (err: unknown) => next(connectError(asAppError(err, ctx.log))),
      );
    });
    this.io.on('connection', (socket) => this.onConnect(socket));
  }

  private onConnect(socket: LiveSocket): void {
    const { uid, sessionHash } = socket.data;
    if (!(uid > 0)) {
      socket.emit('event:invalid_session');
      socket.disconnect(true);
      return;
    }
    // Rooms and calls are wired before anything awaits, so nothing sent meanwhile is missed.
    this.calls.attach(socket);
    void socket.join([userRoom(uid), sessionRoom(sessionHash), ONLINE_USERS]);
    socket.emit('checkSession', uid);
    socket.emit('setHostname', serverHostname);
    socket.on('disconnect', () => this.later(this.presence.disconnected(uid)));
    this.later(this.presence.connected(uid));
    this.later(this.viewers.get(uid).then(async (v) => v.isAdmin && socket.join(ADMINS)));
  }

  /** Runs a push in the background; its failure is logged, and shutdown waits for it briefly. */
  later(work: Promise<unknown>): void {
    const tracked = work.catch((err: unknown) => this.ctx.log.error({ err }, 'live push failed')).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
    // Background work behind a request, like a queued listener's: `hooks.idle()` waits for it
    // too (a test that counts reads after idle() no longer races the live pushes of its writes).
    this.ctx.hooks.track(tracked);
  }

  /** Shows an alert on every socket of a member (spec §3 alert). */
  alert(uid: number, alert: LiveAlert): void {
    this.io.to(userRoom(uid)).emit('event:alert', alert);
  }

  /** Asks administrators' pages to reload (after a rebuild in development). */
  liveReload(): void {
    this.io.to(ADMINS).emit('event:livereload');
  }

  /** Lets the chats domain decide who may follow which chat room live. */
  setChatAccess(access: ChatAccess): void {
    this.chatAccess = access;
  }

  /** Stops taking sockets and closes this process's; called before the HTTP server closes. */
  async stop(): Promise<void> {
    this.presence.stop();
    this.handle.stop();
    await Promise.race([Promise.allSettled([...this.pending]), new Promise((r) => setTimeout(r, DRAIN_MS).unref())]);
  }

  /**
   * Quits the adapter's Redis clients, after the work that may still broadcast: jobs and
   * queued hook listeners (the context drains them again on its own close, a no-op by then).
   * Quitting first made a late broadcast's publish reject unhandled ("Connection is closed").
   */
  async close(): Promise<void> {
    await this.ctx.jobs.stop();
    await this.ctx.hooks.idle(10_000);
    await Promise.race([Promise.allSettled([...this.pending]), new Promise((r) => setTimeout(r, DRAIN_MS).unref())]);
    await this.handle.close();
  }
}

const instances = new WeakMap<AppContext, Realtime>();

/** The live side of a running forum, for domains that push directly (chats, alerts). */
export function realtimeOf(ctx: AppContext): Realtime | undefined {
  return instances.get(ctx);
}

/**
 * Attaches socket.io to the app's HTTP server, wires calls, presence and the hook bridges,
 * and registers the status routes. Sockets close before the HTTP server does, so shutdown is clean.
 */
export function registerRealtime(app: FastifyInstance, ctx: AppContext): Realtime {
  const rt = new Realtime(app, ctx, createIo(app, ctx));
  ctx.live.attach(rt.io);
  instances.set(ctx, rt);
  registerStatusRoutes(app, ctx, rt.presence);
  app.addHook('preClose', async () => rt.stop());
  app.addHook('onClose', async () => rt.close());
  return rt;
}
