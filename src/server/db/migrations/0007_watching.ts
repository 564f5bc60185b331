import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Watching beyond topics: a member's watch state of a category (only states they chose are
 * stored; the rest follow the forum's default), the tags they follow, and the members they
 * follow. `users.follower_count` / `following_count` are counters owned by the users domain,
 * updated in the same transaction as the follow row, so a profile reads them without a count.
 */
export function watching(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable('category_watches')
        .addColumn('cid', 'integer', (c) => c.notNull().references('categories.cid').onDelete('cascade'))
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('state', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('category_watches_pk', ['cid', 'uid'])
        .execute();
      await db.schema.createIndex('category_watches_uid').on('category_watches').column('uid').execute();
      await db.schema
        .createTable('tag_follows')
        .addColumn('tag', 'text', (c) => c.notNull())
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('created', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('tag_follows_pk', ['tag', 'uid'])
        .execute();
      await db.schema.createIndex('tag_follows_uid').on('tag_follows').column('uid').execute();
      await db.schema
        .createTable('user_follows')
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('followee', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('created', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('user_follows_pk', ['uid', 'followee'])
        .execute();
      await db.schema.createIndex('user_follows_followee').on('user_follows').column('followee').execute();
      await db.schema.alterTable('users').addColumn('follower_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('users').addColumn('following_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('user_follows').execute();
      await db.schema.dropTable('tag_follows').execute();
      await db.schema.dropTable('category_watches').execute();
      await db.schema.alterTable('users').dropColumn('follower_count').execute();
      await db.schema.alterTable('users').dropColumn('following_count').execute();
    },
  };
}
