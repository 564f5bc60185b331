import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration } from 'kysely';
import type PgModule from 'pg';
import type { Config } from '../../config.js';
import { migrationOrder, migrations as allMigrations, type Dialect } from '../../db/index.js';
import { decodeValue } from './format.js';
import { pgClient, pgTables, sqliteTables, type TableInfo } from './store.js';

/** Derived data rebuilt (or its rebuild queued) from the restored rows, in the restore's transaction (db: its connection). */
export type Rebuild = (db: Kysely<any>, dialect: Dialect) => Promise<void>;

/** What a restore finds in its target before it begins. */
export type TargetState = 'no-tables' | 'empty' | 'has-data';

/**
 * The database a restore writes into, on a connection of its own, in ONE transaction from
 * the first table made to the commit: a failure anywhere rolls it all back and leaves the
 * target as it was (empty for `palaver restore`, the old forum for the admin page's). On
 * PostgreSQL a target that already has tables is rebuilt in a staging schema, so the
 * running forum's reads are not blocked by the restore; the old tables are swapped out only
 * in the last moment before the commit.
 */
export interface RestoreTarget {
  readonly dialect: Dialect;
  state(): Promise<TargetState>;
  /** Begins the transaction and makes the schema of the archive's migrations (dropping what was there: the old forum). */
  prepare(archiveMigrations: string[]): Promise<void>;
  /** The tables made so far (the archive's rows go into them). */
  tables(): Promise<TableInfo[]>;
  insert(table: string, columns: string[], rows: unknown[][]): Promise<void>;
  /**
   * Puts back the triggers the load went without, runs `rebuilds` (derived data the triggers
   * would have kept: the search index's rebuild is queued), makes the indexes, applies this build's later migrations, sets
   * sequences past the highest ids, checks the keys, swaps and commits.
   */
  finish(rebuilds: Rebuild[]): Promise<void>;
  /** Rolls everything back. */
  abort(): Promise<void>;
  close(): Promise<void>;
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Opens the target the configuration names (DATABASE_URL, or the data dir's SQLite file). */
export async function openTarget(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<RestoreTarget> {
  if (config.databaseUrl) return PgTarget.open(config.databaseUrl);
  mkdirSync(config.dataDir, { recursive: true });
  return SqliteTarget.open(path.join(config.dataDir, 'palaver.sqlite'));
}

/** A migrator over `db` that applies `only` (every migration when null), inside the transaction already open on its connection. */
function migrator(db: Kysely<unknown>, dialect: Dialect, only: ReadonlySet<string> | null, schema?: string): Migrator {
  const all = allMigrations(dialect);
  const chosen: Record<string, Migration> = {};
  for (const [name, m] of Object.entries(all)) if (!only || only.has(name)) chosen[name] = m;
  return new Migrator({
    db,
    provider: { getMigrations: async () => chosen },
    allowUnorderedMigrations: true,
    nameComparator: migrationOrder,
    // The restore's own transaction holds every migration's statements.
    disableTransactions: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

async function run(m: Migrator): Promise<void> {
  const { error } = await m.migrateToLatest();
  if (error) throw error;
}

class SqliteTarget implements RestoreTarget {
  readonly dialect = 'sqlite' as const;
  private readonly db: Kysely<unknown>;
  private statements = new Map<string, SQLite.Statement>();
  private suspended: { type: string; name: string; sql: string }[] = [];

  private constructor(private readonly conn: SQLite.Database) {
    this.db = new Kysely({ dialect: new SqliteDialect({ database: conn }) });
  }

  static async open(file: string): Promise<SqliteTarget> {
    const conn = new SQLite(file);
    conn.pragma('journal_mode = WAL');
    conn.pragma('busy_timeout = 10000');
    // Keys are checked once, at the end (PRAGMA foreign_key_check): tables come in any order.
    conn.pragma('foreign_keys = OFF');
    return new SqliteTarget(conn);
  }

  async state(): Promise<TargetState> {
    const tables = this.conn
      .prepare(`SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`)
      .all() as { name: string }[];
    if (!tables.length) return 'no-tables';
    for (const t of sqliteTables(this.conn)) {
      if (t.name !== 'settings' && this.conn.prepare(`SELECT 1 FROM ${q(t.name)} LIMIT 1`).get()) return 'has-data';
    }
    return 'empty';
  }

  async prepare(archiveMigrations: string[]): Promise<void> {
    // IMMEDIATE: the write lock from the start; the forum's readers keep their view (WAL) until the commit.
    this.conn.exec('BEGIN IMMEDIATE');
    const objects = this.conn
      .prepare(
        `SELECT type, name FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`,
      )
      .all() as { type: string; name: string }[];
    // Virtual tables first (they drop their shadow tables), then views and tables; triggers go with their tables.
    for (const o of objects.filter((x) => x.type === 'virtual')) this.conn.exec(`DROP TABLE IF EXISTS ${q(o.name)}`);
    for (const o of objects.filter((x) => x.type === 'view')) this.conn.exec(`DROP VIEW IF EXISTS ${q(o.name)}`);
    for (const o of objects.filter((x) => x.type === 'table')) this.conn.exec(`DROP TABLE IF EXISTS ${q(o.name)}`);
    if (this.conn.prepare(`SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_sequence'`).get()) this.conn.exec('DELETE FROM sqlite_sequence');
    await run(migrator(this.db, 'sqlite', new Set(archiveMigrations)));
    // Rows a migration seeded (defaults) are in the archive as they were then: the archive's rows alone go in.
    const made = this.conn
      .prepare(
        `SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'kysely\\_%' ESCAPE '\\'`,
      )
      .all() as { name: string }[];
    for (const t of made) this.conn.exec(`DELETE FROM ${q(t.name)}`);
    // The rows go in without the indexes and triggers (a full-text trigger costs 30 times the
    // insert itself); finish() makes them again, in bulk. Indexes of keys and unique
    // constraints have no SQL of their own and stay.
    this.suspended = this.conn.prepare(`SELECT type, name, sql FROM sqlite_schema WHERE type IN ('index', 'trigger') AND sql IS NOT NULL`).all() as {
      type: string;
      name: string;
      sql: string;
    }[];
    for (const o of this.suspended) this.conn.exec(`DROP ${o.type === 'index' ? 'INDEX' : 'TRIGGER'} IF EXISTS ${q(o.name)}`);
  }

  async tables(): Promise<TableInfo[]> {
    return sqliteTables(this.conn);
  }

  async insert(table: string, columns: string[], rows: unknown[][]): Promise<void> {
    const key = `${table}\u0000${columns.join(',')}`;
    let stmt = this.statements.get(key);
    if (!stmt)
      this.statements.set(
        key,
        (stmt = this.conn.prepare(`INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)),
      );
    for (const row of rows) stmt.run(row.map((v) => decodeValue(v, 'sqlite')));
  }

  async finish(rebuilds: Rebuild[]): Promise<void> {
    for (const o of this.suspended.filter((x) => x.type === 'trigger')) this.conn.exec(o.sql);
    // Derived rows first, then every index in one build each.
    for (const rebuild of rebuilds) await rebuild(this.db, 'sqlite');
    for (const o of this.suspended.filter((x) => x.type === 'index')) this.conn.exec(o.sql);
    await run(migrator(this.db, 'sqlite', null));
    const broken = this.conn.prepare('PRAGMA foreign_key_check').all() as { table: string; parent: string }[];
    if (broken.length) throw new Error(`foreign keys broken after restore: ${broken[0]!.table} → ${broken[0]!.parent} (${broken.length} rows)`);
    this.conn.exec('COMMIT');
  }

  async abort(): Promise<void> {
    if (this.conn.inTransaction) this.conn.exec('ROLLBACK');
  }

  async close(): Promise<void> {
    await this.abort();
    this.conn.close();
  }
}

class PgTarget implements RestoreTarget {
  readonly dialect = 'postgres' as const;
  private readonly db: Kysely<unknown>;
  /** The schema the forum's tables live in (search_path's first). */
  private live = 'public';
  /** Where the restore builds the tables: a staging schema when the live one has tables. */
  private work = 'public';
  private staging: string | null = null;
  private inTx = false;
  private indexes: string[] = [];
  private tablesMade: string[] = [];

  private constructor(private readonly client: PgModule.Client) {
    // Kysely on this one client: every statement joins the transaction the restore opened.
    const pinned = { query: client.query.bind(client), release: () => undefined };
    this.db = new Kysely({ dialect: new PostgresDialect({ pool: { connect: async () => pinned, end: async () => undefined } as never }) });
  }

  static async open(url: string): Promise<PgTarget> {
    const t = new PgTarget(await pgClient(url));
    t.live = t.work = (await t.client.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]!.s;
    return t;
  }

  private async liveTables(): Promise<string[]> {
    return (
      await this.client.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'`,
        [this.live],
      )
    ).rows.map((r) => r.name);
  }

  async state(): Promise<TargetState> {
    const names = await this.liveTables();
    if (!names.length) return 'no-tables';
    for (const t of await pgTables(this.client, this.live)) {
      if (t.name !== 'settings' && (await this.client.query(`SELECT 1 FROM ${q(this.live)}.${q(t.name)} LIMIT 1`)).rowCount) return 'has-data';
    }
    return 'empty';
  }

  async prepare(archiveMigrations: string[]): Promise<void> {
    await this.client.query('BEGIN');
    this.inTx = true;
    if ((await this.liveTables()).length) {
      this.staging = this.work = `palaver_restore_${randomBytes(4).toString('hex')}`;
      await this.client.query(`CREATE SCHEMA ${q(this.staging)}`);
      // Names resolve to the staging schema first: the migrations create there, the triggers fill there.
      await this.client.query(`SET LOCAL search_path TO ${q(this.staging)}, ${q(this.live)}`);
    }
    await run(migrator(this.db, 'postgres', new Set(archiveMigrations), this.staging ?? undefined));
    // Rows a migration seeded (defaults) are in the archive as they were then: the archive's rows alone go in.
    const { rows } = await this.client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' AND table_name NOT LIKE 'kysely\\_%'`,
      [this.work],
    );
    if (rows.length) await this.client.query(`TRUNCATE ${rows.map((r) => `${q(this.work)}.${q(r.name)}`).join(', ')}`);
    // The rows go in without the secondary indexes (a GIN index is built many times faster in
    // one go than row by row) and with the tables' own triggers off (foreign keys stay checked);
    // finish() makes them again. Indexes behind keys and unique constraints stay.
    const { rows: idx } = await this.client.query<{ name: string; def: string }>(
      `SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS def FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_namespace n ON n.oid = i.relnamespace
        WHERE n.nspname = $1 AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
      [this.work],
    );
    this.indexes = idx.map((r) => r.def);
    for (const r of idx) await this.client.query(`DROP INDEX ${q(this.work)}.${q(r.name)}`);
    this.tablesMade = rows.map((r) => r.name);
    for (const t of this.tablesMade) await this.client.query(`ALTER TABLE ${q(this.work)}.${q(t)} DISABLE TRIGGER USER`);
  }

  async tables(): Promise<TableInfo[]> {
    return pgTables(this.client, this.work);
  }

  async insert(table: string, columns: string[], rows: unknown[][]): Promise<void> {
    // PostgreSQL takes at most 65,535 parameters a statement.
    const per = Math.max(1, Math.min(1000, Math.floor(60_000 / columns.length)));
    for (let i = 0; i < rows.length; i += per) {
      const slice = rows.slice(i, i + per);
      const params: unknown[] = [];
      const tuples = slice.map((row) => `(${row.map((v) => (params.push(decodeValue(v, 'postgres')), `$${params.length}`)).join(', ')})`);
      await this.client.query(
        `INSERT INTO ${q(this.work)}.${q(table)} (${columns.map(q).join(', ')}) OVERRIDING SYSTEM VALUE VALUES ${tuples.join(', ')}`,
        params,
      );
    }
  }

  async finish(rebuilds: Rebuild[]): Promise<void> {
    await this.client.query(`SET LOCAL maintenance_work_mem = '256MB'`);
    // Serial and identity columns go on past the highest id restored.
    const { rows: seqs } = await this.client.query<{ t: string; c: string; seq: string }>(
      `SELECT table_name AS t, column_name AS c, pg_get_serial_sequence(format('%I.%I', table_schema, table_name), column_name) AS seq
         FROM information_schema.columns WHERE table_schema = $1 AND pg_get_serial_sequence(format('%I.%I', table_schema, table_name), column_name) IS NOT NULL`,
      [this.work],
    );
    for (const s of seqs) {
      await this.client.query(`SELECT setval($1, coalesce((SELECT max(${q(s.c)}) FROM ${q(this.work)}.${q(s.t)}), 0) + 1, false)`, [s.seq]);
    }
    for (const t of this.tablesMade) await this.client.query(`ALTER TABLE ${q(this.work)}.${q(t)} ENABLE TRIGGER USER`);
    // Derived rows first, then every index over them in one build each.
    for (const rebuild of rebuilds) await rebuild(this.db, 'postgres');
    for (const def of this.indexes) await this.client.query(def);
    await run(migrator(this.db, 'postgres', null, this.staging ?? undefined));
    if (this.staging) await this.swap(this.staging);
    await this.client.query('COMMIT');
    this.inTx = false;
  }

  /** Replaces the live schema's tables and functions by the staging schema's, in the open transaction. */
  private async swap(staging: string): Promise<void> {
    const fns = (schema: string) =>
      this.client.query<{ sig: string; name: string }>(
        `SELECT format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)) AS sig, p.proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          WHERE n.nspname = $1 AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`,
        [schema],
      );
    const loose = (schema: string) =>
      this.client.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = $1 AND c.relkind = 'S' AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype IN ('a', 'i', 'e'))`,
        [schema],
      );
    for (const t of await this.liveTables()) await this.client.query(`DROP TABLE IF EXISTS ${q(this.live)}.${q(t)} CASCADE`);
    for (const f of (await fns(this.live)).rows) await this.client.query(`DROP FUNCTION IF EXISTS ${f.sig} CASCADE`);
    for (const s of (await loose(this.live)).rows) await this.client.query(`DROP SEQUENCE IF EXISTS ${q(this.live)}.${q(s.name)} CASCADE`);
    const { rows: tables } = await this.client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'`,
      [staging],
    );
    for (const t of tables) await this.client.query(`ALTER TABLE ${q(staging)}.${q(t.name)} SET SCHEMA ${q(this.live)}`);
    for (const f of (await fns(staging)).rows) await this.client.query(`ALTER FUNCTION ${f.sig} SET SCHEMA ${q(this.live)}`);
    for (const s of (await loose(staging)).rows) await this.client.query(`ALTER SEQUENCE ${q(staging)}.${q(s.name)} SET SCHEMA ${q(this.live)}`);
    // RESTRICT: anything left behind fails the restore rather than vanish.
    await this.client.query(`DROP SCHEMA ${q(staging)} RESTRICT`);
  }

  async abort(): Promise<void> {
    if (this.inTx) await this.client.query('ROLLBACK').catch(() => undefined);
    this.inTx = false;
  }

  async close(): Promise<void> {
    await this.abort();
    await this.client.end();
  }
}
