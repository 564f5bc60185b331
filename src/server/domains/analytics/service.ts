import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TopicObject } from '../../../shared/schemas/topic.js';
import { ANALYTICS_METRICS, type AnalyticsMetric, type DashboardGraph, type DashboardPeriod, type DashboardStat, type DashboardSystem } from '../../../shared/schemas/dashboard.js';
import type { Cache } from '../../core/cache.js';
import type { AppContext } from '../../context.js';
import { assertAdmin, type Viewer } from '../privileges/service.js';
import * as store from './store.js';
import { DAY_MS, HOUR_MS } from './store.js';

/** What the analytics use of the application. */
export type AnalyticsDeps = Pick<AppContext, 'actions' | 'cacheRegistry' | 'db' | 'dialect' | 'log' | 'hooks' | 'categories' | 'topics'>;

const FLUSH_MS = 5_000;
const DATABASE_SIZE_TTL_MS = 60_000;
// The system panel's memory figures: process.memoryUsage() reads /proc and walks V8's heap spaces.
const MEMORY_TTL_MS = 1_000;
// Committed batches kept for stored reads that predate them (a write every FLUSH_MS at most, in practice).
const KEPT_BATCHES = 16;
// The most rows one process keeps between flushes (8 metrics, a couple of hours): a bound, never reached in practice.
const MAX_PENDING = 10_000;

/** Counts keyed `metric|hour` (ms of the hour's start). */
type Counts = Map<string, number>;

/** What a read of the table gave, and how many of this process's writes the table then held. */
interface Stored<T> {
  epoch: number;
  value: T;
}

/** Each `metric|hour` key of the maps as a metric, an hour and a count. */
function* entries(...maps: Counts[]): Generator<{ metric: string; hour: number; count: number }> {
  for (const map of maps) {
    for (const [key, count] of map) {
      const at = key.lastIndexOf('|');
      yield { metric: key.slice(0, at), hour: Number(key.slice(at + 1)), count };
    }
  }
}

/** Who is connected now (the live layer sets it; a process without one reports nobody). */
export type OnlineSource = () => Promise<{ members: number; guests: number }>;

/** The stats rows of the dashboard, in NodeBB's order, with their detail pages. */
const STAT_ROWS: { set: AnalyticsMetric; name: string; href?: string }[] = [
  { set: 'pageviews', name: '[[admin-dashboard:page-views]]' },
  { set: 'logins', name: '[[admin-dashboard:logins]]', href: 'admin/dashboard/logins' },
  { set: 'registrations', name: '[[admin-dashboard:new-users]]', href: 'admin/dashboard/users' },
  { set: 'topics', name: '[[admin-dashboard:topics]]', href: 'admin/dashboard/topics' },
  { set: 'posts', name: '[[admin-dashboard:posts]]' },
  { set: 'searches', name: '[[admin-dashboard:searches]]', href: 'admin/dashboard/searches' },
];


let packageVersion: string | null = null;

/** Palaver's version from the package.json above this file (src/ or dist/ alike). */
function palaverVersion(): string {
  if (packageVersion !== null) return packageVersion;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.version) return (packageVersion = pkg.version);
    } catch {
      // not here: one level up
    }
    dir = dirname(dir);
  }
  return (packageVersion = '');
}

function increase(now: number, before: number): { text: string; cls: string } {
  const pct = before ? ((now - before) / before) * 100 : now ? 100 : 0;
  return { text: pct.toFixed(1), cls: pct > 0 ? 'text-success' : pct < 0 ? 'text-danger' : 'text-muted' };
}

/** The start of each bucket of a period ending now (UTC): 24 hours, 30 days or 12 months. */
export function periodBuckets(period: DashboardPeriod, now: number): number[] {
  if (period === 'hour') return steps(24, Math.floor(now / HOUR_MS) * HOUR_MS, HOUR_MS);
  if (period === 'day') return steps(30, Math.floor(now / DAY_MS) * DAY_MS, DAY_MS);
  const d = new Date(now);
  const months: number[] = [];
  for (let i = 0; i < 12; i++) months.push(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 11 + i, 1));
  return months;
}

/** `count` bucket starts `size` apart, the last at `last`. */
function steps(count: number, last: number, size: number): number[] {
  const out: number[] = [];
  for (let i = count - 1; i >= 0; i--) out.push(last - i * size);
  return out;
}

