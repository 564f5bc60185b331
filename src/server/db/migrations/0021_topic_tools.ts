import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Topic tools: `topic_events` is a topic's public timeline of moderation (pin, lock, move,
 * merge, fork, owner change…: who, when, a small JSON of details), shown between its posts
 * and deletable by admins; its uid has no foreign key so an event outlives its actor's
 * account. `topics.pin_expiry` (0: no expiry) lifts a pin at that time. `topic_editors` lists
 * the members besides the author who may edit a topic's first post. `topic_redirects` keeps
 * the address of a topic merged into another working (it points at the topic it went into).
 */
export function topicTools(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      const serial = dialect === 'postgres' ? 'serial' : 'integer';
      const pk = (c: any) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
      await db.schema
        .createTable('topic_events')
        .addColumn('id', serial, pk)
        .addColumn('tid', 'integer', (c) => c.notNull().references('topics.tid').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('uid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await sql`create index topic_events_tid on topic_events (tid, created)`.execute(db);
      await db.schema.alterTable('topics').addColumn('pin_expiry', ts, (c) => c.notNull().defaultTo(0)).execute();
      // Only pinned topics with an expiry are looked at by the job.
      await sql`create index topics_pin_expiry on topics (pin_expiry) where pin_expiry > 0`.execute(db);
      await db.schema
        .createTable('topic_editors')
        .addColumn('tid', 'integer', (c) => c.notNull().references('topics.tid').onDelete('cascade'))
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addPrimaryKeyConstraint('topic_editors_pk', ['tid', 'uid'])
        .execute();
      await db.schema
        .createTable('topic_redirects')
        .addColumn('tid', 'integer', (c) => c.notNull().primaryKey())
        .addColumn('to_tid', 'integer', (c) => c.notNull().references('topics.tid').onDelete('cascade'))
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('topic_redirects_to').on('topic_redirects').column('to_tid').execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('topic_redirects').execute();
      await db.schema.dropTable('topic_editors').execute();
      await sql`drop index topics_pin_expiry`.execute(db);
      await db.schema.alterTable('topics').dropColumn('pin_expiry').execute();
      await db.schema.dropTable('topic_events').execute();
    },
  };
}
