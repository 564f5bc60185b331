import type { CategoryRef, CategoryView, Teaser, TopicSummary } from '../../../shared/types.js';
import type { AppContext } from '../../context.js';
import type { Writer } from '../../core/action.js';
import type { CategoryRow } from '../../hooks/types.js';
import { notFound } from '../../http/errors.js';
import type { Privilege, Viewer } from '../privileges/service.js';
import { changePrivilege, privilegeSet, setModerator, type PrivilegeSet } from './grants.js';
import { latestTeaser, presentRef, presentView } from './presenter.js';
import * as store from './store.js';
import type { Cache } from '../../core/cache.js';
import { CATEGORIES, categoryTag, memberTag } from '../../core/tags.js';
import type { CategoryInput } from './validate.js';
import { categoryAnalytics, copySettings, type CategoryAnalytics } from './admin-ops.js';
import { createCategory, deleteCategory, reorderCategory, updateCategory, type DeleteOptions } from './write.js';
import { setWatchState, watchStatesOf, type WatchState } from './watch.js';

/** Sets of category views kept (see CategoriesService `views`): one per privilege set and root. */
const MAX_VIEW_SETS = 200;
const NO_TEASERS: ReadonlyMap<number, Teaser> = new Map();

/** What the categories service uses of the application: its explicit dependencies. */
export type CategoriesDeps = Pick<AppContext, 'actions' | 'cacheRegistry' | 'config' | 'db' | 'events' | 'groups' | 'hooks' | 'privileges' | 'settings' | 'topics' | 'users'>;

export type NewCategory = CategoryInput & { name: string };
export type { CategoryAnalytics, CategoryInput, DeleteOptions, PrivilegeSet };
export { WATCH_STATES, type WatchState } from './watch.js';

/**
 * Categories: nested, ordered, with counters. CONTRACT used by other domains (keep these
 * signatures): get, refs, readableCids, bumpCounters, count, create.
 * Only the list of every category row is cached (see `rows`): a reader's single row
 * (`readable`) comes from it; `get`, which writes check, reads the database each time.
 */
export class CategoriesService {
  /**
   * Every category row, as the reads of member pages use them (the tree, the readable cids,
   * the lists): a statement on every member's home, categories, category and recent page
   * before. Frozen (readers share them). Dropped by any change of a category (the rows carry
   * the topic and post counters, so a topic or reply anywhere drops them: one cheap statement).
   */
  private readonly rows: Cache<'all', readonly CategoryRow[]>;

  /**
   * The category views last built per root and sets of visible and readable categories, with
   * the rows and teasers they were built from: valid while those are still the cached ones
   * (both are replaced, never changed, when content changes). Frozen, shared by every reader
   * with the same privileges: the home page's tree was built anew per member request.
   */
  private readonly views = new Map<string, { rows: readonly CategoryRow[]; teasers: ReadonlyMap<number, Teaser>; children: readonly CategoryView[] }>();

  /**
   * Each member's chosen watch states (every category they chose, by cid), which every
   * member's topic list reads (ignored categories leave it) and the category page shows: a
   * statement on each of those requests before. Dropped in every process after any member's
   * change is committed (the shared cache `watches`); the minute is the safety net for a lost
   * message.
   */
  private readonly chosenWatches: Cache<number, ReadonlyMap<number, string>>;

  constructor(private readonly ctx: CategoriesDeps) {
    this.rows = ctx.cacheRegistry.create({
      name: 'category-rows',
      keeps: 'every category row, frozen (the tree, readable categories, lists)',
      droppedBy: 'a change of any category, its counters included (a topic or reply anywhere)',
      ttlMs: 5000,
      max: 1,
      tags: (_key, rows) => [CATEGORIES, ...rows.map((r) => categoryTag(r.cid))],
    });
    this.chosenWatches = ctx.cacheRegistry.create({
      name: 'category-watch-states',
      keeps: "each member's chosen category watch states",
      droppedBy: "the member's own watch changes",
      ttlMs: 60_000,
      max: 10_000,
      tags: (uid) => [memberTag(uid)],
    });
  }

