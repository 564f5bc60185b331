import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Web push: the forum's VAPID key pair (one row, made on first use; the private key never
 * leaves the server) and each member's push subscriptions, one per browser (its endpoint is
 * unique: a browser that subscribes again, or for another member, replaces its row).
 */
export function push(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable('push_vapid')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('private_key', 'text', (c) => c.notNull())
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('push_subscriptions')
        .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('endpoint', 'text', (c) => c.notNull().unique())
        .addColumn('p256dh', 'text', (c) => c.notNull())
        .addColumn('auth', 'text', (c) => c.notNull())
        .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await sql`create index push_subscriptions_uid on push_subscriptions (uid)`.execute(db);
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('push_subscriptions').execute();
      await db.schema.dropTable('push_vapid').execute();
    },
  };
}
