import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Account security: a member's TOTP key (`two_factor`: `confirmed` 0 while enrolling, the
 * last time step used so a code cannot be replayed), their backup codes (hashes, each used
 * once), the names a member had before a change (`username_history`, which the cool-down
 * reads), and `sessions.reauth_until`: until when a session holding a two-factor key may
 * enter the admin area without passing /login/2fa again.
 */
export function security(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable('two_factor')
        .addColumn('uid', 'integer', (c) => c.primaryKey().references('users.uid').onDelete('cascade'))
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('confirmed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_step', ts, (c) => c.notNull().defaultTo(0))
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('two_factor_backup')
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('used_at', ts, (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('two_factor_backup_pk', ['uid', 'code_hash'])
        .execute();
      await db.schema
        .createTable('username_history')
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('changed', ts, (c) => c.notNull())
        .execute();
      await sql`create index username_history_uid on username_history (uid, changed)`.execute(db);
      await db.schema.alterTable('sessions').addColumn('reauth_until', ts, (c) => c.notNull().defaultTo(0)).execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('sessions').dropColumn('reauth_until').execute();
      await db.schema.dropTable('username_history').execute();
      await db.schema.dropTable('two_factor_backup').execute();
      await db.schema.dropTable('two_factor').execute();
    },
  };
}
