import type SQLite from 'better-sqlite3';
import type { StatementSource } from './sqlite-driver.js';

/** How many prepared statements one connection keeps. */
export const STATEMENT_CACHE_SIZE = 1000;
/**
 * Statements with more placeholders than this are prepared, used and dropped. Kysely writes
 * `IN (?, ?, …)` with one placeholder per value, so every list length is a new SQL text; a
 * prepared statement costs SQLite about 8 KB plus 0.2 KB per placeholder, and 1,000 cached
 * IN-lists of up to 1,000 values held 92 MB of native memory (measured, issue 17).
 */
export const MAX_CACHED_PLACEHOLDERS = 64;

function placeholders(sqlText: string): number {
  let n = 0;
  for (let i = sqlText.indexOf('?'); i !== -1; i = sqlText.indexOf('?', i + 1)) n++;
  return n;
}

/**
 * Kysely's SQLite driver prepares every statement anew; SQLite then parses and plans it
 * again each time (a fifth to a third of a page's server time). This reuses prepared
 * statements by SQL text, least recently used out first, within a bound of count and size.
 * Safe because statements run to completion synchronously.
 */
export class StatementCache implements StatementSource {
  /** Every open cache of this process, and their lookups answered and missed (the admin's cache page). */
  static readonly open = new Set<StatementCache>();
  static hits = 0;
  static misses = 0;
  private readonly cache = new Map<string, SQLite.Statement>();

  constructor(
    private readonly file: SQLite.Database,
    readonly maxEntries = STATEMENT_CACHE_SIZE,
  ) {
    StatementCache.open.add(this);
  }

  /** Drops the prepared statements (they are prepared again on use). */
  clear(): void {
    this.cache.clear();
  }

  /** Statements held now (for tests and diagnostics). */
  get size(): number {
    return this.cache.size;
  }

  /** A prepared statement for the SQL text, from the cache when it is there. */
  prepare(sqlText: string): SQLite.Statement {
    const hit = this.cache.get(sqlText);
    if (hit) {
      StatementCache.hits++;
      // Re-inserted so the Map's order is least recently used first.
      this.cache.delete(sqlText);
      this.cache.set(sqlText, hit);
      return hit;
    }
    StatementCache.misses++;
    const stmt = this.file.prepare(sqlText);
    if (placeholders(sqlText) > MAX_CACHED_PLACEHOLDERS) return stmt;
    if (this.cache.size >= this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(sqlText, stmt);
    return stmt;
  }

  /** Closes the connection. */
  close(): void {
    StatementCache.open.delete(this);
    this.cache.clear();
    this.file.close();
  }
}
