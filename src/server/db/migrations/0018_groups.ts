import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Groups grow from the internal system groups into NodeBB's user groups: the badge a group
 * gives (label, icon, colours), its kind (`private`: requests need an owner; `hidden`: not
 * listed, membership by invite), the switches NodeBB has (join requests, leaving), the cover
 * picture; on members, `is_owner` (owners manage the group) and `badge` (0: the member does not
 * show this group's badge; n: shown, in that order: NodeBB's `groupTitle` list); and the
 * membership requests and invitations waiting for an answer. The new tables follow a rename of
 * the group through ON UPDATE CASCADE.
 */
export function groups(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      const add = (name: string, type: 'text' | 'integer', value: string | number) =>
        db.schema.alterTable('groups').addColumn(name, type, (c) => c.notNull().defaultTo(value)).execute();
      await add('user_title', 'text', '');
      await add('user_title_enabled', 'integer', 1);
      await add('icon', 'text', '');
      await add('label_color', 'text', '#000000');
      await add('text_color', 'text', '#ffffff');
      await add('disable_join_requests', 'integer', 0);
      await add('disable_leave', 'integer', 0);
      await add('description_parsed', 'text', '');
      await add('cover_url', 'text', '');
      await add('cover_thumb_url', 'text', '');
      await add('cover_position', 'text', '50% 50%');
      await db.schema.alterTable('group_members').addColumn('is_owner', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('group_members').addColumn('badge', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      for (const table of ['group_pending', 'group_invites']) {
        await db.schema
          .createTable(table)
          .addColumn('group_name', 'text', (c) => c.notNull().references('groups.name').onDelete('cascade').onUpdate('cascade'))
          .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
          .addColumn('by_uid', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created', ts, (c) => c.notNull())
          .addPrimaryKeyConstraint(`${table}_pk`, ['group_name', 'uid'])
          .execute();
        await db.schema.createIndex(`${table}_uid`).on(table).column('uid').execute();
      }
      await db.schema.createIndex('groups_created').on('groups').column('created').execute();
      await db.schema.createIndex('group_members_badge').on('group_members').columns(['uid', 'badge']).execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('group_invites').execute();
      await db.schema.dropTable('group_pending').execute();
      await db.schema.dropIndex('group_members_badge').execute();
      await db.schema.dropIndex('groups_created').execute();
      for (const c of ['is_owner', 'badge']) await db.schema.alterTable('group_members').dropColumn(c).execute();
      for (const c of ['user_title', 'user_title_enabled', 'icon', 'label_color', 'text_color', 'disable_join_requests', 'disable_leave', 'description_parsed', 'cover_url', 'cover_thumb_url', 'cover_position']) {
        await db.schema.alterTable('groups').dropColumn(c).execute();
      }
    },
  };
}
