import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The moderators' info page lists the names and addresses a member has had (NodeBB's
 * `usernames` and `emails`): `email_history` keeps each address a member's account was given
 * (by whom, when), and `username_history` learns who made each change (`by_uid`; 0 for the
 * changes made before this migration).
 */
export function identityHistory(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      const serial = dialect === 'postgres' ? 'serial' : 'integer';
      const pk = (c: any) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
      await db.schema
        .createTable('email_history')
        .addColumn('id', serial, pk)
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('by_uid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('changed', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('email_history_uid').on('email_history').columns(['uid', 'changed']).execute();
      await db.schema.alterTable('username_history').addColumn('by_uid', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('username_history').dropColumn('by_uid').execute();
      await db.schema.dropTable('email_history').execute();
    },
  };
}
