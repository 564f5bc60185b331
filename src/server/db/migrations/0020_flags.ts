import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Flags (issue 14): one `flags` row per reported target (a post, a member or a chat message;
 * unique by type and target id) gathers every member's report (`flag_reports`, one per
 * reporter), the moderators' shared notes and the history of every change (state, assignee,
 * notes). `cid` is the flagged post's category when it was flagged (category moderators see
 * only their categories' flags; 0 for members and chat messages); `room_id` is a flagged chat
 * message's room. `assignee` 0 is nobody.
 *
 * The audit log gains `target` ('post:12', 'user:4', 'flag:3'…, derived from the event's data
 * when it is written) and indexes for its filters: by actor and by target, newest first.
 */
export function flags(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      const serial = dialect === 'postgres' ? 'serial' : 'integer';
      const pk = (c: any) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
      await db.schema
        .createTable('flags')
        .addColumn('flag_id', serial, pk)
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'integer', (c) => c.notNull())
        .addColumn('target_uid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('room_id', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('open'))
        .addColumn('assignee', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', ts, (c) => c.notNull())
        .addColumn('last_report', ts, (c) => c.notNull())
        .execute();
      await sql`create unique index flags_target on flags (type, target_id)`.execute(db);
      await sql`create index flags_state on flags (state, created desc)`.execute(db);
      await sql`create index flags_cid on flags (cid, created desc)`.execute(db);
      await sql`create index flags_assignee on flags (assignee) where assignee > 0`.execute(db);
      await db.schema
        .createTable('flag_reports')
        .addColumn('flag_id', 'integer', (c) => c.notNull().references('flags.flag_id').onDelete('cascade'))
        .addColumn('reporter_uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('created', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('flag_reports_pk', ['flag_id', 'reporter_uid'])
        .execute();
      // The daily limits count a member's reports of the last day; the reporter filter joins by it.
      await db.schema.createIndex('flag_reports_reporter').on('flag_reports').columns(['reporter_uid', 'created']).execute();
      await db.schema
        .createTable('flag_notes')
        .addColumn('id', serial, pk)
        .addColumn('flag_id', 'integer', (c) => c.notNull().references('flags.flag_id').onDelete('cascade'))
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('datetime', ts, (c) => c.notNull())
        .execute();
      // NodeBB names a note by its flag and its time (DELETE /flags/{flagId}/notes/{datetime}).
      await sql`create unique index flag_notes_time on flag_notes (flag_id, datetime)`.execute(db);
      await db.schema
        .createTable('flag_history')
        .addColumn('id', serial, pk)
        .addColumn('flag_id', 'integer', (c) => c.notNull().references('flags.flag_id').onDelete('cascade'))
        .addColumn('uid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('fields', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('datetime', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('flag_history_flag').on('flag_history').columns(['flag_id', 'id']).execute();

      await db.schema.alterTable('events').addColumn('target', 'text', (c) => c.notNull().defaultTo('')).execute();
      await sql`create index events_uid on events (uid, created desc)`.execute(db);
      await sql`create index events_target on events (target, created desc) where target <> ''`.execute(db);
      await sql`create index events_time on events (created desc)`.execute(db);
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('events_time').execute();
      await db.schema.dropIndex('events_target').execute();
      await db.schema.dropIndex('events_uid').execute();
      await db.schema.alterTable('events').dropColumn('target').execute();
      await db.schema.dropTable('flag_history').execute();
      await db.schema.dropTable('flag_notes').execute();
      await db.schema.dropTable('flag_reports').execute();
      await db.schema.dropTable('flags').execute();
    },
  };
}
