import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.js';
import { afterCommit } from '../db/reentrant.js';
import type { DurableSink, HookBus } from '../hooks/bus.js';
import * as store from './outbox-store.js';
import type { OutboxRow } from './outbox-store.js';

/** How the outbox runs its rows. */
export interface OutboxOptions {
  /** How long a row stays with the process that took it before another may (default 60 s). */
  leaseMs?: number;
  /** How often rows left by other processes (or a crash) are looked for (default 1 s). */
  pollMs?: number;
  /** Tries before a row is marked failed (default 12: with the back-off, about a day). */
  maxAttempts?: number;
}

// Never written to the outbox (a hook's member row carries its password hash): durable
// listeners re-read the member when they need more than the uid.
const SECRET_FIELDS = new Set(['password_hash']);
const withoutSecrets = (key: string, value: unknown) => (SECRET_FIELDS.has(key) ? undefined : value);

const BACKOFF_BASE_MS = 5_000;
const BACKOFF_MAX_MS = 4 * 60 * 60 * 1000;
const BATCH = 100;

/**
 * The transactional outbox: the durable side effects of actions. A hook fired inside an action
 * with durable listeners (notifications, mentions, mail, push, later federation) is one row
 * written in the action's own transaction, born leased to this process; once the transaction
 * commits this process runs it at once, and deletes it when every listener is done. If the
 * process dies first, the row outlives it: when its lease ends, a poll of any process (or of
 * this one restarted) takes it and runs what is left. A failing listener is retried with
 * back-off, alone; after `maxAttempts` the row stays as failed for the admin to see.
 * Listeners must be safe to run twice (a crash after a listener but before the row's update).
 */
export class Outbox implements DurableSink {
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly maxAttempts: number;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<unknown> | null = null;
  private done: number[] = [];
  private flushing: Promise<void> | null = null;
  private running = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly hooks: HookBus,
    private readonly log: Pick<FastifyBaseLogger, 'error' | 'warn'>,
    opts: OutboxOptions = {},
  ) {
    this.leaseMs = opts.leaseMs ?? 60_000;
    this.pollMs = opts.pollMs ?? 1000;
    this.maxAttempts = opts.maxAttempts ?? 12;
    hooks.useDurableSink(this);
  }

  /**
   * Writes a fired hook's row (in the open transaction when there is one: the reentrant
   * database joins it) and runs it once that commits; outside a transaction, at once.
   */
  async write(hook: string, data: unknown, listeners: string[]): Promise<void> {
    const now = Date.now();
    const row = await store.insert(this.db, { hook, payload: JSON.stringify(data, withoutSecrets), pending: JSON.stringify(listeners), run_at: now, lease_owner: this.owner, lease_until: now + this.leaseMs, created: now });
    const run = () => this.start([row]);
    if (!afterCommit(run)) run();
  }

  /** Polls for rows whose lease ended (another process died, or a retry is due). */
  start(rows?: OutboxRow[]): void {
    if (rows) {
      this.track(new Promise<void>((r) => setImmediate(r)).then(() => this.runRows(rows)));
      return;
    }
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (!this.polling) this.polling = this.drain().catch((err: unknown) => this.log.error({ err }, 'outbox poll failed')).finally(() => (this.polling = null));
    }, this.pollMs);
    this.timer.unref();
  }

  /** Stops polling and waits for the rows being run (and their deletes). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.polling;
    await Promise.allSettled([...this.running]);
    await this.flush();
  }

  /** Claims every due row whose lease ended and runs them; returns how many ran (`now` lets tests move the clock). */
  async drain(now = Date.now()): Promise<number> {
    let total = 0;
    for (;;) {
      const rows = await store.claim(this.db, this.owner, now, now + this.leaseMs, BATCH);
      if (!rows.length) break;
      await this.runRows(rows);
      total += rows.length;
      if (rows.length < BATCH) break;
    }
    await this.flush();
    return total;
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch((err: unknown) => this.log.error({ err }, 'outbox run failed')).finally(() => this.running.delete(tracked));
    this.running.add(tracked);
    this.hooks.track(tracked);
  }

  private async runRows(rows: OutboxRow[]): Promise<void> {
    for (const row of rows) await this.runRow(row);
    this.scheduleFlush();
  }

  private async runRow(row: OutboxRow): Promise<void> {
    let data: unknown;
    let pending: string[];
    try {
      data = JSON.parse(row.payload);
      pending = JSON.parse(row.pending) as string[];
    } catch (err) {
      this.log.error({ err, id: row.id, hook: row.hook }, 'outbox row unreadable: dropped');
      this.done.push(row.id);
      return;
    }
    const failed = await this.hooks.runDurable(row.hook, data, pending, row.id);
    if (!failed.length) {
      this.done.push(row.id);
      return;
    }
    const attempts = row.attempts + 1;
    const giveUp = attempts >= this.maxAttempts;
    const backoff = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (attempts - 1));
    if (giveUp) this.log.error({ id: row.id, hook: row.hook, failed }, 'outbox row failed for good');
    await store.retry(this.db, row.id, this.owner, { pending: JSON.stringify(failed), attempts, runAt: Date.now() + backoff, failed: giveUp, error: `listeners failed: ${failed.join(', ')}` });
  }

  /** Deletes the rows done since the last flush, in one statement, after the current turn. */
  private scheduleFlush(): void {
    if (this.flushing || !this.done.length) return;
    this.flushing = new Promise<void>((r) => setImmediate(r)).then(() => this.flush());
    this.track(this.flushing);
  }

  private async flush(): Promise<void> {
    while (this.done.length) {
      const ids = this.done.splice(0, 500);
      await store.remove(this.db, ids, this.owner);
    }
    this.flushing = null;
  }
}