  /** Every category row (shared, frozen: see `rows`). */
  private allRows(): Promise<readonly CategoryRow[]> {
    return this.rows.get('all', async () => (await store.all(this.ctx.db)).map((r) => Object.freeze(r)));
  }

  /** Creates a category (admins only) with the default privileges. */
  async create(actor: Viewer, data: NewCategory): Promise<CategoryRow> {
    return createCategory(this.ctx, actor, data);
  }

  /** Changes a category's fields, parent or order (admins only). */
  async update(actor: Viewer, cid: number, data: CategoryInput): Promise<CategoryRow> {
    return updateCategory(this.ctx, actor, cid, data);
  }

  /**
   * Deletes a category (admins only); subcategories move up to its parent. One holding topics
   * needs `topics`: 'move' (to `moveTo`, counts follow) or 'purge'; without it, a 400.
   */
  async delete(actor: Viewer, cid: number, ip = '', opts: DeleteOptions = {}): Promise<void> {
    return deleteCategory(this.ctx, actor, cid, ip, opts);
  }

  /** Copies another category's settings (and with `privileges`, its grants) to this one (admins only). */
  async copySettings(actor: Viewer, cid: number, fromCid: number, opts: { privileges?: boolean; parent?: boolean } = {}, ip = ''): Promise<CategoryRow> {
    return copySettings(this.ctx, actor, cid, fromCid, opts, ip);
  }

  /** Topics and posts per day in the category over the last 30 days (admins only). */
  async analytics(actor: Viewer, cid: number, now = Date.now()): Promise<CategoryAnalytics> {
    return categoryAnalytics(this.ctx, actor, cid, now);
  }

  /** Moves a category to the 1-based position among its siblings (admins only). */
  async reorder(actor: Viewer, cid: number, order: number): Promise<CategoryRow> {
    return reorderCategory(this.ctx, actor, cid, order);
  }

  /** How many categories exist. */
  async count(): Promise<number> {
    return store.count(this.ctx.db);
  }

  /** One category row, or null. */
  async get(cid: number): Promise<CategoryRow | null> {
    if (!Number.isInteger(cid) || cid <= 0) return null;
    return (await store.byCid(this.ctx.db, cid)) ?? null;
  }

  /**
   * The category if the viewer may read it. One they may not read (or missing, or disabled)
   * is the 404 of a missing one, as NodeBB answers, so restricted categories cannot be probed.
   */
  async readable(viewer: Viewer, cid: number): Promise<CategoryRow> {
    // The shared row (frozen): a statement on every member's category page before.
    const row = Number.isInteger(cid) && cid > 0 ? (await this.allRows()).find((r) => r.cid === cid) : undefined;
    if (!row || (row.disabled === 1 && !viewer.isAdmin)) throw notFound('error:no-category');
    if (await this.ctx.privileges.can(viewer, 'read', cid)) return row;
    throw notFound('error:no-category');
  }

  /** Sets (null: resets) a member's watch state of a category and its descendants; the cids changed. */
  async watch(actor: Viewer, cid: number, state: WatchState | null, uid?: number): Promise<number[]> {
    return setWatchState(this.ctx, actor, cid, state, uid);
  }

  /** A member's effective watch state of each category. */
  async watchStates(who: number | Viewer, cids: number[]): Promise<Map<number, WatchState>> {
    return watchStatesOf(this.ctx, who, cids, (uid) => this.chosenWatches.get(uid, () => store.watchStates(this.ctx.db, uid)));
  }

  /** The members who chose to watch a category (they hear of its new topics). */
  async watchers(cid: number): Promise<number[]> {
    return store.uidsInState(this.ctx.db, cid, 'watching');
  }

  /** Of these members, those who ignore the category (a followed tag does not reach them there). */
  async ignoring(cid: number, uids: number[]): Promise<Set<number>> {
    return store.ignoring(this.ctx.db, cid, uids);
  }

