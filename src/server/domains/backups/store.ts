import path from 'node:path';
import SQLite from 'better-sqlite3';
import type PgModule from 'pg';
import type { Config } from '../../config.js';
import { loadPg, type Dialect } from '../../db/index.js';

/**
 * The backups domain reads and writes every table, whoever owns it: this file and
 * restore-store.ts are the only code that does, through the database's own catalogue (so a
 * table added later by any domain is in every backup without an edit here) on connections of
 * their own, never the forum's.
 */

/** Tables that are no data of their own: Kysely's migration bookkeeping (the header lists the migrations instead) and the search index, which triggers rebuild from `posts` on restore. */
export const NOT_BACKED_UP = new Set(['kysely_migration', 'kysely_migration_lock', 'search_docs']);

/** A table as the catalogue describes it. */
export interface TableInfo {
  name: string;
  /** Stored columns in the table's order (generated ones left out: the database computes them). */
  columns: string[];
  /** Primary key columns, in key order (empty: none). */
  pk: string[];
  /** The tables its foreign keys point at (a restore fills those first). */
  refs: string[];
}

/** Tables in an order where each comes after those it references (a cycle keeps the catalogue's order for the rest). */
export function fillOrder(tables: TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const out: TableInfo[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (t: TableInfo) => {
    if (state.get(t.name)) return;
    state.set(t.name, 'visiting');
    for (const r of t.refs) {
      const dep = byName.get(r);
      if (dep && r !== t.name && !state.get(r)) visit(dep);
    }
    state.set(t.name, 'done');
    out.push(t);
  };
  for (const t of tables) visit(t);
  return out;
}

/** A consistent, read-only view of the whole database, on a connection of its own. */
export interface Snapshot {
  readonly dialect: Dialect;
  /** Every table with data, from the catalogue (NOT_BACKED_UP and internal tables left out). */
  tables(): Promise<TableInfo[]>;
  /** The applied migrations' names. */
  migrations(): Promise<string[]>;
  /** A table's row count in the snapshot. */
  count(table: TableInfo): Promise<number>;
  /** A table's rows in primary-key order, `batch` at a time, as arrays in `table.columns` order. */
  rows(table: TableInfo, batch: number): AsyncIterable<unknown[][]>;
  close(): Promise<void>;
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Opens a snapshot: on SQLite a read transaction on its own connection (WAL keeps its view), on PostgreSQL REPEATABLE READ, READ ONLY. */
export async function openSnapshot(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Snapshot> {
  return config.databaseUrl ? PgSnapshot.open(config.databaseUrl) : SqliteSnapshot.open(path.join(config.dataDir, 'palaver.sqlite'));
}

/** The SQLite file's tables from `PRAGMA table_list` ('table' only: virtual full-text tables and their shadows are rebuilt by triggers). */
export function sqliteTables(conn: SQLite.Database): TableInfo[] {
  const list = conn
    .prepare(`SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name`)
    .all() as { name: string }[];
  return list
    .filter((t) => !NOT_BACKED_UP.has(t.name))
    .map(({ name }) => {
      // hidden: 0 a plain column, 1 a virtual table's hidden one, 2/3 generated.
      const cols = conn.prepare(`SELECT name, pk, hidden FROM pragma_table_xinfo(?) ORDER BY cid`).all(name) as { name: string; pk: number; hidden: number }[];
      const refs = conn.prepare(`SELECT DISTINCT "table" AS t FROM pragma_foreign_key_list(?)`).all(name) as { t: string }[];
      return {
        name,
        columns: cols.filter((c) => c.hidden === 0).map((c) => c.name),
        pk: cols
          .filter((c) => c.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((c) => c.name),
        refs: refs.map((r) => r.t),
      };
    });
}

class SqliteSnapshot implements Snapshot {
  readonly dialect = 'sqlite' as const;

  private constructor(private readonly conn: SQLite.Database) {}

  static async open(file: string): Promise<SqliteSnapshot> {
    const conn = new SQLite(file, { readonly: true, fileMustExist: true });
    conn.pragma('busy_timeout = 5000');
    // The first read fixes the transaction's view of the WAL: every later read sees that state.
    conn.exec('BEGIN');
    conn.prepare('SELECT count(*) FROM sqlite_schema').get();
    return new SqliteSnapshot(conn);
  }

  async tables(): Promise<TableInfo[]> {
    return sqliteTables(this.conn);
  }

  async migrations(): Promise<string[]> {
    const has = this.conn.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'kysely_migration'`).get();
    if (!has) return [];
    return (this.conn.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map((r) => r.name);
  }

  async count(t: TableInfo): Promise<number> {
    return (this.conn.prepare(`SELECT count(*) AS n FROM ${q(t.name)}`).get() as { n: number }).n;
  }

  async *rows(t: TableInfo, batch: number): AsyncIterable<unknown[][]> {
    const order = t.pk.length ? t.pk.map(q).join(', ') : 'rowid';
    const stmt = this.conn.prepare(`SELECT ${t.columns.map(q).join(', ')} FROM ${q(t.name)} ORDER BY ${order}`).raw(true);
    let rows: unknown[][] = [];
    for (const row of stmt.iterate() as IterableIterator<unknown[]>) {
      rows.push(row);
      if (rows.length >= batch) {
        // Each batch is handed on (and the event loop turns) before the next is read.
        yield rows;
        rows = [];
      }
    }
    if (rows.length) yield rows;
  }

  async close(): Promise<void> {
    if (this.conn.inTransaction) this.conn.exec('ROLLBACK');
    this.conn.close();
  }
}

/** A dedicated PostgreSQL client (never one of the forum's pool), with int8 read as numbers. */
export async function pgClient(url: string): Promise<PgModule.Client> {
  const pg = loadPg();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** The tables of a PostgreSQL schema from the catalogue, generated columns left out. */
export async function pgTables(client: PgModule.Client, schema: string): Promise<TableInfo[]> {
  const { rows: tables } = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name`,
    [schema],
  );
  const { rows: cols } = await client.query<{ t: string; c: string; generated: string }>(
    `SELECT table_name AS t, column_name AS c, is_generated AS generated FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position`,
    [schema],
  );
  const { rows: keys } = await client.query<{ t: string; c: string }>(
    `SELECT t.relname AS t, a.attname AS c
       FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
       CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
      WHERE i.indisprimary AND n.nspname = $1
      ORDER BY t.relname, k.ord`,
    [schema],
  );
  const { rows: refs } = await client.query<{ t: string; r: string }>(
    `SELECT DISTINCT c.conrelid::regclass::text AS t, f.relname AS r FROM pg_constraint c JOIN pg_class f ON f.oid = c.confrelid JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE c.contype = 'f' AND n.nspname = $1`,
    [schema],
  );
  const bare = (t: string) => t.replace(/^.*\./, '').replace(/"/g, '');
  return tables
    .filter((t) => !NOT_BACKED_UP.has(t.name))
    .map(({ name }) => ({
      name,
      columns: cols.filter((c) => c.t === name && c.generated !== 'ALWAYS').map((c) => c.c),
      pk: keys.filter((k) => k.t === name).map((k) => k.c),
      refs: refs.filter((r) => bare(r.t) === name).map((r) => r.r),
    }));
}

class PgSnapshot implements Snapshot {
  readonly dialect = 'postgres' as const;
  private schema = 'public';

  private constructor(private readonly client: PgModule.Client) {}

  static async open(url: string): Promise<PgSnapshot> {
    const client = await pgClient(url);
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const snap = new PgSnapshot(client);
    // The first statement takes the snapshot every later one reads.
    snap.schema = (await client.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]!.s;
    return snap;
  }

  async tables(): Promise<TableInfo[]> {
    return pgTables(this.client, this.schema);
  }

  async migrations(): Promise<string[]> {
    const { rows } = await this.client.query<{ ok: boolean }>(`SELECT to_regclass('kysely_migration') IS NOT NULL AS ok`);
    if (!rows[0]?.ok) return [];
    return (await this.client.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).rows.map((r) => r.name);
  }

  async count(t: TableInfo): Promise<number> {
    return Number((await this.client.query<{ n: string }>(`SELECT count(*) AS n FROM ${q(t.name)}`)).rows[0]!.n);
  }

  async *rows(t: TableInfo, batch: number): AsyncIterable<unknown[][]> {
    const order = t.pk.length ? ` ORDER BY ${t.pk.map(q).join(', ')}` : '';
    // A cursor in the snapshot's transaction: the table is read `batch` rows at a time.
    await this.client.query(`DECLARE backup_rows NO SCROLL CURSOR FOR SELECT ${t.columns.map(q).join(', ')} FROM ${q(t.name)}${order}`);
    try {
      for (;;) {
        const res = await this.client.query({ text: `FETCH FORWARD ${batch} FROM backup_rows`, rowMode: 'array' });
        if (!res.rows.length) break;
        yield res.rows as unknown[][];
        if (res.rows.length < batch) break;
      }
    } finally {
      await this.client.query('CLOSE backup_rows');
    }
  }

  async close(): Promise<void> {
    await this.client.query('ROLLBACK').catch(() => undefined);
    await this.client.end();
  }
}
