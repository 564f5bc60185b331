import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The outbox of durable side effects (core/outbox.ts): an action that fires a hook with durable
 * listeners (notifications, mentions, mail, push) writes one row here in its own transaction,
 * so the effect is committed with the write or not at all. The writing process runs it at once
 * (the row is born leased to it); a row whose process died is taken by another once its lease
 * ends. `pending` lists the listeners still to run; a failed one is retried with back-off.
 */
export function outbox(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable('outbox')
        .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('hook', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('pending', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('queued'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('run_at', ts, (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', ts, (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('outbox_due').on('outbox').columns(['state', 'lease_until', 'run_at']).execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('outbox').execute();
    },
  };
}