/**
 * The dashboard's counters (page views, registrations, posts, topics, logins, searches per UTC
 * hour). Counting never writes on the request: increments stay in memory and one batched,
 * additive write per few seconds (and at shutdown) adds them to `analytics_counts`, so several
 * processes each add their own.
 *
 * Reading never writes either. What the table holds is read at most once per FLUSH_MS per
 * window (shared by every admin, like the pages' caches), and this process's counts the table
 * did not hold at that read (still pending, being written, or written since) are added to it:
 * this process's own counts show at once, another process's within two flush intervals.
 */
export class AnalyticsService {
  private pending: Counts = new Map();
  /** The batch being written: out of `pending`, not yet in `written`. */
  private inflight: Counts = new Map();
  /** This process's committed writes, counted; `written` keeps the last few batches by their number. */
  private epoch = 0;
  private written: { epoch: number; counts: Counts }[] = [];
  /** Reads of the table, by window (see readStored). */
  private readonly stored: Cache<string, Stored<unknown>>;
  private memory: { at: number; value: NodeJS.MemoryUsage } | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Writes, and the reads of the stored counts, one after another (see `readStored`). */
  private flushing: Promise<void> = Promise.resolve();
  private online: OnlineSource = async () => ({ members: 0, guests: 0 });
  /**
   * The database's size, read once a minute: PostgreSQL's pg_database_size() stats every file
   * of the database (about 1 ms of the database's CPU on the bench's forum), which made it the
   * busiest process when the dashboard was read often.
   */
  private readonly size: Cache<'size', number>;

  constructor(private readonly ctx: AnalyticsDeps) {
    this.stored = ctx.cacheRegistry.create({
      name: 'analytics-reads',
      keeps: "a read of the stored dashboard counts, by window (this process's unwritten counts are added to it)",
      droppedBy: 'its TTL only (the flush interval): the counts a process adds are its own',
      ttlMs: FLUSH_MS,
      max: 16,
      tags: () => [],
    });
    this.size = ctx.cacheRegistry.create({
      name: 'database-size',
      keeps: "the database's size for the dashboard (one entry)",
      droppedBy: 'its TTL only',
      ttlMs: DATABASE_SIZE_TTL_MS,
      max: 1,
      tags: () => [],
    });
    // Counting is an in-memory increment: inline, at commit, costs nothing and is never lost to a queue.
    ctx.hooks.action('action:user.create', 'analytics', () => this.increment('registrations'), { inline: true });
    ctx.hooks.action('action:topic.save', 'analytics', () => {
      this.increment('topics');
      this.increment('posts');
    }, { inline: true });
    ctx.hooks.action('action:post.save', 'analytics', () => this.increment('posts'), { inline: true });
    ctx.hooks.action('action:user.loggedIn', 'analytics', () => this.increment('logins'), { inline: true });
  }

  /** Counts one event now (or `n`). */
  increment(metric: AnalyticsMetric, n = 1, at = Date.now()): void {
    const key = `${metric}|${Math.floor(at / HOUR_MS) * HOUR_MS}`;
    const had = this.pending.get(key);
    if (had === undefined && this.pending.size >= MAX_PENDING) return;
    this.pending.set(key, (had ?? 0) + n);
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.flush().catch((err: unknown) => this.ctx.log.error({ err }, 'analytics flush failed'));
      }, FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Counts a page view (page data or HTML, guest cache hits included). */
  pageView(member: boolean): void {
    this.increment('pageviews');
    this.increment(member ? 'pageviews:registered' : 'pageviews:guest');
  }

  /** Counts not yet written (tests, and the bench). */
  unflushed(metric: AnalyticsMetric): number {
    let n = 0;
    for (const e of entries(this.pending)) if (e.metric === metric) n += e.count;
    return n;
  }

  /** Runs `task` after every write and stored read asked for before it (a failed one does not stop the next: `flushing` never fails). */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.flushing.then(task);
    this.flushing = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Writes the pending counts in one action; on failure they are kept for the next flush. */
  flush(): Promise<void> {
    return this.serial(() => this.write());
  }

