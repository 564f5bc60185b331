import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { StatementCache } from '../../db/statement-cache.js';
import type { WidgetsDeps } from '../widgets/service.js';

/** What the advanced pages read of the application. */
export type AdvancedDeps = WidgetsDeps & Pick<AppContext, 'cacheRegistry' | 'changes' | 'dialect' | 'settings' | 'redis' | 'privileges'>;

/** One cache as the admin's cache page shows it (NodeBB's fields: length, max, hits, misses, hitRatio, ttl). */
export interface CacheInfo {
  name: string;
  length: number;
  max: number;
  hits: number;
  misses: number;
  hitRatio: string;
  ttl: number;
  enabled: boolean;
}

/** The caches an administrator may clear by name. */
export const CLEARABLE = ['guestPages', 'settings', 'privileges', 'widgets', 'statements'] as const;
export type ClearableCache = (typeof CLEARABLE)[number];

function ratio(hits: number, misses: number): string {
  return hits + misses ? (hits / (hits + misses)).toFixed(4) : '0.0000';
}

/** The caches of this process with their sizes and hit rates. */
export function cacheInfo(ctx: AdvancedDeps): CacheInfo[] {
  const guestStats = ctx.cacheRegistry.byName('guest-pages')?.stats();
  const guest = guestStats ? { size: { entries: guestStats.entries }, maxBytes: guestStats.maxBytes ?? 0, hits: guestStats.hits, misses: guestStats.misses, ttlMs: guestStats.ttlMs, enabled: guestStats.enabled && guestStats.ttlMs > 0 } : undefined;
  const statements = [...StatementCache.open];
  const out: CacheInfo[] = [
    { name: 'guestPages', length: guest?.size.entries ?? 0, max: guest?.maxBytes ?? 0, hits: guest?.hits ?? 0, misses: guest?.misses ?? 0, hitRatio: ratio(guest?.hits ?? 0, guest?.misses ?? 0), ttl: guest?.ttlMs ?? 0, enabled: !!guest?.enabled },
    fromRegistry(ctx, 'settings'),
    fromRegistry(ctx, 'privileges'),
    fromRegistry(ctx, 'widgets'),
  ];
  if (ctx.dialect === 'sqlite') {
    out.push({
      name: 'statements',
      length: statements.reduce((n, s) => n + s.size, 0),
      max: statements.reduce((n, s) => n + s.maxEntries, 0),
      hits: StatementCache.hits,
      misses: StatementCache.misses,
      hitRatio: ratio(StatementCache.hits, StatementCache.misses),
      ttl: 0,
      enabled: true,
    });
  }
  return out;
}

/** A row of the admin's cache page for a cache on core/cache.ts of the same name. */
function fromRegistry(ctx: AdvancedDeps, name: ClearableCache): CacheInfo {
  const st = ctx.cacheRegistry.byName(name)?.stats();
  return { name, length: st?.entries ?? 0, max: st?.max ?? 0, hits: st?.hits ?? 0, misses: st?.misses ?? 0, hitRatio: ratio(st?.hits ?? 0, st?.misses ?? 0), ttl: st?.ttlMs ?? 0, enabled: !!st?.enabled };
}

/** Clears one cache in every process (the statement cache: in this one). */
export function clearCache(ctx: AdvancedDeps, name: ClearableCache): void {
  if (name === 'statements') {
    for (const s of StatementCache.open) s.clear();
    return;
  }
  // The guest pages' cache is named guest-pages in the registry; the others by the same name.
  ctx.changes.publish([`cache:${name === 'guestPages' ? 'guest-pages' : name}`]);
}

export interface DatabaseInfo {
  dialect: string;
  version: string;
  size: number;
  tables: { name: string; rows: number }[];
  settings: { name: string; value: string }[];
}

/** The database's dialect, version, size, row counts and main settings. */
export async function databaseInfo(ctx: AdvancedDeps): Promise<DatabaseInfo> {
  const db = ctx.db;
  let version = '';
  let size = 0;
  let names: string[] = [];
  const settings: { name: string; value: string }[] = [];
  if (ctx.dialect === 'sqlite') {
    version = (await sql<{ v: string }>`select sqlite_version() as v`.execute(db)).rows[0]?.v ?? '';
    names = (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db)).rows.map((r) => r.name);
    for (const pragma of ['journal_mode', 'page_size', 'page_count', 'freelist_count', 'synchronous', 'foreign_keys', 'cache_size', 'busy_timeout']) {
      const row = (await sql.raw(`pragma ${pragma}`).execute(db)).rows[0] as Record<string, unknown> | undefined;
      settings.push({ name: pragma, value: String(row ? Object.values(row)[0] : '') });
    }
    const page = Number(settings.find((s) => s.name === 'page_size')?.value ?? 0);
    const pages = Number(settings.find((s) => s.name === 'page_count')?.value ?? 0);
    size = page * pages;
  } else {
    version = (await sql<{ v: string }>`select version() as v`.execute(db)).rows[0]?.v ?? '';
    size = Number((await sql<{ s: string }>`select pg_database_size(current_database()) as s`.execute(db)).rows[0]?.s ?? 0);
    names = (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db)).rows.map((r) => r.name);
    const rows = await sql<{ name: string; setting: string; unit: string | null }>`select name, setting, unit from pg_settings where name in ('max_connections', 'shared_buffers', 'work_mem', 'effective_cache_size', 'maintenance_work_mem', 'synchronous_commit', 'wal_level', 'server_encoding', 'TimeZone') order by name`.execute(db);
    for (const r of rows.rows) settings.push({ name: r.name, value: r.unit ? `${r.setting} ${r.unit}` : r.setting });
  }
  const tables: { name: string; rows: number }[] = [];
  for (const name of names) {
    const n = (await sql<{ n: number | string }>`select count(*) as n from ${sql.table(name)}`.execute(db)).rows[0]?.n ?? 0;
    tables.push({ name, rows: Number(n) });
  }
  return { dialect: ctx.dialect, version, size, tables, settings };
}

/** Redis's server and memory figures when Redis is configured. */
export async function redisInfo(ctx: AdvancedDeps): Promise<Record<string, string> | null> {
  if (!ctx.redis) return null;
  const text = await ctx.redis.info();
  const keep = ['redis_version', 'redis_mode', 'uptime_in_seconds', 'connected_clients', 'used_memory_human', 'used_memory_peak_human', 'keyspace_hits', 'keyspace_misses', 'instantaneous_ops_per_sec'];
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const [k, v] = line.split(':');
    if (k && v !== undefined && keep.includes(k)) out[k] = v;
  }
  return out;
}
