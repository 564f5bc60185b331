import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Widgets (NodeBB's admin/extend/widgets): one row per widget placed in an area (`header`,
 * `sidebar`, `footer`) of a template (or `global`: every public template), in `sort` order;
 * `data` holds the type's own fields as JSON, `groups` the groups that see it (JSON list,
 * empty: everyone). `error_log`: the 404s and 500s seen (admin/advanced/errors), counted in
 * memory and flushed in batches, one row per (status, path).
 */
export function widgets(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      const serial = dialect === 'postgres' ? 'serial' : 'integer';
      const pk = (c: any) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
      await db.schema
        .createTable('widgets')
        .addColumn('id', serial, pk)
        .addColumn('template', 'text', (c) => c.notNull())
        .addColumn('area', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('container', 'text', (c) => c.notNull().defaultTo('card'))
        .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('groups', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('hide_mobile', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('widgets_template').on('widgets').columns(['template', 'area', 'sort']).execute();
      await db.schema
        .createTable('error_log')
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_seen', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('error_log_pk', ['status', 'path'])
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('error_log').execute();
      await db.schema.dropTable('widgets').execute();
    },
  };
}
