import type { Writer } from '../../core/action.js';
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
export async function putSetting(w: Writer, key: string, value: string): Promise<void> {
  w.changed(SETTINGS);
  await w.tx
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

/** Writes a setting only when its key is free; true when this call wrote it (of writers racing on one database, exactly one). */
export async function claimSetting(w: Writer, key: string, value: string): Promise<boolean> {
  const res = await w.tx
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Replaces a setting's value only while it still holds `from`; true when this call did (compare and swap). */
export async function swapSetting(w: Writer, key: string, from: string, to: string): Promise<boolean> {
  const res = await w.tx.updateTable('settings').set({ value: to }).where('key', '=', key).where('value', '=', from).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Removes a setting only while it still holds `value`. */
export async function releaseSetting(w: Writer, key: string, value: string): Promise<void> {
  await w.tx.deleteFrom('settings').where('key', '=', key).where('value', '=', value).execute();
}
