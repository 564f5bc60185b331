import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Member moderation (the moderation domain's tables): `moderation_actions` is every ban,
 * unban, mute and unmute of a member (the history the info page lists; the ban itself stays
 * on `users`), `member_mutes` the mutes in force (`until` 0: no end), `ip_history` the
 * addresses a member logged in or posted from, one row per member, address and UTC day,
 * `moderation_notes` the moderators' notes on a member, `ip_blacklist` the blacklist's text
 * (one row) and `ip_blacklist_hits` how often each rule refused a request.
 */
export function moderation(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      const serial = dialect === 'postgres' ? 'serial' : 'integer';
      const pk = (c: any) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
      await db.schema
        .createTable('moderation_actions')
        .addColumn('id', serial, pk)
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('by_uid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('until', ts, (c) => c.notNull().defaultTo(0))
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('moderation_actions_uid').on('moderation_actions').columns(['uid', 'kind', 'id']).execute();
      await db.schema
        .createTable('member_mutes')
        .addColumn('uid', 'integer', (c) => c.primaryKey().references('users.uid').onDelete('cascade'))
        .addColumn('until', ts, (c) => c.notNull().defaultTo(0))
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('by_uid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('ip_history')
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('first_seen', ts, (c) => c.notNull())
        .addColumn('last_seen', ts, (c) => c.notNull())
        .addColumn('hits', 'integer', (c) => c.notNull().defaultTo(1))
        .addPrimaryKeyConstraint('ip_history_pk', ['uid', 'ip', 'day'])
        .execute();
      await db.schema.createIndex('ip_history_ip').on('ip_history').columns(['ip', 'uid']).execute();
      await db.schema
        .createTable('moderation_notes')
        .addColumn('id', serial, pk)
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('by_uid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('note', 'text', (c) => c.notNull())
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('moderation_notes_uid').on('moderation_notes').columns(['uid', 'id']).execute();
      await db.schema
        .createTable('ip_blacklist')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('rules', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('updated', ts, (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('ip_blacklist_hits')
        .addColumn('rule', 'text', (c) => c.primaryKey())
        .addColumn('hits', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_hit', ts, (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`insert into ip_blacklist (id, rules, updated) values (1, '', 0)`.execute(db);
    },
    async down(db: Kysely<any>): Promise<void> {
      for (const t of ['ip_blacklist_hits', 'ip_blacklist', 'moderation_notes', 'ip_history', 'member_mutes', 'moderation_actions']) await db.schema.dropTable(t).execute();
    },
  };
}
