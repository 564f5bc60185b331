import type { Writer } from '../../core/action.js';

/** One row of the audit log as written. */
export interface NewEvent {
  type: string;
  uid: number;
  ip: string;
  data: string;
  target: string;
  created: number;
}

/** Writes an event in the action's transaction (no cache is built from the log: no tag). */
export async function insertEvent(w: Writer, row: NewEvent): Promise<void> {
  await w.tx.insertInto('events').values(row).execute();
}
