import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The post queue and scheduled topics. `post_queue` holds a new member's topic or reply until
 * a moderator accepts it (it then goes through the normal create path) or rejects it.
 * `topics.scheduled` is 1 while a topic waits for its publication time (`created`): lists,
 * counters and reads leave it out until the publishing job clears it. `categories.post_queue`
 * lets the forum's post queue apply in a category (NodeBB's per-category `postQueue`, on by default).
 */
export function queueSchedule(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      const id = dialect === 'postgres' ? 'serial' : 'integer';
      await db.schema
        .createTable('post_queue')
        .addColumn('id', id, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('cid', 'integer', (c) => c.notNull())
        .addColumn('tid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('to_pid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('timestamp', ts, (c) => c.notNull().defaultTo(0))
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('post_queue_cid').on('post_queue').columns(['cid', 'created']).execute();
      await db.schema.createIndex('post_queue_uid').on('post_queue').column('uid').execute();
      await db.schema.alterTable('topics').addColumn('scheduled', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.createIndex('topics_scheduled').on('topics').columns(['scheduled', 'created']).execute();
      await db.schema.alterTable('categories').addColumn('post_queue', 'integer', (c) => c.notNull().defaultTo(1)).execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('post_queue').execute();
      await db.schema.dropIndex('topics_scheduled').execute();
      await db.schema.alterTable('topics').dropColumn('scheduled').execute();
      await db.schema.alterTable('categories').dropColumn('post_queue').execute();
    },
  };
}
