import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, type Migration, type Transaction } from 'kysely';
import { createRequire } from 'node:module';
import type PgModule from 'pg';
import type { Config } from '../config.js';
import { nameStatements } from './prepared.js';
import { initial } from './migrations/0001_initial.js';
import { listIndexes } from './migrations/0002_list_indexes.js';
import { jobs } from './migrations/0003_jobs.js';
import { federation } from './migrations/0061_federation.js';
import { tokenForeignKey } from './migrations/0004_token_fk.js';
import { notifications } from './migrations/0005_notifications.js';
import { mail } from './migrations/0006_mail.js';
import { watching } from './migrations/0007_watching.js';
import { notifyPrefs } from './migrations/0008_notify_prefs.js';
import { push } from './migrations/0009_push.js';
import { chats } from './migrations/0010_chats.js';
import { uploads } from './migrations/0011_uploads.js';
import { categoryTags } from './migrations/0012_category_tags.js';
import { queueSchedule } from './migrations/0013_queue_schedule.js';
import { chatSort } from './migrations/0014_chat_sort.js';
import { profile } from './migrations/0015_profile.js';
import { security } from './migrations/0016_security.js';
import { registration } from './migrations/0017_registration.js';
import { groups } from './migrations/0018_groups.js';
import { flags } from './migrations/0020_flags.js';
import { topicTools } from './migrations/0021_topic_tools.js';
import { moderation } from './migrations/0022_moderation.js';
import { search } from './migrations/0023_search.js';
import { replyIndex } from './migrations/0024_reply_index.js';
import { analytics } from './migrations/0025_analytics.js';
import { identityHistory } from './migrations/0033_identity_history.js';
import { topicListPlan } from './migrations/0037_topic_list_plan.js';
import { unreadIndex } from './migrations/0038_unread.js';
import { memberLists } from './migrations/0040_member_lists.js';
import { outbox } from './migrations/0050_outbox.js';
import { durableReceipts } from './migrations/0055_durable_receipts.js';
import { searchLanguage } from './migrations/0060_search_language.js';
import { webauthn } from './migrations/0034_webauthn.js';
import { groupIds } from './migrations/0035_group_ids.js';
import { widgets } from './migrations/0030_widgets.js';
import { rewards } from './migrations/0027_rewards.js';
import { reentrantDialect, ScopedKysely } from './reentrant.js';
import { StatementCache } from './statement-cache.js';
import { TableWrites } from './table-writes.js';
import { twoConnectionSqliteDialect } from './sqlite-driver.js';
import type { Database } from './schema.js';

export type { Dialect } from './dialect.js';
import type { Dialect } from './dialect.js';
export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either the database or an open transaction: stores accept both. */
export type Queryable = Kysely<Database> | Transaction<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** Committed writes per table, for caches of a table's rows (see table-writes.ts). */
  writes: TableWrites;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** The pg module, loaded only when PostgreSQL is configured (it costs start-up time). */
export function loadPg(): typeof PgModule {
  const pg = require('pg') as typeof PgModule;
  // PostgreSQL returns int8 (our timestamps and COUNT(*)) as strings; they fit in a double.
  pg.types.setTypeParser(20, (v: string) => Number(v));
  return pg;
}

/** Where the database reports a lost connection (the forum's logger; the console without one). */
export interface DbLog {
  warn(obj: object, msg: string): void;
}

const consoleLog: DbLog = { warn: (obj, msg) => console.warn(msg, obj) };

