import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Mail: the outbox (every mail is written here first and sent by the `mail.send` job, so a
 * refusing or absent SMTP server loses nothing), the single-use codes of the confirmation
 * and password-reset links (stored as hashes: a database leak gives no working link), and
 * the notification types a member unsubscribed from by email.
 */
export function mail(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable('mail_outbox')
        .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('uid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('to_address', 'text', (c) => c.notNull())
        .addColumn('template', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('html', 'text', (c) => c.notNull())
        .addColumn('headers', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt', ts, (c) => c.notNull())
        .addColumn('lease_until', ts, (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created', ts, (c) => c.notNull())
        .addColumn('sent_at', ts, (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`create index mail_outbox_due on mail_outbox (status, next_attempt)`.execute(db);
      await db.schema
        .createTable('mail_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('created', ts, (c) => c.notNull())
        .addColumn('expires', ts, (c) => c.notNull())
        .addColumn('used_at', ts, (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`create index mail_codes_uid on mail_codes (uid, kind)`.execute(db);
      await db.schema
        .createTable('mail_unsubscribes')
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('created', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('mail_unsubscribes_pk', ['uid', 'type'])
        .execute();
    },
  };
}
