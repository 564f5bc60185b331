import type { Queryable } from '../../../db/index.js';
import * as store from '../store.js';

/** The topic a merged topic went into, when `tid` names no topic but a merged one. */
export async function mergedInto(ctx: { db: Queryable }, tid: number): Promise<number | undefined> {
  if (await store.byTid(ctx.db, tid)) return undefined;
  return store.redirectOf(ctx.db, tid);
}
