import { isWriter, type Writer } from '../../core/action.js';
import { SETTINGS } from '../../core/tags.js';
import type { Queryable } from '../../db/index.js';

/** All stored settings as raw JSON strings. */
export async function allSettings(db: Queryable): Promise<Record<string, string>> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).execute();
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

/**
 * Writes one setting (JSON-encoded value) in the action's transaction. A bare transaction is
 * still taken from first-run setup, not yet on the runner (issue 51), which writes before any
 * process has read the settings.
 */
export async function putSetting(w: Writer | Queryable, key: string, value: string): Promise<void> {
  const db = isWriter(w) ? w.tx : w;
  if (isWriter(w)) w.changed(SETTINGS);
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/** One stored setting's raw value, or undefined. */
export async function getSetting(db: Queryable, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}
