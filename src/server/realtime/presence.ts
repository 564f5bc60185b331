import type { Redis } from 'ioredis';
import type { AppContext } from '../context.js';
import type { UserStatus } from './events.js';
import { ONLINE_USERS, userRoom } from './rooms.js';
import type { Io } from './server.js';

// Each process re-marks its members this often; a member unseen for three beats (a crashed
// process's) counts as offline, so presence heals itself without a shutdown hook.
const HEARTBEAT_MS = 60_000;
const ONLINE_CUTOFF_MS = 3 * HEARTBEAT_MS;

/** When each member was last seen with a socket open: shared through Redis, or in memory alone. */
interface PresenceStore {
  mark(uids: number[], at: number): Promise<void>;
  remove(uid: number): Promise<void>;
  lastSeen(uid: number): Promise<number | null>;
  prune(before: number): Promise<void>;
}

class MemoryPresence implements PresenceStore {
  private seen = new Map<number, number>();
  async mark(uids: number[], at: number) {
    for (const uid of uids) this.seen.set(uid, at);
  }
  async remove(uid: number) {
    this.seen.delete(uid);
  }
  async lastSeen(uid: number) {
    return this.seen.get(uid) ?? null;
  }
  async prune(before: number) {
    for (const [uid, at] of this.seen) if (at < before) this.seen.delete(uid);
  }
}

class RedisPresence implements PresenceStore {
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {}
  async mark(uids: number[], at: number) {
    if (uids.length) await this.redis.zadd(this.key, ...uids.flatMap((uid) => [at, String(uid)]));
  }
  async remove(uid: number) {
    await this.redis.zrem(this.key, String(uid));
  }
  async lastSeen(uid: number) {
    const score = await this.redis.zscore(this.key, String(uid));
    return score === null ? null : Number(score);
  }
  async prune(before: number) {
    await this.redis.zremrangebyscore(this.key, '-inf', `(${before}`);
  }
}

/** Who is online, across every process, and the status each member shows others. */
export class Presence {
  private readonly store: PresenceStore;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly ctx: AppContext,
    private readonly io: Io,
    redis: Redis | null,
  ) {
    this.store = redis ? new RedisPresence(redis, `${ctx.config.redisPrefix}presence`) : new MemoryPresence();
    this.timer = setInterval(() => void this.heartbeat().catch((err: unknown) => ctx.log.warn({ err }, 'presence heartbeat failed')), HEARTBEAT_MS);
    this.timer.unref();
  }

  /** True when the member has a socket open on some process. */
  async isOnline(uid: number): Promise<boolean> {
    const at = await this.store.lastSeen(uid);
    return at !== null && at >= Date.now() - ONLINE_CUTOFF_MS;
  }

  /** The status others see: the chosen one while online, else offline. */
  async statusOf(uid: number, chosen?: string): Promise<UserStatus> {
    const status = chosen ?? (await this.ctx.users.get(uid))?.status ?? 'offline';
    return (await this.isOnline(uid)) ? (status as UserStatus) : 'offline';
  }

  /** A member's socket connected: mark them online and tell others if they just arrived. */
  async connected(uid: number): Promise<void> {
    const was = await this.isOnline(uid);
    await this.store.mark([uid], Date.now());
    if (!was) await this.announceMovement(uid, false);
  }

  /** A member's socket closed: when it was their last one anywhere, they go offline. */
  async disconnected(uid: number): Promise<void> {
    const left = await this.io.in(userRoom(uid)).fetchSockets();
    if (left.length) return;
    await this.store.remove(uid);
    await this.announceMovement(uid, true);
  }

  /** A member chose a new status: everyone connected sees what it makes them look like. */
  async changed(uid: number, chosen: string): Promise<void> {
    this.io.to(ONLINE_USERS).emit('event:user_status_change', { uid, status: await this.statusOf(uid, chosen) });
  }

  private async announceMovement(uid: number, leaving: boolean): Promise<void> {
    const chosen = (await this.ctx.users.get(uid))?.status ?? 'offline';
    // A member who chose "offline" stays invisible: arriving and leaving say nothing.
    if (chosen === 'offline') return;
    this.io.to(ONLINE_USERS).emit('event:user_status_change', { uid, status: leaving ? 'offline' : (chosen as UserStatus) });
  }

  /** Re-marks this process's members and forgets those nobody has seen for a while. */
  async heartbeat(): Promise<void> {
    const now = Date.now();
    const uids = new Set<number>();
    for (const socket of this.io.of('/').sockets.values()) if (socket.data.uid > 0) uids.add(socket.data.uid);
    await this.store.mark([...uids], now);
    await this.store.prune(now - ONLINE_CUTOFF_MS);
  }

  /** Stops the heartbeat. */
  stop(): void {
    clearInterval(this.timer);
  }
}
