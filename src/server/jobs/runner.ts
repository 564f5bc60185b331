import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.js';
import * as store from './store.js';
import type { JobRow } from './store.js';

/** What a job's handler receives. */
export interface JobRun<P> {
  id: number;
  payload: P;
  /** 1 on the first try. */
  attempt: number;
}

/** How a job is run: its schedule (recurring jobs), its lease and its retries. */
export interface JobOptions {
  /** Run every this many ms (one schedule row across all processes). */
  every?: number;
  /** How long a run may take before another process takes it over (default 5 min). */
  leaseMs?: number;
  /** Tries before a one-off run is marked failed (default 5). */
  maxAttempts?: number;
}

interface Definition {
  handler: (run: JobRun<any>) => Promise<void>;
  every: number;
  leaseMs: number;
  maxAttempts: number;
}

const POLL_MS = 5000;
const BATCH = 10;
const BACKOFF_BASE_MS = 10_000;
const BACKOFF_MAX_MS = 60 * 60 * 1000;

/**
 * Jobs with leases in the database, so each run happens in one process even when several
 * serve the forum: a runner claims a due row with one conditional UPDATE (SQLite and
 * PostgreSQL alike); a run whose process died is claimed again when its lease expires;
 * a failed run backs off and stops after its attempts.
 */
export class JobRunner {
  private defs = new Map<string, Definition>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<unknown> | null = null;
  /** This runner's name in `lease_owner`. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  constructor(
    private readonly db: Db,
    private readonly log: Pick<FastifyBaseLogger, 'error' | 'warn'>,
  ) {}

  /** Declares a job; a recurring one (`every`) gets its schedule row when the runner starts. */
  define<P = Record<string, unknown>>(name: string, handler: (run: JobRun<P>) => Promise<void>, opts: JobOptions = {}): void {
    this.defs.set(name, { handler, every: opts.every ?? 0, leaseMs: opts.leaseMs ?? 5 * 60 * 1000, maxAttempts: opts.maxAttempts ?? 5 });
  }

  /** Queues one run of a defined job (by default now); returns its id. */
  async enqueue<P = Record<string, unknown>>(name: string, payload: P, opts: { runAt?: number } = {}): Promise<number> {
    const def = this.definition(name);
    return store.insertRun(this.db, { name, payload: JSON.stringify(payload), runAt: opts.runAt ?? Date.now(), maxAttempts: def.maxAttempts });
  }

  /** Creates the schedule rows of recurring jobs (once across processes) and polls for due runs. */
  async start(pollMs = POLL_MS): Promise<void> {
    await this.schedule();
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (!this.ticking) this.ticking = this.runDue().catch((err: unknown) => this.log.error({ err }, 'job poll failed')).finally(() => (this.ticking = null));
    }, pollMs);
    this.timer.unref();
  }

  /** Stops polling and waits for the runs in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }

  /** Writes the schedule row of every recurring job (a no-op when it exists). */
  async schedule(now = Date.now()): Promise<void> {
    for (const [name, def] of this.defs) {
      if (def.every > 0) await store.ensureSchedule(this.db, { name, everyMs: def.every, runAt: now, maxAttempts: def.maxAttempts });
    }
  }

  /**
   * Takes the leases of up to `limit` due runs of the jobs defined here. Public so that a
   * test can play a process that claims a run and dies before finishing it.
   */
  async claim(now = Date.now(), limit = BATCH): Promise<JobRow[]> {
    const names = [...this.defs.keys()];
    if (!names.length) return [];
    await store.failExhausted(this.db, now);
    const claimed: JobRow[] = [];
    for (const row of await store.dueRuns(this.db, names, now, limit)) {
      const leaseUntil = now + this.definition(row.name).leaseMs;
      if (await store.takeLease(this.db, row.id, this.owner, now, leaseUntil)) {
        claimed.push({ ...row, attempts: row.attempts + 1, lease_owner: this.owner, lease_until: leaseUntil });
      }
    }
    return claimed;
  }

  /** Claims and runs every due run once; returns how many ran (`now` lets tests move the clock). */
  async runDue(now = Date.now()): Promise<number> {
    const claimed = await this.claim(now);
    for (const row of claimed) await this.run(row);
    return claimed.length;
  }

  private async run(row: JobRow): Promise<void> {
    const def = this.definition(row.name);
    try {
      await def.handler({ id: row.id, payload: JSON.parse(row.payload) as unknown, attempt: row.attempts });
      await store.finish(this.db, row, this.owner, Date.now());
    } catch (err) {
      const last = row.attempts >= row.max_attempts;
      this.log.error({ err, job: row.name, id: row.id, attempt: row.attempts }, last ? 'job failed for good' : 'job failed, will retry');
      const backoff = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (row.attempts - 1));
      await store.fail(this.db, row, this.owner, Date.now(), backoff, err instanceof Error ? err.message : String(err));
    }
  }

  private definition(name: string): Definition {
    const def = this.defs.get(name);
    if (!def) throw new Error(`job ${name} is not defined`);
    return def;
  }
}
