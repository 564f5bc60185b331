import type { Insertable, Selectable } from 'kysely';
import type { Writer } from '../../core/action.js';
import { WIDGETS } from '../../core/tags.js';
import type { Queryable } from '../../db/index.js';
import type { WidgetsTable } from '../../db/schema.js';

export type WidgetRow = Selectable<WidgetsTable>;

/** Every widget, by template, area and order. */
export async function all(db: Queryable): Promise<WidgetRow[]> {
  return db.selectFrom('widgets').selectAll().orderBy('template').orderBy('area').orderBy('sort').orderBy('id').execute();
}

/** The widgets of these templates, in order. */
export async function ofTemplates(db: Queryable, templates: string[]): Promise<WidgetRow[]> {
  return db.selectFrom('widgets').selectAll().where('template', 'in', templates).orderBy('sort').orderBy('id').execute();
}

/** Replaces the widgets of one template (its given areas). */
export async function replace(w: Writer, template: string, areas: string[], rows: Insertable<WidgetsTable>[]): Promise<void> {
  w.changed(WIDGETS);
  const db = w.tx;
  if (areas.length) await db.deleteFrom('widgets').where('template', '=', template).where('area', 'in', areas).execute();
  if (rows.length) await db.insertInto('widgets').values(rows).execute();
}

export async function get(db: Queryable, id: number): Promise<WidgetRow | undefined> {
  return db.selectFrom('widgets').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function remove(w: Writer, id: number): Promise<void> {
  w.changed(WIDGETS);
  const db = w.tx;
  await db.deleteFrom('widgets').where('id', '=', id).execute();
}