  private async write(): Promise<void> {
    if (!this.pending.size) return;
    const batch = this.pending;
    this.pending = new Map();
    this.inflight = batch;
    try {
      await this.ctx.actions.run('analytics.flush', (w) => store.addCounts(w, [...entries(batch)]));
    } catch (err) {
      for (const [key, n] of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + n);
      throw err;
    } finally {
      this.inflight = new Map();
    }
    // In the same turn as the commit's end: a reader sees the batch either in flight or written, never neither.
    this.written.push({ epoch: ++this.epoch, counts: batch });
    if (this.written.length > KEPT_BATCHES) this.written.shift();
  }

  /**
   * A read of the table, shared for FLUSH_MS under `key`, with this process's counts it does not
   * hold. The read runs between writes (`serial`), so it holds exactly the batches written
   * before it; the batches written after it, the one in flight and the pending counts are the
   * rest. A stored read older than the batches kept is read again.
   */
  private async readStored<T>(key: string, read: () => Promise<T>): Promise<{ value: T; extra: Counts[] }> {
    const load = () => this.serial(async () => ({ epoch: this.epoch, value: await read() }));
    let got = (await this.stored.get(key, load)) as Stored<T>;
    // The first batch it lacks is gone (with none written yet, nothing is lacking).
    if (got.epoch + 1 < (this.written[0]?.epoch ?? this.epoch + 1)) {
      this.stored.clear();
      got = (await this.stored.get(key, load)) as Stored<T>;
    }
    const extra = this.written.filter((w) => w.epoch > got.epoch).map((w) => w.counts);
    return { value: got.value, extra: [...extra, this.inflight, this.pending] };
  }

  /** Counts per bucket of the metrics in [from, to), this process's unwritten counts included. */
  private async buckets(from: number, to: number, size: number): Promise<{ metric: string; bucket: number; count: number }[]> {
    const { value, extra } = await this.readStored(`buckets:${size}:${from}:${to}`, () => store.bucketCounts(this.ctx.db, ANALYTICS_METRICS, from, to, size));
    const rows = [...value];
    for (const e of entries(...extra)) {
      if (e.hour >= from && e.hour < to) rows.push({ metric: e.metric, bucket: Math.floor(e.hour / size) * size, count: e.count });
    }
    return rows;
  }

  /** Stops the flush timer (at shutdown, after the last flush). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Sets who counts as online (the live layer's sockets). */
  setOnlineSource(source: OnlineSource): void {
    this.online = source;
  }

  /** Members and guests connected now (admins). */
  async onlineNow(viewer: Viewer): Promise<{ members: number; guests: number }> {
    assertAdmin(viewer);
    try {
      return await this.online();
    } catch (err) {
      this.ctx.log.warn({ err }, 'online count failed');
      return { members: 0, guests: 0 };
    }
  }

  /**
   * NodeBB's /api/admin/analytics: `count` buckets of `units` (hours or days) ending with the
   * one holding `until` (ms), for every metric.
   */
  async series(viewer: Viewer, units: 'hours' | 'days', until: number, count: number): Promise<Record<AnalyticsMetric, number[]>> {
    assertAdmin(viewer);
    const size = units === 'hours' ? HOUR_MS : DAY_MS;
    const last = Math.floor(until / size) * size;
    const labels = steps(count, last, size);
    return this.fill(await this.buckets(labels[0]!, last + size, size), labels);
  }

