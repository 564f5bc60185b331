import type { Queryable } from '../../db/index.js';

/** All stored settings as raw JSON strings. */
export async function allSettings(db: Queryable): Promise<Record<string, string>> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).execute();
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

/** Writes one setting (JSON-encoded value). */
export async function putSetting(db: Queryable, key: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
