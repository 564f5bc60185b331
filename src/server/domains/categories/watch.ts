import { forbidden, notAuthorised, notFound } from '../../http/errors.js';
import { parseSettings } from '../notifications/schemas.js';
import type { Viewer } from '../privileges/service.js';
import type { CategoriesDeps } from './service.js';
import * as store from './store.js';

/** NodeBB's category watch states, least to most attentive. */
export const WATCH_STATES = ['ignoring', 'notwatching', 'tracking', 'watching'] as const;
export type WatchState = (typeof WATCH_STATES)[number];

/**
 * The state of a category a member never chose: NodeBB's installed default
 * (`categoryWatchState`), so a new member sees every category's topics in /unread.
 */
export const DEFAULT_WATCH_STATE: WatchState = 'watching';

/**
 * Sets (or, with null, resets to the default) a member's watch state of a category and of
 * all its descendants, as NodeBB does; returns the cids changed. Another member's state
 * only by an administrator (NodeBB's optional `uid`).
 */
export async function setWatchState(ctx: CategoriesDeps, actor: Viewer, cid: number, state: WatchState | null, uid = actor.uid): Promise<number[]> {
  if (actor.uid <= 0) throw notAuthorised();
  if (uid !== actor.uid && !actor.isAdmin) throw forbidden();
  const all = await store.all(ctx.db);
  const root = all.find((c) => c.cid === cid);
  if (!root || (root.disabled === 1 && !actor.isAdmin)) throw notFound('error:no-category');
  if (!(await ctx.privileges.can(actor, 'read', cid))) throw notFound('error:no-category');
  if (uid !== actor.uid && !(await ctx.users.get(uid))) throw notFound('error:no-user');
  const cids = [cid];
  for (let i = 0; i < cids.length; i++) for (const c of all) if (c.parent_cid === cids[i] && !cids.includes(c.cid)) cids.push(c.cid);
  return ctx.actions.run('category.watch', async (w) => {
    await store.setWatchState(w, uid, cids, state);
    await w.fire('action:category.watch', { uid, cids, state });
    return cids;
  });
}

/**
 * A member's effective watch state of each category: chosen, else their default, else the
 * forum's (guests watch nothing, as in NodeBB). `chosenOf` gives the states a member chose
 * (the service's cache of them), by cid.
 */
export async function watchStatesOf(ctx: CategoriesDeps, who: number | Viewer, cids: number[], chosenOf: (uid: number) => Promise<ReadonlyMap<number, string>>): Promise<Map<number, WatchState>> {
  const uid = typeof who === 'number' ? who : who.uid;
  if (uid <= 0) return new Map(cids.map((cid) => [cid, 'notwatching']));
  // The viewer's own row came with their request: no second read of it.
  const [chosen, user] = await Promise.all([chosenOf(uid), typeof who === 'number' ? ctx.users.get(uid) : ctx.users.ofViewer(who)]);
  // A category the member never chose follows their own default (`categoryWatchState`), else the forum's.
  const own = user ? parseSettings(user.settings).categoryWatchState : undefined;
  const fallback = typeof own === 'string' && (WATCH_STATES as readonly string[]).includes(own) ? (own as WatchState) : DEFAULT_WATCH_STATE;
  return new Map(cids.map((cid) => [cid, (chosen.get(cid) as WatchState | undefined) ?? fallback]));
}
