import type { Updateable } from 'kysely';
import { slugify } from '../../../shared/slug.js';
import type { Queryable } from '../../db/index.js';
import type { CategoriesTable } from '../../db/schema.js';
import { AppError, badRequest, forbidden, notFound } from '../../http/errors.js';
import type { Writer } from '../../core/action.js';
import type { Viewer } from '../privileges/service.js';
import * as store from './store.js';
import type { CategoryRow } from './store.js';
import { cleanInput, type CategoryInput } from './validate.js';
import type { CategoriesDeps } from './service.js';

/** The URL slug NodeBB uses: "<cid>/<name-slug>". */
export const slugFor = (cid: number, name: string) => `${cid}/${slugify(name)}`;

/** The error the action runner answers a taken handle with (core/unique.ts). */
const handleTaken = (err: unknown) => err instanceof AppError && err.key === 'error:category-handle-taken';

/** Admins only; a member who cannot even find the category is told it does not exist. */
async function assertAdmin(ctx: CategoriesDeps, actor: Viewer, cid = 0): Promise<void> {
  if (actor.isAdmin) return;
  if (cid > 0 && !(await ctx.privileges.can(actor, 'find', cid))) throw notFound('error:no-category');
  throw forbidden();
}

async function parse(ctx: CategoriesDeps, content: string, uid: number): Promise<string> {
  if (!content) return '';
  return (await ctx.hooks.runFilter('filter:parse.post', { content, html: '', kind: 'raw', uid })).html;
}

