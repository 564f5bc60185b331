import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Registration: the queue of registrations waiting for an admin (the password is kept only
 * as its hash), invitations (only the token's hash is stored; single use, with an expiry),
 * the addresses members registered from,
 * members' consent (GDPR and the terms of use, with the time given), captcha solutions
 * already used (a solved challenge works once until it expires), and failed logins per
 * address or name (the login captcha appears after N of them).
 */
export function registration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      const serial = dialect === 'postgres' ? 'serial' : 'integer';
      const pk = (c: any) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
      await db.schema
        .createTable('registration_queue')
        .addColumn('id', serial, pk)
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('userslug', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('gdpr_consent', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('tos_accepted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await sql`create unique index registration_queue_slug on registration_queue (userslug)`.execute(db);
      await sql`create unique index registration_queue_email on registration_queue (email)`.execute(db);
      await db.schema
        .createTable('invitations')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('inviter', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('groups', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created', ts, (c) => c.notNull())
        .addColumn('expires', ts, (c) => c.notNull())
        .addColumn('used_at', ts, (c) => c.notNull().defaultTo(0))
        .addColumn('used_by', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`create index invitations_inviter on invitations (inviter, created)`.execute(db);
      await db.schema
        .createTable('user_consents')
        .addColumn('uid', 'integer', (c) => c.primaryKey().references('users.uid').onDelete('cascade'))
        .addColumn('gdpr_consent', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('gdpr_at', ts, (c) => c.notNull().defaultTo(0))
        .addColumn('tos_at', ts, (c) => c.notNull().defaultTo(0))
        .execute();
      // Addresses members registered from: with admin-approval-ip, a known address waits for an admin.
      await db.schema
        .createTable('registration_ips')
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await sql`create index registration_ips_ip on registration_ips (ip)`.execute(db);
      await db.schema
        .createTable('captcha_spent')
        .addColumn('challenge', 'text', (c) => c.primaryKey())
        .addColumn('expires', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('login_failures')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('reset_at', ts, (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      for (const t of ['login_failures', 'captcha_spent', 'registration_ips', 'user_consents', 'invitations', 'registration_queue']) await db.schema.dropTable(t).execute();
    },
  };
}
