import type { Writer } from '../../core/action.js';
import { PRIVILEGES } from '../../core/tags.js';
import type { Queryable } from '../../db/index.js';

export interface PrivilegeRow {
  cid: number;
  privilege: string;
  subject: string;
}

/** Every privilege grant (small: categories × privileges × groups). */
export async function allGrants(db: Queryable): Promise<PrivilegeRow[]> {
  return db.selectFrom('privileges').select(['cid', 'privilege', 'subject']).execute();
}

/** Grants privileges to a subject in a category (0 = global). */
export async function grant(w: Writer, cid: number, privileges: string[], subject: string): Promise<void> {
  if (!privileges.length) return;
  w.changed(PRIVILEGES);
  await w.tx
    .insertInto('privileges')
    .values(privileges.map((privilege) => ({ cid, privilege, subject })))
    .onConflict((oc) => oc.columns(['cid', 'privilege', 'subject']).doNothing())
    .execute();
}

/** Takes privileges from a subject in a category. */
export async function rescind(w: Writer, cid: number, privileges: string[], subject: string): Promise<void> {
  if (!privileges.length) return;
  w.changed(PRIVILEGES);
  await w.tx.deleteFrom('privileges').where('cid', '=', cid).where('subject', '=', subject).where('privilege', 'in', privileges).execute();
}

/** Removes every grant of a category. */
export async function dropCategory(w: Writer, cid: number): Promise<void> {
  w.changed(PRIVILEGES);
  await w.tx.deleteFrom('privileges').where('cid', '=', cid).execute();
}

/** Moves a group's grants to its new name, or drops them (`to` null) when the group is deleted. */
export async function renameSubject(w: Writer, from: string, to: string | null): Promise<void> {
  w.changed(PRIVILEGES);
  if (to === null) await w.tx.deleteFrom('privileges').where('subject', '=', from).execute();
  else await w.tx.updateTable('privileges').set({ subject: to }).where('subject', '=', from).execute();
}
