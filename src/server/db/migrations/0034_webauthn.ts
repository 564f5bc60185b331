import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * WebAuthn security keys as a second factor (the 2factor plugin's `authn` variant):
 * `webauthn_credentials` holds each key a member registered (its credential id and COSE public
 * key as base64url text, which both databases store alike; the signature counter that refuses a
 * cloned key's responses; the transports the browser reported, as JSON; the member's label; when
 * it was added and last used). `webauthn_challenges` holds the challenges handed out and not yet
 * answered: each belongs to one session (or one waiting login), expires in minutes and is deleted
 * when answered, so a response works once.
 */
export function webauthn(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable('webauthn_credentials')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', ts, (c) => c.notNull().defaultTo(0))
        .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('label', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created', ts, (c) => c.notNull())
        .addColumn('last_used', ts, (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('webauthn_credentials_uid').on('webauthn_credentials').columns(['uid', 'created']).execute();
      await db.schema
        .createTable('webauthn_challenges')
        .addColumn('challenge', 'text', (c) => c.primaryKey())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('uid', 'integer', (c) => c.notNull())
        .addColumn('expires', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webauthn_challenges_owner').on('webauthn_challenges').columns(['owner', 'purpose']).execute();
      await db.schema.createIndex('webauthn_challenges_expires').on('webauthn_challenges').column('expires').execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('webauthn_challenges').execute();
      await db.schema.dropTable('webauthn_credentials').execute();
    },
  };
}
