import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Notifications: one row per reader and merge key (`new_post:tid:5`), so a new event about
 * the same thing updates the reader's row (an upsert on `(uid, merge_key)`) instead of adding
 * one. `from_uids` is the merged senders, newest first, as fixed-width tokens
 * `,0000000007,0000000003,` (searchable with LIKE, editable with replace() and substr() in
 * both dialects: see notifications/store.ts); `body_params` is a JSON array of the text's
 * parameters after the senders' names, so each reader sees the text in their language.
 */
export function notifications(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable('notifications')
        .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('merge_key', 'text', (c) => c.notNull())
        .addColumn('subject_type', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('from_uid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('from_uids', 'text', (c) => c.notNull().defaultTo(','))
        .addColumn('from_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('body_key', 'text', (c) => c.notNull())
        .addColumn('body_params', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('pid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('tid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('importance', 'integer', (c) => c.notNull().defaultTo(5))
        .addColumn('read', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await sql`create unique index notifications_uid_merge on notifications (uid, merge_key)`.execute(db);
      // The reader's list (newest first, optionally by type) and unread count.
      await sql`create index notifications_uid_created on notifications (uid, created desc, id desc)`.execute(db);
      await sql`create index notifications_uid_type_created on notifications (uid, type, created desc, id desc)`.execute(db);
      await sql`create index notifications_uid_unread on notifications (uid, read)`.execute(db);
      // A purged topic's notifications are deleted.
      await sql`create index notifications_tid on notifications (tid)`.execute(db);
    },
  };
}
