import type { Updateable } from 'kysely';
import type { CategoriesTable } from '../../db/schema.js';
import { badRequest, forbidden, notAuthorised, notFound } from '../../http/errors.js';
import { CATEGORY_PRIVILEGES, type Viewer } from '../privileges/service.js';
import type { CategoriesDeps } from './service.js';
import * as store from './store.js';
import type { CategoryRow } from './store.js';

const DAY = 86_400_000;
export const ANALYTICS_DAYS = 30;

/** Per-day counts of the last 30 days (oldest first, today last) of a category's topics and posts. */
export interface CategoryAnalytics {
  /** The first day shown (UTC midnight, ms). */
  since: number;
  'topics:daily': number[];
  'posts:daily': number[];
}

/** Admins only: a guest is told to sign in (401), a member is refused (403). */
export function assertCategoryAdmin(actor: Viewer): void {
  if (actor.uid <= 0 && !actor.isAdmin) throw notAuthorised();
  if (!actor.isAdmin) throw forbidden();
}

async function load(ctx: CategoriesDeps, cid: number): Promise<CategoryRow> {
  const row = await store.byCid(ctx.db, cid);
  if (!row) throw notFound('error:no-category');
  return row;
}

/** Topics and posts per day in a category over the last 30 days: one grouped query each (admins). */
export async function categoryAnalytics(ctx: CategoriesDeps, actor: Viewer, cid: number, now = Date.now()): Promise<CategoryAnalytics> {
  assertCategoryAdmin(actor);
  await load(ctx, cid);
  const today = Math.floor(now / DAY);
  const first = today - (ANALYTICS_DAYS - 1);
  const [topics, posts] = await Promise.all([store.topicsPerDay(ctx.db, cid, first * DAY), store.postsPerDay(ctx.db, cid, first * DAY)]);
  const days = Array.from({ length: ANALYTICS_DAYS }, (_, i) => first + i);
  return { since: first * DAY, 'topics:daily': days.map((d) => topics.get(d) ?? 0), 'posts:daily': days.map((d) => posts.get(d) ?? 0) };
}

/**
 * NodeBB's "copy settings from": the category takes another's look and posting rules (icon,
 * colours, tag whitelist and limits, post queue; with `parent`, its parent too), not its name,
 * description, handle or link. With `privileges`, its grants are replaced by the other's
 * through the privileges service. One transaction with its audit row.
 */
export async function copySettings(
  ctx: CategoriesDeps,
  actor: Viewer,
  cid: number,
  fromCid: number,
  opts: { privileges?: boolean; parent?: boolean } = {},
  ip = '',
): Promise<CategoryRow> {
  assertCategoryAdmin(actor);
  const row = await load(ctx, cid);
  if (fromCid === cid) throw badRequest('error:category-copy-same');
  const from = await store.byCid(ctx.db, fromCid);
  if (!from) throw badRequest('error:no-category');
  const fields: Updateable<CategoriesTable> = {
    icon: from.icon,
    bg_color: from.bg_color,
    color: from.color,
    tag_whitelist: from.tag_whitelist,
    min_tags: from.min_tags,
    max_tags: from.max_tags,
    post_queue: from.post_queue,
  };
  if (opts.parent && from.parent_cid !== cid && from.parent_cid !== row.parent_cid) {
    // The other's parent, unless that would put the category below itself.
    const rows = new Map((await store.all(ctx.db)).map((r) => [r.cid, r]));
    let within = false;
    for (let c = from.parent_cid, n = 0; c > 0 && n < rows.size + 1; c = rows.get(c)?.parent_cid ?? 0, n++) if (c === cid) within = true;
    if (!within) fields.parent_cid = from.parent_cid;
  }
  let wanted: Map<string, string[]> | null = null;
  if (opts.privileges) {
    const source = await ctx.privileges.list(fromCid);
    const here = await ctx.privileges.list(cid);
    wanted = new Map();
    for (const grants of [here, source]) for (const p of CATEGORY_PRIVILEGES) for (const s of grants[p] ?? []) wanted.set(s, []);
    for (const p of CATEGORY_PRIVILEGES) for (const s of source[p] ?? []) wanted.get(s)!.push(p);
  }
  return ctx.actions.run('category.copy-settings', async (w) => {
    const tx = w.tx;
    await store.update(w, cid, fields);
    if (fields.parent_cid !== undefined) {
      const siblings = (await store.children(tx, fields.parent_cid)).map((r) => r.cid).filter((c) => c !== cid);
      await store.setPositions(w, [...siblings, cid].map((c, i) => ({ cid: c, position: i + 1 })));
      const old = (await store.children(tx, row.parent_cid)).map((r) => r.cid);
      await store.setPositions(w, old.map((c, i) => ({ cid: c, position: i + 1 })));
    }
    // In this action; the grant caches drop after its commit.
    if (wanted) await ctx.privileges.replace([cid], CATEGORY_PRIVILEGES, wanted, undefined, w);
    await ctx.events.log('category-copy-settings', actor.uid, { cid, fromCid, privileges: !!opts.privileges }, ip, w);
    const category = (await store.byCid(tx, cid))!;
    await w.fire('action:category.update', { category, uid: actor.uid });
    return category;
  });
}