  /** Short references (name, handle, slug, icon, colours) by cid, for topic lists. */
  async refs(cids: number[]): Promise<Map<number, CategoryRef>> {
    const rows = await store.byCids(this.ctx.db, cids);
    return new Map(rows.map((r) => [r.cid, presentRef(r)]));
  }

  /** The cids (enabled categories) in which the viewer holds the privilege (default topics:read). */
  async readableCids(viewer: Viewer, privilege: Privilege = 'topics:read'): Promise<number[]> {
    const rows = await this.allRows();
    return this.ctx.privileges.filterCids(viewer, privilege, rows.filter((r) => r.disabled === 0).map((r) => r.cid));
  }

  /** Every category the viewer may read, parents before children (admins also see disabled ones). */
  async list(viewer: Viewer): Promise<CategoryRow[]> {
    const rows = (await this.allRows()).filter((r) => viewer.isAdmin || r.disabled === 0);
    const allowed = new Set(await this.ctx.privileges.filterCids(viewer, 'read', rows.map((r) => r.cid)));
    const byParent = groupByParent(rows.filter((r) => allowed.has(r.cid)));
    const out: CategoryRow[] = [];
    const walk = (parent: number) => {
      for (const r of byParent.get(parent) ?? []) {
        out.push(r);
        walk(r.cid);
      }
    };
    walk(0);
    return out;
  }

  /** The ancestors of a category the viewer may find, outermost first (for breadcrumbs). */
  async ancestors(viewer: Viewer, row: CategoryRow): Promise<CategoryRow[]> {
    const out: CategoryRow[] = [];
    const seen = new Set([row.cid]);
    for (let cid = row.parent_cid; cid > 0 && !seen.has(cid); ) {
      seen.add(cid);
      const parent = await store.byCid(this.ctx.db, cid);
      if (!parent) break;
      const shown = (parent.disabled === 0 || viewer.isAdmin) && (await this.ctx.privileges.can(viewer, 'find', cid));
      if (shown) out.unshift(parent);
      cid = parent.parent_cid;
    }
    return out;
  }

  /** Adds to a category's topic and post counters, inside the caller's action. */
  async bumpCounters(w: Writer, cid: number, topics: number, posts: number): Promise<void> {
    await store.bump(w, cid, topics, posts);
  }

  /** The category tree the viewer may see (for the home page), with teasers. */
  async tree(viewer: Viewer): Promise<CategoryView[]> {
    return (await this.subtree(viewer, 0)).children;
  }

  /** One category as its page shows it: own fields, visible subcategories, totals and teaser. */
  async view(viewer: Viewer, row: CategoryRow): Promise<CategoryView> {
    const { children, teasers } = await this.subtree(viewer, row.cid);
    const teaser = latestTeaser(teasers.get(row.cid), children);
    // Readers alike get the same frozen view while the shared row, subcategory views and teaser
    // it is made of stand (each is replaced, never changed).
    const made = this.ownViews.get(row);
    if (made && made.children === children && made.teaser === teaser) return made.view;
    const view = presentView(row, children, teaser);
    Object.freeze(view.posts);
    Object.freeze(view);
    if (Object.isFrozen(row)) this.ownViews.set(row, { children, teaser, view });
    return view;
  }

  /** Each shared category row's own view (its page's), with what it was made of. */
  private ownViews = new WeakMap<CategoryRow, { children: CategoryView[]; teaser: Teaser | null; view: CategoryView }>();

