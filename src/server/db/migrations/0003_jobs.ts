import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The job queue: one row per queued run, or per recurring schedule (a unique `key`, so
 * every process can declare the schedule and one row exists). A runner claims a row by
 * taking its lease (`lease_owner`, `lease_until`) in one UPDATE; a run whose process died
 * is claimed again once the lease expires.
 */
export function jobs(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable('jobs')
        .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.unique())
        .addColumn('payload', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('queued'))
        .addColumn('run_at', ts, (c) => c.notNull())
        .addColumn('every_ms', ts, (c) => c.notNull().defaultTo(0))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(5))
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', ts, (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created', ts, (c) => c.notNull())
        .addColumn('finished', ts, (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('jobs_due').on('jobs').columns(['state', 'run_at']).execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('jobs').execute();
    },
  };
}
