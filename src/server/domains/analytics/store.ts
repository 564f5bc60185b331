import { sql } from 'kysely';
import type { Writer } from '../../core/action.js';
import type { Dialect, Queryable } from '../../db/index.js';

export const HOUR_MS = 3600_000;
export const DAY_MS = 24 * HOUR_MS;

/** A counter row: a metric's count in one UTC hour. */
export interface AnalyticsRow {
  metric: string;
  hour: number;
  count: number;
}

// Three placeholders a row; the SQLite statement cache takes statements of at most 64.
const ROWS_PER_STATEMENT = 20;

/** Adds counts to their hours (additive upserts: every process adds its own). */
export async function addCounts(w: Writer, rows: AnalyticsRow[]): Promise<void> {
  // The dashboard's counts feed no cache: no tag.
  const db = w.tx;
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    await db
      .insertInto('analytics_counts')
      .values(rows.slice(i, i + ROWS_PER_STATEMENT))
      .onConflict((oc) => oc.columns(['metric', 'hour']).doUpdateSet({ count: sql`analytics_counts.count + excluded.count` }))
      .execute();
  }
}

/** Counts per bucket (`size` ms: an hour or a day) of the metrics in [from, to), as rows. */
export async function bucketCounts(db: Queryable, metrics: readonly string[], from: number, to: number, size: number): Promise<{ metric: string; bucket: number; count: number }[]> {
  const bucket = size === HOUR_MS ? sql<number>`hour` : sql<number>`(hour / ${sql.lit(size)}) * ${sql.lit(size)}`;
  const rows = await db
    .selectFrom('analytics_counts')
    .select(['metric', bucket.as('bucket'), sql<number>`sum(count)`.as('count')])
    .where('metric', 'in', [...metrics])
    .where('hour', '>=', from)
    .where('hour', '<', to)
    .groupBy(['metric', sql`2`])
    .execute();
  return rows.map((r) => ({ metric: r.metric, bucket: Number(r.bucket), count: Number(r.count) }));
}

/** Each metric's sum over the windows given (ms ranges [from, to)), and its sum of all time. */
export async function windowSums(db: Queryable, windows: Record<string, [number, number]>): Promise<Map<string, Record<string, number>>> {
  const names = Object.keys(windows);
  const earliest = Math.min(...names.map((n) => windows[n]![0]));
  const cols = names.map((n) => sql<number>`sum(CASE WHEN hour >= ${windows[n]![0]} AND hour < ${windows[n]![1]} THEN count ELSE 0 END)`.as(n));
  const [recent, all] = await Promise.all([
    db.selectFrom('analytics_counts').select(['metric', ...cols]).where('hour', '>=', earliest).groupBy('metric').execute(),
    db.selectFrom('analytics_counts').select(['metric', sql<number>`sum(count)`.as('alltime')]).groupBy('metric').execute(),
  ]);
  const out = new Map<string, Record<string, number>>();
  for (const r of all) out.set(r.metric, { alltime: Number(r.alltime) });
  for (const r of recent as Record<string, unknown>[]) {
    const entry = out.get(r.metric as string) ?? {};
    for (const n of names) entry[n] = Number(r[n] ?? 0);
    out.set(r.metric as string, entry);
  }
  return out;
}

/** The database's size on disk in bytes (0 when it cannot be read). */
export async function databaseSize(db: Queryable, dialect: Dialect): Promise<number> {
  try {
    if (dialect === 'postgres') {
      const r = await sql<{ size: string | number }>`SELECT pg_database_size(current_database()) AS size`.execute(db);
      return Number(r.rows[0]?.size ?? 0);
    }
    const r = await sql<{ size: number }>`SELECT page_count * page_size AS size FROM pragma_page_count(), pragma_page_size()`.execute(db);
    return Number(r.rows[0]?.size ?? 0);
  } catch {
    return 0;
  }
}