  /** A graph of every metric over a period (24 hours, 30 days or 12 months). */
  async graph(viewer: Viewer, period: DashboardPeriod, now = Date.now()): Promise<DashboardGraph> {
    assertAdmin(viewer);
    const labels = periodBuckets(period, now);
    const from = labels[0]!;
    if (period === 'hour') return { period, labels, series: this.fill(await this.buckets(from, from + 24 * HOUR_MS, HOUR_MS), labels) };
    const days = await this.buckets(from, Math.floor(now / DAY_MS) * DAY_MS + DAY_MS, DAY_MS);
    if (period === 'day') return { period, labels, series: this.fill(days, labels) };
    // Months: each day's count goes to the month it falls in.
    const months = days.map((r) => {
      const d = new Date(r.bucket);
      return { ...r, bucket: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) };
    });
    return { period, labels, series: this.fill(months, labels) };
  }

  /** NodeBB's dashboard `stats`: each counter today / yesterday, this / last week, this / last month, all time. */
  async stats(viewer: Viewer, now = Date.now()): Promise<DashboardStat[]> {
    assertAdmin(viewer);
    const end = Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS;
    const windows: Record<string, [number, number]> = {
      today: [end - DAY_MS, end],
      yesterday: [end - 2 * DAY_MS, end - DAY_MS],
      thisweek: [end - 7 * DAY_MS, end],
      lastweek: [end - 14 * DAY_MS, end - 7 * DAY_MS],
      thismonth: [end - 30 * DAY_MS, end],
      lastmonth: [end - 60 * DAY_MS, end - 30 * DAY_MS],
    };
    const { value: sums, extra } = await this.readStored(`sums:${end}`, () => store.windowSums(this.ctx.db, windows));
    const add = new Map<string, Record<string, number>>();
    for (const e of entries(...extra)) {
      const sum = add.get(e.metric) ?? { alltime: 0 };
      add.set(e.metric, sum);
      sum.alltime! += e.count;
      for (const [name, [from, to]] of Object.entries(windows)) if (e.hour >= from && e.hour < to) sum[name] = (sum[name] ?? 0) + e.count;
    }
    // One object literal of fixed keys a row (`href` undefined where a row has none: JSON leaves
    // it out). Spreading `row` first and then adding 13 keys took 60 µs for the six rows (10 µs a
    // row, measured in isolation; 2 µs so).
    return STAT_ROWS.map((row) => {
      const stored = sums.get(row.set);
      const more = add.get(row.set);
      const v = (k: string) => (stored?.[k] ?? 0) + (more?.[k] ?? 0);
      const [yesterday, today, lastweek, thisweek, lastmonth, thismonth] = [v('yesterday'), v('today'), v('lastweek'), v('thisweek'), v('lastmonth'), v('thismonth')];
      const day = increase(today, yesterday);
      const week = increase(thisweek, lastweek);
      const month = increase(thismonth, lastmonth);
      return {
        set: row.set,
        name: row.name,
        href: row.href,
        yesterday,
        today,
        lastweek,
        thisweek,
        lastmonth,
        thismonth,
        alltime: v('alltime'),
        dayIncrease: day.text,
        dayTextClass: day.cls,
        weekIncrease: week.text,
        weekTextClass: week.cls,
        monthIncrease: month.text,
        monthTextClass: month.cls,
      };
    });
  }

  /** The most active topics (most posts, then views) among those with a post in the last `within` ms. */
  async topTopics(viewer: Viewer, within: number, limit = 10): Promise<TopicObject[]> {
    assertAdmin(viewer);
    const cids = (await this.ctx.categories.list(viewer)).map((c) => c.cid);
    if (!cids.length) return [];
    return (await this.ctx.topics.list(viewer, { cids, sort: 'popular', page: 1, perPage: limit, within })).topics;
  }

  /** The newest topics (the topics detail page). */
  async newestTopics(viewer: Viewer, limit = 50): Promise<TopicObject[]> {
    assertAdmin(viewer);
    const cids = (await this.ctx.categories.list(viewer)).map((c) => c.cid);
    if (!cids.length) return [];
    return (await this.ctx.topics.list(viewer, { cids, sort: 'recent', page: 1, perPage: limit })).topics;
  }

  /** The system panel: version, Node, database and its size, uptime, memory. */
  async system(viewer: Viewer): Promise<DashboardSystem> {
    assertAdmin(viewer);
    const now = Date.now();
    if (!this.memory || now - this.memory.at >= MEMORY_TTL_MS) this.memory = { at: now, value: process.memoryUsage() };
    const mem = this.memory.value;
    return {
      version: palaverVersion(),
      node: process.version,
      database: this.ctx.dialect,
      databaseSize: await this.size.get('size', () => store.databaseSize(this.ctx.db, this.ctx.dialect)),
      uptime: Math.floor(process.uptime()),
      rss: mem.rss,
      heapUsed: mem.heapUsed,
      heapTotal: mem.heapTotal,
    };
  }

  private fill(rows: { metric: string; bucket: number; count: number }[], labels: number[]): Record<AnalyticsMetric, number[]> {
    const index = new Map(labels.map((l, i) => [l, i]));
    const out = Object.fromEntries(ANALYTICS_METRICS.map((m) => [m, labels.map(() => 0)])) as Record<AnalyticsMetric, number[]>;
    for (const r of rows) {
      const i = index.get(r.bucket);
      const series = out[r.metric as AnalyticsMetric];
      if (i !== undefined && series) series[i]! += r.count;
    }
    return out;
  }
}

export { palaverVersion };