  /** The visible categories below `rootCid` as nested views, and the teasers fetched for them. */
  private async subtree(viewer: Viewer, rootCid: number): Promise<{ children: CategoryView[]; teasers: ReadonlyMap<number, Teaser> }> {
    const all = await this.allRows();
    const rows = all.filter((r) => r.disabled === 0);
    const visible = new Set(await this.ctx.privileges.filterCids(viewer, 'find', rows.map((r) => r.cid)));
    const byParent = groupByParent(rows.filter((r) => visible.has(r.cid)));
    const below: number[] = [];
    const seen = new Set<number>();
    const collect = (parent: number) => {
      for (const r of byParent.get(parent) ?? []) {
        if (seen.has(r.cid)) continue;
        seen.add(r.cid);
        below.push(r.cid);
        collect(r.cid);
      }
    };
    collect(rootCid);
    const withTopics = await this.ctx.privileges.filterCids(viewer, 'topics:read', rootCid > 0 ? [rootCid, ...below] : below);
    const teasers = withTopics.length ? await this.ctx.topics.teasers(viewer, withTopics) : NO_TEASERS;
    const key = `${rootCid}|${below.join(',')}|${withTopics.join(',')}`;
    const built = this.views.get(key);
    if (built && built.rows === all && built.teasers === teasers) return { children: built.children as CategoryView[], teasers };
    const build = (parent: number, path: Set<number>): CategoryView[] =>
      (byParent.get(parent) ?? [])
        .filter((r) => !path.has(r.cid))
        .map((r) => {
          const children = Object.freeze(build(r.cid, new Set([...path, r.cid]))) as CategoryView[];
          const view = presentView(r, children, latestTeaser(teasers.get(r.cid), children));
          Object.freeze(view.posts);
          return Object.freeze(view);
        });
    const children = Object.freeze(build(rootCid, new Set([rootCid]))) as CategoryView[];
    if (this.views.size >= MAX_VIEW_SETS) this.views.clear();
    this.views.set(key, { rows: all, teasers, children });
    return { children, teasers };
  }

  /**
   * One page of a category's topics: `perPage` is the member's own setting, else the forum's.
   * An empty category still has one page.
   */
  async topicPage(viewer: Viewer, cid: number, page: number, tag?: string): Promise<{ topics: TopicSummary[]; count: number; perPage: number; pageCount: number }> {
    await this.ctx.privileges.assert(viewer, 'topics:read', cid);
    const perPage = (await ownTopicsPerPage(this.ctx, viewer)) ?? (await this.ctx.settings.get()).topicsPerPage;
    const { topics, count } = await this.ctx.topics.list(viewer, { cids: [cid], sort: 'category', page, perPage, tag });
    return { topics, count, perPage, pageCount: Math.max(1, Math.ceil(count / perPage)) };
  }

  /** The category's grants by group and member (admins only). */
  async privileges(actor: Viewer, cid: number): Promise<PrivilegeSet> {
    return privilegeSet(this.ctx, actor, cid);
  }

  /** Grants a category privilege to a group name or a uid (admins only). */
  async grant(actor: Viewer, cid: number, privilege: string, member: string, ip = ''): Promise<PrivilegeSet> {
    return changePrivilege(this.ctx, actor, cid, privilege, member, true, ip);
  }

  /** Rescinds a category privilege from a group name or a uid (admins only). */
  async rescind(actor: Viewer, cid: number, privilege: string, member: string, ip = ''): Promise<PrivilegeSet> {
    return changePrivilege(this.ctx, actor, cid, privilege, member, false, ip);
  }

  /** Makes a member a category moderator, or stops them being one (admins only). */
  async moderator(actor: Viewer, cid: number, uid: number, on: boolean, ip = ''): Promise<PrivilegeSet> {
    return setModerator(this.ctx, actor, cid, uid, on, ip);
  }
}

function groupByParent(rows: CategoryRow[]): Map<number, CategoryRow[]> {
  const map = new Map<number, CategoryRow[]>();
  for (const r of rows) {
    const list = map.get(r.parent_cid) ?? [];
    list.push(r);
    map.set(r.parent_cid, list);
  }
  return map;
}

// Only a value the member saved themself overrides the forum's setting (the defaults do not).
async function ownTopicsPerPage(ctx: CategoriesDeps, viewer: Viewer): Promise<number | undefined> {
  const user = await ctx.users.ofViewer(viewer);
  if (!user) return undefined;
  try {
    const n = (JSON.parse(user.settings) as { topicsPerPage?: unknown }).topicsPerPage;
    return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 100 ? n : undefined;
  } catch {
    return undefined;
  }
}
