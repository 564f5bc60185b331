import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Federation (ActivityPub, domains/federation):
 * - `federation_kv`: Fedify's key-value store (its caches, inbox idempotence), a key as JSON text,
 *   its value as JSON text, an expiry in ms (0: none).
 * - `federation_keys`: each local actor's key pairs (`uid/5`, `category/3`, `actor`), generated
 *   once, as JWK; the private half is never logged nor served.
 * - `federation_followers`: remote actors following a local one, with the inbox they deliver to.
 * - `federation_received`: activities received in the inboxes (verified), kept as they came.
 */
export function federation(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      const id = (c: any) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
      await db.schema
        .createTable('federation_kv')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('expires', ts, (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('federation_keys')
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('algorithm', 'text', (c) => c.notNull())
        .addColumn('private_jwk', 'text', (c) => c.notNull())
        .addColumn('public_jwk', 'text', (c) => c.notNull())
        .addColumn('created', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('federation_keys_pk', ['actor', 'algorithm'])
        .execute();
      await db.schema
        .createTable('federation_followers')
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('follower', 'text', (c) => c.notNull())
        .addColumn('inbox', 'text', (c) => c.notNull())
        .addColumn('shared_inbox', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('follow_id', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('federation_followers_pk', ['actor', 'follower'])
        .execute();
      await db.schema
        .createTable('federation_received')
        .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', id)
        .addColumn('activity_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('received', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('federation_received_activity').on('federation_received').column('activity_id').unique().execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      for (const t of ['federation_received', 'federation_followers', 'federation_keys', 'federation_kv']) await db.schema.dropTable(t).execute();
    },
  };
}
