import type { Viewer } from '../../privileges/service.js';
import { member } from '../access.js';
import * as store from '../store.js';
import type { TopicRow } from '../store.js';
import type { TopicsDeps } from '../service.js';

/** How many topics the picker offers. */
const PICKER_LIMIT = 10;

/**
 * Topics whose title holds the term, for the tools' topic picker (merge, move posts): members
 * only, and only topics in categories the viewer moderates (the only ones a tool can target).
 */
export async function searchTopics(ctx: TopicsDeps, viewer: Viewer, term: string, exclude?: number): Promise<TopicRow[]> {
  member(viewer);
  const trimmed = term.trim();
  if (!trimmed) return [];
  const cids: number[] = [];
  for (const cid of await ctx.categories.readableCids(viewer)) if (await ctx.privileges.isModerator(viewer, cid)) cids.push(cid);
  const rows = await store.searchByTitle(ctx.db, trimmed, cids, PICKER_LIMIT + 1);
  // A numeric term also finds the topic of that id (moderators paste addresses).
  const byId = /^\d+$/.test(trimmed) ? await store.byTid(ctx.db, Number(trimmed)) : undefined;
  const found = byId && cids.includes(byId.cid) && byId.deleted !== 1 && !rows.some((r) => r.tid === byId.tid) ? [byId, ...rows] : rows;
  return found.filter((t) => t.tid !== exclude).slice(0, PICKER_LIMIT);
}