/** The default handle from the name, with "-2", "-3"… when taken. */
async function freeHandle(db: Queryable, name: string): Promise<string> {
  const base = slugify(name).slice(0, 90);
  const taken = new Set(await store.handlesLike(db, base));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * Puts `cid` at the 1-based `order` among its siblings (end when undefined) and renumbers
 * them 1..n, so positions never collide or leave gaps.
 */
export async function place(w: Writer, parentCid: number, cid: number, order?: number): Promise<void> {
  const db = w.tx;
  const siblings = (await store.children(db, parentCid)).map((r) => r.cid).filter((c) => c !== cid);
  const at = order === undefined ? siblings.length : Math.min(Math.max(order - 1, 0), siblings.length);
  siblings.splice(at, 0, cid);
  const rows = await store.byCids(db, siblings);
  const current = new Map(rows.map((r) => [r.cid, r.position]));
  await store.setPositions(
    w,
    siblings.map((c, i) => ({ cid: c, position: i + 1 })).filter((p) => current.get(p.cid) !== p.position),
  );
}

async function loadParent(db: Queryable, parentCid: number | undefined): Promise<CategoryRow | null> {
  if (!parentCid) return null;
  return (await store.byCid(db, parentCid)) ?? null;
}

/** Creates a category: validate, load the parent, admins only, one transaction, then the hook. */
export async function createCategory(ctx: CategoriesDeps, actor: Viewer, data: CategoryInput): Promise<CategoryRow> {
  const input = cleanInput(data, true);
  const parent = await loadParent(ctx.db, input.parentCid);
  await assertAdmin(ctx, actor);
  if (input.parentCid && !parent) throw badRequest('error:no-parent-category');
  const descriptionParsed = await parse(ctx, input.description ?? '', actor.uid);
  const run = () =>
    ctx.actions.run('category.create', async (w) => {
      const tx = w.tx;
      let handle = input.handle;
      if (handle && (await store.handleTaken(tx, handle))) throw badRequest('error:category-handle-taken');
      handle ??= await freeHandle(tx, input.name!);
      const row = await store.insert(w, {
        name: input.name!,
        handle,
        slug: '',
        parent_cid: input.parentCid ?? 0,
        description: input.description ?? '',
        description_parsed: descriptionParsed,
        ...(input.icon ? { icon: input.icon } : {}),
        ...(input.bgColor ? { bg_color: input.bgColor } : {}),
        ...(input.color ? { color: input.color } : {}),
        link: input.link ?? '',
        disabled: input.disabled ? 1 : 0,
        ...(input.tagWhitelist ? { tag_whitelist: input.tagWhitelist.join(',') } : {}),
        ...(input.minTags != null ? { min_tags: input.minTags } : {}),
        ...(input.maxTags != null ? { max_tags: input.maxTags } : {}),
        ...(input.postQueue !== undefined ? { post_queue: input.postQueue ? 1 : 0 } : {}),
        position: 0,
        created: Date.now(),
      });
      await store.update(w, row.cid, { slug: slugFor(row.cid, row.name) });
      await place(w, row.parent_cid, row.cid, input.order);
      await ctx.privileges.grantCategoryDefaults(w, row.cid);
      const category = (await store.byCid(tx, row.cid))!;
      await w.fire('action:category.create', { category, uid: actor.uid });
      return category;
    });
  let category: CategoryRow | undefined;
  // Two processes may pick the same default handle at once; the unique index refuses one, which retries.
  for (let attempt = 0; !category; attempt++) {
    try {
      category = await run();
    } catch (err) {
      if (!handleTaken(err)) throw err;
      if (input.handle || attempt >= 4) throw badRequest('error:category-handle-taken');
    }
  }
  return category;
}

/** True when `cid` is `ancestor` or lies below it. */
function isWithin(rows: Map<number, CategoryRow>, cid: number, ancestor: number): boolean {
  const seen = new Set<number>();
  for (let c = cid; c > 0 && !seen.has(c); c = rows.get(c)?.parent_cid ?? 0) {
    if (c === ancestor) return true;
    seen.add(c);
  }
  return false;
}

/** Changes a category's fields, parent or order (admins). */
export async function updateCategory(ctx: CategoriesDeps, actor: Viewer, cid: number, data: CategoryInput): Promise<CategoryRow> {
  const input = cleanInput(data, false);
  const row = await store.byCid(ctx.db, cid);
  if (!row) throw notFound('error:no-category');
  await assertAdmin(ctx, actor, cid);
  const descriptionParsed = input.description !== undefined ? await parse(ctx, input.description, actor.uid) : undefined;
  return ctx.actions.run('category.update', async (w) => {
    const tx = w.tx;
    const fields: Updateable<CategoriesTable> = {};
    if (input.name !== undefined) Object.assign(fields, { name: input.name, slug: slugFor(cid, input.name) });
    if (input.description !== undefined) Object.assign(fields, { description: input.description, description_parsed: descriptionParsed });
    if (input.handle !== undefined && input.handle !== row.handle) {
      if (await store.handleTaken(tx, input.handle, cid)) throw badRequest('error:category-handle-taken');
      fields.handle = input.handle;
    }
    if (input.icon !== undefined) fields.icon = input.icon;
    if (input.bgColor !== undefined) fields.bg_color = input.bgColor;
    if (input.color !== undefined) fields.color = input.color;
    if (input.link !== undefined) fields.link = input.link;
    if (input.disabled !== undefined) fields.disabled = input.disabled ? 1 : 0;
    if (input.tagWhitelist !== undefined) fields.tag_whitelist = input.tagWhitelist.join(',');
    if (input.minTags !== undefined) fields.min_tags = input.minTags;
    if (input.maxTags !== undefined) fields.max_tags = input.maxTags;
    if (input.postQueue !== undefined) fields.post_queue = input.postQueue ? 1 : 0;
    const moving = input.parentCid !== undefined && input.parentCid !== row.parent_cid;
    if (moving) {
      const newParent = input.parentCid!;
      if (newParent === cid) throw badRequest('error:cant-set-self-as-parent');
      const rows = new Map((await store.all(tx)).map((r) => [r.cid, r]));
      if (newParent > 0 && !rows.has(newParent)) throw badRequest('error:no-parent-category');
      if (isWithin(rows, newParent, cid)) throw badRequest('error:cant-set-child-as-parent');
      fields.parent_cid = newParent;
    }
    await store.update(w, cid, fields);
    if (moving) {
      await place(w, input.parentCid!, cid, input.order);
      await renumber(w, row.parent_cid);
    } else if (input.order !== undefined) {
      await place(w, row.parent_cid, cid, input.order);
    }
    const updated = (await store.byCid(tx, cid))!;
    await w.fire('action:category.update', { category: updated, uid: actor.uid });
    return updated;
  });
}

/** Renumbers the children of a category 1..n, keeping their order. */
async function renumber(w: Writer, parentCid: number): Promise<void> {
  const rows = await store.children(w.tx, parentCid);
  await store.setPositions(
    w,
    rows.map((r, i) => ({ cid: r.cid, position: i + 1 })).filter((p, i) => rows[i]!.position !== p.position),
  );
}

/** What becomes of a deleted category's topics: moved to another category, or purged with it. */
export interface DeleteOptions {
  topics?: 'move' | 'purge';
  moveTo?: number;
}

/**
 * Deletes a category (admins). A category holding topics needs a choice: its topics move to
 * another category (the counts follow them) or are purged first by the topics domain. Its
 * subcategories take its place under its parent.
 */
export async function deleteCategory(ctx: CategoriesDeps, actor: Viewer, cid: number, ip = '', opts: DeleteOptions = {}): Promise<void> {
  const row = await store.byCid(ctx.db, cid);
  if (!row) throw notFound('error:no-category');
  await assertAdmin(ctx, actor, cid);
  let target: CategoryRow | undefined;
  if (opts.topics === 'move') {
    if (!opts.moveTo || opts.moveTo === cid) throw badRequest('error:category-delete-move-target');
    target = await store.byCid(ctx.db, opts.moveTo);
    if (!target || target.link) throw badRequest('error:category-delete-move-target');
  } else if (opts.topics !== 'purge' && (await ctx.topics.countInCategory(cid)) > 0) {
    throw badRequest('error:category-delete-has-topics');
  }
  if (opts.topics === 'purge') await ctx.topics.purgeCategoryContent(cid);
  await ctx.actions.run('category.delete', async (w) => {
    const tx = w.tx;
    if (target) {
      // The moved topics bring their counted topics and posts to the target.
      const moved = await ctx.topics.moveCategoryContent(w, cid, target.cid);
      const current = (await store.byCid(tx, cid))!;
      await store.bump(w, target.cid, current.topic_count, current.post_count);
      await ctx.events.log('category-move-topics', actor.uid, { cid, toCid: target.cid, topics: moved }, ip, w);
    }
    const siblings = (await store.children(tx, row.parent_cid)).map((r) => r.cid);
    const kids = (await store.children(tx, cid)).map((r) => r.cid);
    await store.reparentChildren(w, cid, row.parent_cid);
    await ctx.privileges.dropCategory(w, cid);
    await store.remove(w, cid);
    const order = siblings.flatMap((c) => (c === cid ? kids : [c]));
    await store.setPositions(
      w,
      order.map((c, i) => ({ cid: c, position: i + 1 })),
    );
    await ctx.events.log('category-purge', actor.uid, { cid, name: row.name }, ip, w);
    await w.fire('action:category.delete', { cid, uid: actor.uid });
  });
}

/** Moves a category to the 1-based `order` among its siblings (admins). */
export async function reorderCategory(ctx: CategoriesDeps, actor: Viewer, cid: number, order: number): Promise<CategoryRow> {
  return updateCategory(ctx, actor, cid, { order });
}
