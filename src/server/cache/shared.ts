import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** The caches every process keeps and every process must drop when the data changes. */
export type SharedCacheName = 'settings' | 'privileges' | 'viewers' | 'ipBlacklist' | 'widgets' | 'guestPages' | 'rewards' | 'topics' | 'blocks' | 'watches' | 'sessions' | 'chatCounts' | 'notifications' | 'memberReads' | 'tags';

interface ClearMessage {
  name: SharedCacheName;
  from: string;
  /** The keys cleared (members' uids), when not the whole cache. */
  keys?: number[];
}

/** Drops a cache, or only its entries of these keys (a cache kept per member: their uids). */
export type Clearer = (keys?: readonly number[]) => void;

/**
 * Clears in-process caches in every process: at once in this one, and through Redis
 * pub/sub (a channel under the Redis prefix, on a subscriber connection of its own) in the
 * others. Without Redis there is one process, so the local clear is all there is. Each
 * cache keeps a TTL as a safety net for a message lost while a subscriber reconnects.
 */
export class SharedCaches {
  private clearers = new Map<SharedCacheName, Set<Clearer>>();
  private subscriber: Redis | null = null;
  private ready: Promise<unknown> | null = null;
  private publishing = new Set<Promise<unknown>>();
  private readonly id = randomBytes(8).toString('hex');
  private readonly channel: string;

  constructor(
    private readonly redis: Redis | null,
    prefix: string,
    private readonly log: Pick<FastifyBaseLogger, 'error'>,
  ) {
    this.channel = `${prefix}cache:clear`;
    if (redis) {
      // A connection in subscriber mode can issue no other command: it needs its own.
      const sub = redis.duplicate();
      this.subscriber = sub;
      sub.on('message', (channel: string, raw: string) => {
        if (channel === this.channel) this.receive(raw);
      });
      this.ready = sub.subscribe(this.channel).catch((err: unknown) => this.log.error({ err }, 'cache channel subscribe failed'));
    }
  }

  /**
   * Registers how this process drops one of its caches. A cache kept per key is given the keys
   * of a keyed clear; one that ignores them is dropped whole, which is never wrong.
   */
  register(name: SharedCacheName, clear: Clearer): void {
    let set = this.clearers.get(name);
    if (!set) this.clearers.set(name, (set = new Set()));
    set.add(clear);
  }

  /**
   * Drops the cache here at once and tells the other processes (call after commit); given
   * keys, only their entries (see register).
   */
  clear(name: SharedCacheName, keys?: readonly number[]): void {
    this.clearLocal(name, keys);
    if (!this.redis) return;
    const message: ClearMessage = keys ? { name, from: this.id, keys: [...keys] } : { name, from: this.id };
    const sent = this.redis
      .publish(this.channel, JSON.stringify(message))
      .catch((err: unknown) => this.log.error({ err, cache: name }, 'cache clear publish failed'))
      .finally(() => this.publishing.delete(sent));
    this.publishing.add(sent);
  }

  /** Resolves once the subscriber listens (tests; a server starts listening long after). */
  async listening(): Promise<void> {
    await this.ready;
  }

  /** Sends the clears still in flight (a CLI's `config set` exits right after), then closes the subscriber. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.publishing]);
    this.subscriber?.disconnect();
  }

  private receive(raw: string): void {
    try {
      const msg = JSON.parse(raw) as ClearMessage;
      if (msg.from !== this.id) this.clearLocal(msg.name, Array.isArray(msg.keys) ? msg.keys.filter((k) => typeof k === 'number') : undefined);
    } catch (err) {
      this.log.error({ err }, 'bad cache clear message');
    }
  }

  private clearLocal(name: SharedCacheName, keys?: readonly number[]): void {
    for (const clear of this.clearers.get(name) ?? []) clear(keys);
  }
}
