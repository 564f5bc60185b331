import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * API tokens belong to a member: `api_tokens.uid` references `users.uid` and goes with the
 * member (ON DELETE CASCADE). Master tokens, which belong to no member, now store a NULL uid
 * instead of 0. Orphan tokens (of members already deleted) are dropped. Also adds
 * `users.about_html`, the about-me rendered when it is written.
 */
export function tokenForeignKey(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      if (dialect === 'postgres') {
        await sql`delete from api_tokens where uid <> 0 and uid not in (select uid from users)`.execute(db);
        await sql`alter table api_tokens alter column uid drop not null`.execute(db);
        await sql`update api_tokens set uid = null where uid = 0`.execute(db);
        await sql`alter table api_tokens add constraint api_tokens_uid_fk foreign key (uid) references users (uid) on delete cascade`.execute(db);
      } else {
        // SQLite cannot add a foreign key to a table: build the new table, copy, swap.
        await db.schema
          .createTable('api_tokens_new')
          .addColumn('token_hash', 'text', (c) => c.primaryKey())
          .addColumn('uid', 'integer', (c) => c.references('users.uid').onDelete('cascade'))
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('created', ts, (c) => c.notNull())
          .addColumn('last_seen', ts, (c) => c.notNull().defaultTo(0))
          .execute();
        await sql`insert into api_tokens_new (token_hash, uid, description, created, last_seen)
          select token_hash, case when uid = 0 then null else uid end, description, created, last_seen
          from api_tokens where uid = 0 or uid in (select uid from users)`.execute(db);
        await db.schema.dropTable('api_tokens').execute();
        await sql`alter table api_tokens_new rename to api_tokens`.execute(db);
      }
      await db.schema.createIndex('api_tokens_uid').on('api_tokens').column('uid').execute();
      await db.schema
        .alterTable('users')
        .addColumn('about_html', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
    },
  };
}
