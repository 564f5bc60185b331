import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { CONTENT, isContent, type Tag } from './tags.js';
import { reportRedisErrors } from './redis-errors.js';
import type { TableWrites } from '../db/table-writes.js';

/** What one change message carries between processes. */
interface ChangeMessage {
  from: string;
  tags: Tag[];
}

/** Hears the tags of every committed change, this process's and the others'. */
export type ChangeListener = (tags: readonly Tag[]) => void;

/**
 * The change bus: after a write commits, its tags reach every listener in this process at once
 * (before the request answers, so the writer's next read is fresh) and, with Redis, every other
 * process within milliseconds (a channel under the Redis prefix, on a subscriber connection of
 * its own). The caches listen (core/cache.ts); each keeps a TTL as a safety net for a message
 * lost while a subscriber reconnects and for a change a CLI process made without Redis.
 */
export class ChangeBus {
  private listeners: ChangeListener[] = [];
  private subscriber: Redis | null = null;
  private ready: Promise<unknown> | null = null;
  private publishing = new Set<Promise<unknown>>();
  private readonly id = randomBytes(8).toString('hex');
  private readonly channel: string;
  /** Changes heard so far (this process's and others'): caches compare it across a build. */
  seq = 0;

  constructor(
    private readonly redis: Redis | null,
    prefix: string,
    private readonly log: Pick<FastifyBaseLogger, 'error' | 'info'>,
  ) {
    this.channel = `${prefix}changes`;
    if (redis) {
      // A connection in subscriber mode can issue no other command: it needs its own.
      const sub = redis.duplicate();
      this.subscriber = sub;
      reportRedisErrors(sub, this.log, 'change channel');
      sub.on('message', (channel: string, raw: string) => {
        if (channel === this.channel) this.receive(raw);
      });
      this.ready = sub.subscribe(this.channel).catch((err: unknown) => this.log.error({ err }, 'change channel subscribe failed'));
    }
  }

  /** Adds a listener of every change. */
  listen(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  /** Tells this process's listeners at once and the other processes through Redis (call after commit). */
  publish(tags: Iterable<Tag>): void {
    const list = withContent(tags);
    if (!list.length) return;
    this.deliver(list);
    if (!this.redis) return;
    const message: ChangeMessage = { from: this.id, tags: list };
    const sent = this.redis
      .publish(this.channel, JSON.stringify(message))
      .catch((err: unknown) => this.log.error({ err }, 'change publish failed'))
      .finally(() => this.publishing.delete(sent));
    this.publishing.add(sent);
  }

  /** Resolves once the subscriber listens (tests; a server starts listening long after). */
  async listening(): Promise<void> {
    await this.ready;
  }

  /** Sends the changes still in flight (a CLI's `config set` exits right after), then closes the subscriber. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.publishing]);
    this.subscriber?.disconnect();
  }

  private receive(raw: string): void {
    try {
      const msg = JSON.parse(raw) as ChangeMessage;
      if (msg.from !== this.id && Array.isArray(msg.tags)) this.deliver(msg.tags.filter((t) => typeof t === 'string'));
    } catch (err) {
      this.log.error({ err }, 'bad change message');
    }
  }

  private deliver(tags: readonly Tag[]): void {
    this.seq++;
    for (const listener of this.listeners) {
      try {
        listener(tags);
      } catch (err) {
        this.log.error({ err }, 'change listener failed');
      }
    }
  }
}

/** The tags, without repeats, with CONTENT added when any of them is content. */
function withContent(tags: Iterable<Tag>): Tag[] {
  const set = new Set(tags);
  for (const t of set) {
    if (isContent(t)) {
      set.add(CONTENT);
      break;
    }
  }
  return [...set];
}

/**
 * Turns the committed writes of one table into change tags: `one(key)` for each value of
 * `column` a statement names (db/table-writes.ts reads them from the statement), or `all` when
 * it names none; `every`, when given, with each write (for caches of lists of the table's rows,
 * which any row may enter). The table's owner calls it once, so a cache of its rows hears every
 * write, whichever code path makes it.
 */
export function tagTableWrites(
  writes: TableWrites,
  changes: ChangeBus,
  table: Parameters<TableWrites['onKeyed']>[0],
  column: string,
  tags: { one: (key: number) => Tag; all: Tag; every?: Tag },
): void {
  const { one, all, every } = tags;
  writes.onKeyed(table, column, (keys) => {
    const list = keys ? keys.map(one) : [all];
    if (every) list.push(every);
    changes.publish(list);
  });
}
