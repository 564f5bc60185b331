import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration, type Transaction } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { initial } from './migrations/0001_initial.js';
import { reentrantDialect, ScopedKysely } from './reentrant.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either the database or an open transaction: stores accept both. */
export type Queryable = Kysely<Database> | Transaction<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
}

// PostgreSQL returns int8 (our timestamps and COUNT(*)) as strings; they fit in a double.
pg.types.setTypeParser(20, (v: string) => Number(v));

/** Opens the configured database: PostgreSQL when DATABASE_URL is set, else the SQLite file. */
export function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): DatabaseHandle {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    const db = new ScopedKysely<Database>({ dialect: reentrantDialect(new PostgresDialect({ pool })) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  mkdirSync(config.dataDir, { recursive: true });
  const file = new SQLite(path.join(config.dataDir, 'palaver.sqlite'));
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('synchronous = NORMAL');
  file.pragma('busy_timeout = 5000');
  const db = new ScopedKysely<Database>({ dialect: reentrantDialect(new SqliteDialect({ database: file })) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/** Every migration in order, for the given dialect. */
export function migrations(dialect: Dialect): Record<string, Migration> {
  return { '0001_initial': initial(dialect) };
}

/** Applies pending migrations; returns the names applied. */
export async function migrate(handle: Pick<DatabaseHandle, 'db' | 'dialect'>): Promise<string[]> {
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrations(handle.dialect) },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
