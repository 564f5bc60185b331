import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Writer } from '../core/action.js';
import type { Db } from '../db/index.js';
import * as store from './store.js';
import type { JobRow } from './store.js';

/** What a job's handler receives. */
export interface JobRun<P> {
  id: number;
  payload: P;
  /** 1 on the first try. */
  attempt: number;
  /**
   * Fires when this process lost the run's lease (its heartbeat found another process holding
   * it, or could not renew it before it ran out): stop, the run is someone else's now.
   */
  signal: AbortSignal;
}

/** How a job is run: its schedule (recurring jobs), its lease and its retries. */
export interface JobOptions {
  /** Run every this many ms (one schedule row across all processes). */
  every?: number;
  /**
   * How long a run's lease lasts without a heartbeat (default 5 min): a run whose process died
   * goes to another process this long after its last heartbeat. A live run renews it every
   * third of it, so a long job keeps its lease however long it takes.
   */
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
// Runs started in one poll at most (each takes its own lease when it starts).
const PER_POLL = 10;
// Due runs looked at per claim: of two processes racing, the loser tries the next one.
const CANDIDATES = 10;
const BACKOFF_BASE_MS = 10_000;
const BACKOFF_MAX_MS = 60 * 60 * 1000;

/**
 * Jobs with leases in the database, so each run happens in one process even when several
 * serve the forum. A runner takes one run at a time: the lease of a due row with one
 * conditional UPDATE (SQLite and PostgreSQL alike) when that run starts, renewed by a
 * heartbeat while it runs; if the heartbeat finds the lease gone, the run's AbortSignal fires.
 * A run whose process died is claimed again when its lease expires; a failed run backs off and
 * stops after its attempts.
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

  /**
   * Queues one run in an action's transaction: it exists once the action commits, or not at all.
   * With `key`, a second run of the same key is not queued (a durable listener that runs twice
   * queues its job once); returns the run's id, or 0 when the key was queued before.
   */
  async enqueueIn<P = Record<string, unknown>>(w: Writer, name: string, payload: P, opts: { runAt?: number; key?: string } = {}): Promise<number> {
    const def = this.definition(name);
    return store.insertRun(w.tx, { name, payload: JSON.stringify(payload), runAt: opts.runAt ?? Date.now(), maxAttempts: def.maxAttempts, key: opts.key });
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
   * Takes the lease of the next due run of the jobs defined here (null: none is due and free).
   * Public so that a test can play a process that claims a run and dies before finishing it.
   */
  async claimNext(now = Date.now()): Promise<JobRow | null> {
    const names = [...this.defs.keys()];
    if (!names.length) return null;
    await store.failExhausted(this.db, now);
    for (const row of await store.dueRuns(this.db, names, now, CANDIDATES)) {
      const leaseUntil = now + this.definition(row.name).leaseMs;
      if (await store.takeLease(this.db, row.id, this.owner, now, leaseUntil)) {
        return { ...row, attempts: row.attempts + 1, lease_owner: this.owner, lease_until: leaseUntil };
      }
    }
    return null;
  }

  /**
   * Runs due runs one after the other, each leased when it starts (never a batch leased up
   * front, whose later runs could lose their lease while they wait); returns how many ran.
   * `now` lets tests move the clock.
   */
  async runDue(now?: number): Promise<number> {
    let ran = 0;
    while (ran < PER_POLL) {
      const row = await this.claimNext(now ?? Date.now());
      if (!row) break;
      await this.run(row);
      ran += 1;
    }
    return ran;
  }

  private async run(row: JobRow): Promise<void> {
    const def = this.definition(row.name);
    const lease = new Lease(this.db, this.log, row, this.owner, def.leaseMs);
    try {
      await def.handler({ id: row.id, payload: JSON.parse(row.payload) as unknown, attempt: row.attempts, signal: lease.signal });
      lease.end();
      await store.finish(this.db, row, this.owner, Date.now());
    } catch (err) {
      lease.end();
      const last = row.attempts >= row.max_attempts;
      if (lease.signal.aborted) this.log.warn({ job: row.name, id: row.id }, 'job stopped: its lease was lost');
      else this.log.error({ err, job: row.name, id: row.id, attempt: row.attempts }, last ? 'job failed for good' : 'job failed, will retry');
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

/**
 * A run's lease while it runs: renewed every third of its length; when a renewal finds another
 * owner (or none could be made before the lease ran out) the signal fires.
 */
class Lease {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private until: number;
  private beating: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    private readonly row: JobRow,
    private readonly owner: string,
    private readonly leaseMs: number,
  ) {
    this.until = row.lease_until;
    this.timer = setInterval(() => {
      if (!this.beating) this.beating = this.beat().finally(() => (this.beating = null));
    }, Math.max(10, Math.floor(leaseMs / 3)));
    this.timer.unref();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stops the heartbeat (the run ended). */
  end(): void {
    clearInterval(this.timer);
  }

  private async beat(): Promise<void> {
    const until = Date.now() + this.leaseMs;
    try {
      if (await store.extendLease(this.db, this.row.id, this.owner, until)) {
        this.until = Math.max(this.until, until);
        return;
      }
      this.lost('taken by another process');
    } catch (err) {
      // The database may be back before the lease runs out: only then is the run given up.
      this.log.warn({ err, job: this.row.name, id: this.row.id }, 'job lease not renewed');
      if (Date.now() >= this.until) this.lost('not renewed in time');
    }
  }

  private lost(why: string): void {
    this.end();
    this.controller.abort(new Error(`lease of job ${this.row.name} #${this.row.id} lost: ${why}`));
  }
}