/** Opens the configured database: PostgreSQL when DATABASE_URL is set, else the SQLite file. */
export function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>, log: DbLog = consoleLog): DatabaseHandle {
  if (config.databaseUrl) {
    const pg = loadPg();
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    // A connection the server ends (a restart, a failover, pg_terminate_backend) emits 'error' on
    // its client, idle in the pool or checked out between two queries; with no listener Node ends
    // the process. The pool drops that client and opens a new one for the next query; the query
    // that was running fails with its request (never acknowledged).
    const lost = (err: Error) => log.warn({ err: err.message, code: (err as { code?: string }).code }, 'PostgreSQL connection lost; the pool opens a new one');
    pool.on('error', lost);
    pool.on('connect', (client) => {
      client.on('error', lost);
      nameStatements(client as never);
    });
    const writes = new TableWrites();
    const db = new ScopedKysely<Database>({ dialect: reentrantDialect(new PostgresDialect({ pool })), plugins: [writes] });
    return { db, dialect: 'postgres', writes, close: () => db.destroy() };
  }
  mkdirSync(config.dataDir, { recursive: true });
  const fileName = path.join(config.dataDir, 'palaver.sqlite');
  const writer = new SQLite(fileName);
  writer.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
  writer.pragma('journal_mode = WAL');
  writer.pragma('foreign_keys = ON');
  writer.pragma('synchronous = NORMAL');
  writer.pragma('busy_timeout = 5000');
  // A second connection for plain SELECTs (see sqlite-driver.ts); WAL lets it read while the
  // writer holds a transaction.
  const reader = new SQLite(fileName, { readonly: true });
  reader.pragma('busy_timeout = 5000');
  reader.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
  const dialect = twoConnectionSqliteDialect(new StatementCache(writer), new StatementCache(reader), path.resolve(fileName));
  const writes = new TableWrites();
  const db = new ScopedKysely<Database>({ dialect: reentrantDialect(dialect), plugins: [writes] });
  return { db, dialect: 'sqlite', writes, close: () => db.destroy() };
}

/**
 * The page cache of each SQLite connection, in KiB. better-sqlite3 builds SQLite with 16 MB a
 * connection, and a cache is kept full once filled: one search for a common word (its
 * full-text index pages) took the process's RSS up by 13 MB for good, the two connections
 * could hold 32 MB. The pages member reads use again and again (the list indexes, a topic's
 * posts, members) fit in far less, and the rest are a read of the operating system's own
 * file cache away.
 */
export const SQLITE_CACHE_KIB = 4096;

/** Every migration in order, for the given dialect. */
export function migrations(dialect: Dialect): Record<string, Migration> {
  return { '0001_initial': initial(dialect), '0002_list_indexes': listIndexes, '0003_jobs': jobs(dialect), '0004_token_fk': tokenForeignKey(dialect), '0005_notifications': notifications(dialect), '0006_mail': mail(dialect), '0007_watching': watching(dialect), '0008_notify_prefs': notifyPrefs(dialect), '0009_push': push(dialect), '0010_chats': chats(dialect), '0011_uploads': uploads(dialect), '0012_category_tags': categoryTags, '0013_queue_schedule': queueSchedule(dialect), '0014_chat_sort': chatSort, '0015_profile': profile, '0016_security': security(dialect), '0017_registration': registration(dialect), '0018_groups': groups(dialect), '0020_flags': flags(dialect), '0021_topic_tools': topicTools(dialect), '0022_moderation': moderation(dialect), '0023_search': search(dialect), '0024_reply_index': replyIndex, '0025_analytics': analytics(dialect), '0027_rewards': rewards(dialect), '0030_widgets': widgets(dialect), '0033_identity_history': identityHistory(dialect), '0034_webauthn': webauthn(dialect), '0035_group_ids': groupIds(dialect), '0037_topic_list_plan': topicListPlan, '0038_unread': unreadIndex, '0040_member_lists': memberLists, '0050_outbox': outbox(dialect), '0055_durable_receipts': durableReceipts(dialect), '0060_search_language': searchLanguage(dialect), '0061_federation': federation(dialect) };
}

/**
 * The order migrations run in: by their names' UTF-16 code units. Kysely's default,
 * `localeCompare`, loads the runtime's collation data on every start, some 1.8 MB of the
 * `node` program's pages that stayed in the process's RSS for nothing; for names of four
 * digits, an underscore and lowercase ASCII both orders are the same (migrations.test.ts).
 */
export function migrationOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Applies pending migrations; returns the names applied. */
export async function migrate(handle: Pick<DatabaseHandle, 'db' | 'dialect'>): Promise<string[]> {
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrations(handle.dialect) },
    // A forum that already ran a later migration still gets an earlier one added after it.
    allowUnorderedMigrations: true,
    nameComparator: migrationOrder,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
