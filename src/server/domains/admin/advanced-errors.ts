import { sql } from 'kysely';
import type { AppContext } from '../../context.js';

const FLUSH_MS = 10_000;
const MAX_PENDING = 10_000;
/** Rows per INSERT: 4 values each stays within the statement cache's 64 placeholders. */
const BATCH = 16;

export interface ErrorEntry {
  status: number;
  path: string;
  count: number;
  lastSeen: number;
}

/**
 * The 404s and 500s this process answers (admin/advanced/errors): counted in memory on the
 * request path (one map update) and flushed in batches to `error_log` every 10 s.
 */
export class ErrorCounter {
  private pending = new Map<string, ErrorEntry>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(private readonly ctx: Pick<AppContext, 'db' | 'log'>) {}

  /** Counts one answer (only 404 and 5xx). */
  record(status: number, rawPath: string): void {
    if (status !== 404 && status < 500) return;
    const path = (rawPath.split('?')[0] ?? '/').slice(0, 300);
    const key = `${status} ${path}`;
    const e = this.pending.get(key);
    if (e) {
      e.count++;
      e.lastSeen = Date.now();
    } else if (this.pending.size < MAX_PENDING) {
      this.pending.set(key, { status, path, count: 1, lastSeen: Date.now() });
    }
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.flush().catch((err: unknown) => this.ctx.log.error({ err }, 'error log flush failed'));
      }, FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Writes the counted answers to the table. */
  async flush(): Promise<void> {
    if (this.flushing) await this.flushing;
    if (!this.pending.size) return;
    const rows = [...this.pending.values()];
    this.pending = new Map();
    this.flushing = (async () => {
      for (let i = 0; i < rows.length; i += BATCH) {
        const batch = rows.slice(i, i + BATCH).map((r) => ({ status: r.status, path: r.path, count: r.count, last_seen: r.lastSeen }));
        await this.ctx.db
          .insertInto('error_log')
          .values(batch)
          .onConflict((oc) => oc.columns(['status', 'path']).doUpdateSet({ count: sql`error_log.count + excluded.count`, last_seen: sql`excluded.last_seen` }))
          .execute();
      }
    })();
    try {
      await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  /** The recorded errors of one status class, the most frequent first. */
  async list(kind: 'not-found' | 'server-error', limit = 500): Promise<ErrorEntry[]> {
    await this.flush();
    let q = this.ctx.db.selectFrom('error_log').selectAll();
    q = kind === 'not-found' ? q.where('status', '=', 404) : q.where('status', '>=', 500);
    const rows = await q.orderBy('count', 'desc').orderBy('last_seen', 'desc').limit(limit).execute();
    return rows.map((r) => ({ status: Number(r.status), path: r.path, count: Number(r.count), lastSeen: Number(r.last_seen) }));
  }

  /** Forgets every recorded error. */
  async clear(): Promise<void> {
    this.pending.clear();
    await this.ctx.db.deleteFrom('error_log').execute();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

const counters = new WeakMap<object, ErrorCounter>();

export function errorCounterOf(ctx: Pick<AppContext, 'db' | 'log'>): ErrorCounter {
  let c = counters.get(ctx);
  if (!c) counters.set(ctx, (c = new ErrorCounter(ctx)));
  return c;
}
