import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * What makes the outbox's listeners safe to run twice (core/outbox.ts runs a row again when its
 * process died before marking it done):
 * - `notification_receipts`: one row per event and reader told (`reply:<pid>`, `mention:<pid>`,
 *   …, notifications/service.ts). A notification is stored, mailed and pushed only for the
 *   readers whose receipt the same transaction inserted, so an event told twice tells nobody
 *   twice. Pruned after a few days (longer than the outbox retries a row).
 * - `mail_outbox.dedupe_key`: a mail queued by a durable listener carries its outbox row's key;
 *   the unique index drops the second copy.
 */
export function durableReceipts(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable('notification_receipts')
        .addColumn('event_key', 'text', (c) => c.notNull())
        .addColumn('uid', 'integer', (c) => c.notNull())
        .addColumn('created', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('notification_receipts_pk', ['event_key', 'uid'])
        .execute();
      await db.schema.createIndex('notification_receipts_created').on('notification_receipts').column('created').execute();
      await db.schema.alterTable('mail_outbox').addColumn('dedupe_key', 'text').execute();
      await db.schema.createIndex('mail_outbox_dedupe').on('mail_outbox').column('dedupe_key').unique().execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('mail_outbox_dedupe').execute();
      await db.schema.alterTable('mail_outbox').dropColumn('dedupe_key').execute();
      await db.schema.dropTable('notification_receipts').execute();
    },
  };
}
