import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** The caches every process keeps and every process must drop when the data changes. */
export type SharedCacheName = 'settings' | 'privileges' | 'viewers' | 'ipBlacklist' | 'widgets' | 'guestPages' | 'rewards' | 'topics' | 'blocks' | 'watches' | 'sessions' | 'chatCounts' | 'notifications';

interface ClearMessage {
  name: SharedCacheName;
  from: string;
}

/**
 * Clears in-process caches in every process: at once in this one, and through Redis
 * pub/sub (a channel under the Redis prefix, on a subscriber connection of its own) in the
 * others. Without Redis there is one process, so the local clear is all there is. Each
 * cache keeps a TTL as a safety net for a message lost while a subscriber reconnects.
 */
export class SharedCaches {
  private clearers = new Map<SharedCacheName, Set<() => void>>();
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

  /** Registers how this process drops one of its caches. */
  register(name: SharedCacheName, clear: () => void): void {
    let set = this.clearers.get(name);
    if (!set) this.clearers.set(name, (set = new Set()));
    set.add(clear);
  }

  /** Drops the cache here at once and tells the other processes (call after commit). */
  clear(name: SharedCacheName): void {
    this.clearLocal(name);
    if (!this.redis) return;
    const message: ClearMessage = { name, from: this.id };
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
      if (msg.from !== this.id) this.clearLocal(msg.name);
    } catch (err) {
      this.log.error({ err }, 'bad cache clear message');
    }
  }

  private clearLocal(name: SharedCacheName): void {
    for (const clear of this.clearers.get(name) ?? []) clear();
  }
}
