import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Groups are keyed by name (a text primary key that follows renames), but the uploads domain
 * records which files are used by an integer (`upload_refs.ref_id`): `gid` gives each group a
 * stable integer, kept across renames, so a group's cover photo is referenced like a member's.
 * PostgreSQL fills it from a sequence (existing rows too); SQLite numbers the existing rows and a
 * trigger numbers each new group (SQLite writes one transaction at a time, so max + 1 is safe).
 */
export function groupIds(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect === 'postgres') {
        await db.schema.alterTable('groups').addColumn('gid', 'serial', (c) => c.notNull()).execute();
      } else {
        await db.schema.alterTable('groups').addColumn('gid', 'integer', (c) => c.notNull().defaultTo(0)).execute();
        await sql`update groups set gid = (select count(*) from groups g2 where g2.created < groups.created or (g2.created = groups.created and g2.name <= groups.name))`.execute(db);
        await sql`create trigger groups_gid after insert on groups for each row when new.gid = 0 begin update groups set gid = (select coalesce(max(gid), 0) + 1 from groups) where name = new.name; end`.execute(db);
      }
      await db.schema.createIndex('groups_gid').on('groups').column('gid').unique().execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      if (dialect !== 'postgres') await sql`drop trigger groups_gid`.execute(db);
      await db.schema.dropIndex('groups_gid').execute();
      await db.schema.alterTable('groups').dropColumn('gid').execute();
    },
  };
}
