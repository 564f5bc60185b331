import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Audience } from '../domains/privileges/guardian.js';
import { coalesceWebSocketWrites, writeTogether } from './coalesce.js';
import type { ServerEvent, ServerToClientEvents } from './events.js';
import type { Io } from './server.js';
import { reportRedisErrors } from '../core/redis-errors.js';

/** One live event: where it goes, who may have it, and what it says. */
export interface LiveMessage<E extends ServerEvent = ServerEvent> {
  rooms: string[];
  audience: Audience;
  event: E;
  args: Parameters<ServerToClientEvents[E]>;
}

export type { Audience };

/** The guardian's answer for a member and an audience (the privileges domain gives it). */
export type AudienceCheck = (uid: number, audience: Audience) => Promise<boolean>;

/** Sockets in some rooms stop following others (a member left a chat room). */
export interface LiveLeave {
  /** Whose sockets: those in any of these rooms (a member's own room). */
  from: string[];
  /** The rooms they leave. */
  rooms: string[];
}

interface Wire {
  from: string;
  message?: LiveMessage;
  messages?: LiveMessage[];
  leave?: LiveLeave;
}

/**
 * Live events published once, with their audience (Discourse's message bus): this process
 * delivers to its own sockets at once, and through Redis every other process delivers to its
 * own. Each process asks the guardian once per member among its sockets in the rooms, and
 * writes only to the sockets it holds: no process waits on another's sockets (socket.io's
 * `fetchSockets` asked every process for its sockets on every event, and one stalled process
 * held every event up to three seconds, then dropped it). A process without sockets (the
 * command line) publishes for the servers.
 */
export class LiveBus {
  private io: Io | null = null;
  private subscriber: Redis | null = null;
  private readonly id = randomBytes(8).toString('hex');
  private readonly channel: string;
  private ready: Promise<unknown> | null = null;
  private pending = new Set<Promise<unknown>>();

  constructor(
    private readonly redis: Redis | null,
    prefix: string,
    private readonly allows: AudienceCheck,
    private readonly log: Pick<FastifyBaseLogger, 'error' | 'info'>,
    /** Counts deliveries among the background work the forum waits for (HookBus.track). */
    private readonly background: (work: Promise<unknown>) => void = () => undefined,
  ) {
    this.channel = `${prefix}live`;
    if (redis) {
      const sub = redis.duplicate();
      this.subscriber = sub;
      reportRedisErrors(sub, this.log, 'live channel');
      sub.on('message', (channel: string, raw: string) => {
        if (channel === this.channel) this.receive(raw);
      });
      this.ready = sub.subscribe(this.channel).catch((err: unknown) => this.log.error({ err }, 'live channel subscribe failed'));
    }
  }

  /** The sockets this process delivers to (the realtime layer attaches its server). */
  attach(io: Io): void {
    this.io = io;
    // Packets queued for a socket go out in one write (publishAll relies on it).
    coalesceWebSocketWrites();
  }

  /** Resolves once the subscriber listens (tests). */
  async listening(): Promise<void> {
    await this.ready;
  }

  /** Publishes an event: this process's sockets at once, the others' through Redis. */
  publish<E extends ServerEvent>(message: LiveMessage<E>): void {
    this.track(this.deliver(message as unknown as LiveMessage));
    if (!this.redis) return;
    const wire: Wire = { from: this.id, message: message as unknown as LiveMessage };
    this.track(this.redis.publish(this.channel, JSON.stringify(wire)));
  }

  /**
   * Publishes several events at once: a local socket that several of them reach gets them in
   * one write (realtime/coalesce.ts), as a busy chat room's messages of one turn.
   */
  publishAll(messages: LiveMessage[]): void {
    if (messages.length <= 1) {
      for (const m of messages) this.publish(m);
      return;
    }
    this.deliverAll(messages);
    if (!this.redis) return;
    const wire: Wire = { from: this.id, messages };
    this.track(this.redis.publish(this.channel, JSON.stringify(wire)));
  }

  /** Makes the sockets in `from` rooms leave `rooms`, in every process (a member left a chat room). */
  leave(leave: LiveLeave): void {
    this.leaveHere(leave);
    if (!this.redis) return;
    const wire: Wire = { from: this.id, leave };
    this.track(this.redis.publish(this.channel, JSON.stringify(wire)));
  }

  /** Resolves once the deliveries and publishes under way are done (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  /** Stops hearing other processes. */
  async close(): Promise<void> {
    await this.idle();
    this.subscriber?.disconnect();
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch((err: unknown) => this.log.error({ err }, 'live delivery failed')).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
    this.background(tracked);
  }

  private receive(raw: string): void {
    try {
      const wire = JSON.parse(raw) as Wire;
      if (wire.from === this.id) return;
      if (wire.message && Array.isArray(wire.message.rooms)) this.track(this.deliver(wire.message));
      if (Array.isArray(wire.messages)) this.deliverAll(wire.messages.filter((m) => m && Array.isArray(m.rooms)));
      if (wire.leave && Array.isArray(wire.leave.from) && Array.isArray(wire.leave.rooms)) this.leaveHere(wire.leave);
    } catch (err) {
      this.log.error({ err }, 'bad live message');
    }
  }

  /** This process's sockets in `from` leave `rooms`. */
  private leaveHere({ from, rooms }: LiveLeave): void {
    if (!this.io || !from.length) return;
    this.io.local.in(from).socketsLeave(rooms);
  }

  /**
   * Delivers several events here, those for everyone in their rooms written together (their
   * emits run at once, so coalescing holds each socket's packets for one write); the others
   * one by one.
   */
  private deliverAll(messages: LiveMessage[]): void {
    const io = this.io;
    const open = messages.filter((m) => m.audience.kind === 'any');
    const checked = messages.filter((m) => m.audience.kind !== 'any');
    if (io && open.length) {
      // An 'any' delivery emits before its first await: all of them run inside writeTogether.
      writeTogether(io, new Set(open.flatMap((m) => m.rooms)), () => {
        for (const m of open) this.track(this.deliver(m));
      });
    }
    for (const m of checked) this.track(this.deliver(m));
  }

  /** Writes the event to this process's sockets in the rooms whose member the audience admits. */
  private async deliver(message: LiveMessage): Promise<void> {
    const io = this.io;
    if (!io) return;
    const nsp = io.of('/');
    const ids = new Set<string>();
    for (const room of message.rooms) for (const id of nsp.adapter.rooms.get(room) ?? []) ids.add(id);
    if (!ids.size) return;
    let allowed: string[];
    if (message.audience.kind === 'any') {
      allowed = [...ids];
    } else {
      const verdicts = new Map<number, Promise<boolean>>();
      const asked: [string, Promise<boolean>][] = [];
      for (const id of ids) {
        const uid = nsp.sockets.get(id)?.data.uid ?? 0;
        if (!(uid > 0)) continue;
        let verdict = verdicts.get(uid);
        if (!verdict) verdicts.set(uid, (verdict = this.allows(uid, message.audience)));
        asked.push([id, verdict]);
      }
      allowed = [];
      for (const [id, verdict] of asked) if (await verdict) allowed.push(id);
    }
    if (!allowed.length) return;
    (io.local.to(allowed).emit as (event: string, ...args: unknown[]) => boolean)(message.event, ...message.args);
  }
}
