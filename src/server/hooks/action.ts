import type { Db, Tx } from '../db/index.js';
import { afterCommit, inTransaction } from '../db/reentrant.js';

/** One write: its rows in one transaction, then what follows once they are committed. */
export interface ActionSpec<R> {
  /** Every write of the action, on the transaction it is given. */
  write: (tx: Tx) => Promise<R>;
  /** Runs after commit (never on rollback): fire the action hook, clear shared caches. */
  after?: (result: R) => void;
}

/**
 * Runs an action as its own specification: the writes in one transaction, then `after`.
 * Called inside another transaction, the writes join it and `after` waits for its commit,
 * so a hook never announces rows that could still roll back.
 */
export async function runAction<R>(db: Db, spec: ActionSpec<R>): Promise<R> {
  if (inTransaction()) {
    // A second BEGIN on the open connection would fail (SQLite) or wait for ever: queries on
    // the database object join the open transaction instead (see db/reentrant.ts).
    const joined = await spec.write(db as unknown as Tx);
    const after = spec.after;
    if (after) afterCommit(() => after(joined));
    return joined;
  }
  let result!: R;
  await db.transaction().execute(async (tx) => {
    result = await spec.write(tx);
    const after = spec.after;
    if (after) afterCommit(() => after(result));
  });
  return result;
}

/** Runs `work` when the open transaction commits, or at once outside a transaction. */
export function onCommit(work: () => void): void {
  if (!afterCommit(work)) work();
}
