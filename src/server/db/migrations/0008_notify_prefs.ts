import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Notification deliveries beyond the app: `notification_mail_marks` remembers, per reader and
 * merge key, when a notification was last mailed (a flood of replies merging into one
 * notification sends one mail until the reader reads it); `digest_sends` the time of each
 * member's last digest (the digest job claims a member by moving it forward).
 */
export function notifyPrefs(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable('notification_mail_marks')
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('merge_key', 'text', (c) => c.notNull())
        .addColumn('mailed_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('notification_mail_marks_pk', ['uid', 'merge_key'])
        .execute();
      await db.schema
        .createTable('digest_sends')
        .addColumn('uid', 'integer', (c) => c.primaryKey().references('users.uid').onDelete('cascade'))
        .addColumn('last_sent', ts, (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('digest_sends').execute();
      await db.schema.dropTable('notification_mail_marks').execute();
    },
  };
}
