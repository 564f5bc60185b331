import type { PostObject } from '../../../shared/schemas/post.js';
import type { SearchPage, TagRef } from '../../../shared/types.js';
import { DAY_MS, DEFAULT_LANGUAGE } from '../../../shared/constants.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/index.js';
import { insertRun } from '../../jobs/store.js';
import { badRequest, forbidden } from '../../http/errors.js';
import type { Cache } from '../../core/cache.js';
import { CATEGORIES, CONTENT, GROUPS, PRIVILEGES } from '../../core/tags.js';
import type { CategoryRow } from '../../hooks/types.js';
import type { Viewer } from '../privileges/service.js';
import { highlightTerms, parseTerms, type Term } from './query.js';
import { SORTS, type SearchIn, type SortKey } from './store.js';
import * as store from './store.js';
import { textSearchConfig } from './text-config.js';
import { offeredLanguage } from '../../i18n.js';

/** What the search service uses of the application. */
export type SearchDeps = Pick<AppContext, 'cacheRegistry' | 'categories' | 'changes' | 'db' | 'dialect' | 'events' | 'hooks' | 'jobs' | 'log' | 'posts' | 'privileges' | 'settings' | 'tags' | 'users'>;

/** The `in` values of NodeBB's search page: content, or members, tags, categories. */
export const SEARCH_IN = ['titles', 'posts', 'titlesposts', 'users', 'tags', 'categories'] as const;
export type SearchTarget = (typeof SEARCH_IN)[number];
/** NodeBB's time ranges (seconds) offered by its search form; any positive number of seconds is accepted. */
export const TIME_RANGES = [86400, 604800, 1209600, 2592000, 7776000, 15552000, 31104000] as const;

/** A search as NodeBB's search page takes it in its query string, every value a string. */
export interface SearchParams {
  term?: string;
  in?: string;
  matchWords?: string;
  by?: string;
  categories?: string;
  searchChildren?: string;
  hasTags?: string;
  replies?: string;
  repliesFilter?: string;
  timeFilter?: string;
  timeRange?: string;
  sortBy?: string;
  sortDirection?: string;
  showAs?: string;
  page?: string;
}

/** The checked form of a content search: what the store needs besides privileges. */
export interface ContentSearch {
  terms: Term[];
  in: SearchIn;
  any: boolean;
  byNames: string[];
  cids: number[] | null;
  searchChildren: boolean;
  tags: string[];
  minReplies?: number;
  maxReplies?: number;
  since?: number;
  until?: number;
  sort: SortKey;
  direction: 'asc' | 'desc';
  byTopic: boolean;
  page: number;
}

/** A page of content results with a marked snippet per post. */
export interface ContentResults {
  posts: (PostObject & { snippet: string })[];
  matchCount: number;
  pageCount: number;
  users: { uid: number; username: string }[];
}

const PER_PAGE = 10;
const FLUSH_MS = 10_000;
/**
 * How long a search's page of results is reused. A common word matches thousands of posts, and
 * ranking them all costs milliseconds; the same search asked again within this time (the
 * same terms, filters, page and readable categories) reuses the page as presented, posts and
 * snippets included, with no query at all. A content write in this process drops the cache at
 * once; another process's write shows within this time. The readable categories of a privilege
 * set are kept as long (dropped at once by a category or privilege change in any process).
 */
export const SEARCH_CACHE_MS = 10_000;
/** The most the cached result pages may hold together (bytes, about): a crawler walking thousands of pages evicts the oldest. */
const SEARCH_CACHE_BYTES = 16 * 1024 * 1024;

/** A page of results as presented: the same for every viewer with the same readable categories. */
interface CachedPage {
  posts: ContentResults['posts'];
  count: number;
}

/** What a privilege set may search: its readable categories and the filter's choices. */
interface Scope {
  /** Categories whose topics it may read (the ones searched). */
  readable: number[];
  /** Categories it may see, parents before children. */
  list: CategoryRow[];
  /** The category filter's choices, each with its depth. */
  choices: SearchPage['allCategories'];
}

/** The category filter's choices: readable categories, each with its depth. */
function levels(rows: { cid: number; name: string; parent_cid: number }[]): SearchPage['allCategories'] {
  const depth = new Map<number, number>();
  return rows.map((r) => {
    const level = r.parent_cid && depth.has(r.parent_cid) ? depth.get(r.parent_cid)! + 1 : 0;
    depth.set(r.cid, level);
    return { cid: r.cid, name: r.name, level };
  });
}
/** The job an administrator queues from the dbsearch page: one process rebuilds the index. */
export const REINDEX_JOB = 'search.reindex';
/** The job that re-indexes PostgreSQL's documents in the forum's (new) language. */
export const LANGUAGE_JOB = 'search.language';

/**
 * Queues the rebuild of the search index on `db` (a restore's own connection, inside its
 * transaction, so the job exists exactly when the restored rows do). A restore loads the posts
 * with the index's triggers off: indexing a million posts (PostgreSQL's tsvectors and trigram
 * GIN indexes, SQLite's trigram FTS) takes longer than the rest of the restore, and the forum
 * can serve meanwhile. The `search.reindex` job runs in one process once the forum is up.
 */
export async function queueSearchRebuild(db: Queryable): Promise<void> {
  await insertRun(db, { name: REINDEX_JOB, payload: '{}', runAt: Date.now(), maxAttempts: 3 });
}

/** Splits a list parameter: `a,b` (our links) or NodeBB's repeated `x[]=a&x[]=b` (joined by the page router). */
export function listParam(v: string | undefined): string[] {
  return (v ?? '').split(',').map((s) => s.trim()).filter(Boolean).slice(0, 100);
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T, key: string): T {
  if (value === undefined || value === '') return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw badRequest(key);
  return value as T;
}

function nonNegativeInt(value: string | undefined, key: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 1e9) throw badRequest(key);
  return n;
}

/** Checks a search's parameters; an unknown value of a filter is a 400 with its key. */
export function checkContentSearch(p: SearchParams, defaults: { in: string; sortBy: string }): ContentSearch {
  const target = oneOf(p.in, SEARCH_IN, defaults.in as SearchTarget, 'error:invalid-search-in');
  const cids = listParam(p.categories).filter((c) => c !== 'all');
  if (cids.some((c) => !/^\d{1,9}$/.test(c))) throw badRequest('error:invalid-cid');
  const replies = nonNegativeInt(p.replies, 'error:invalid-search-replies');
  const repliesFilter = oneOf(p.repliesFilter, ['atleast', 'atmost'] as const, 'atleast', 'error:invalid-search-replies');
  const range = nonNegativeInt(p.timeRange, 'error:invalid-search-time');
  const timeFilter = oneOf(p.timeFilter, ['newer', 'older'] as const, 'newer', 'error:invalid-search-time');
  const now = Date.now();
  const page = p.page === undefined || p.page === '' ? 1 : Number(p.page);
  if (!Number.isInteger(page) || page < 1 || page > 10_000) throw badRequest('error:invalid-page');
  return {
    terms: parseTerms(p.term ?? ''),
    in: (target === 'titles' || target === 'posts' ? target : 'titlesposts') as SearchIn,
    any: oneOf(p.matchWords, ['all', 'any'] as const, 'all', 'error:invalid-search-match') === 'any',
    byNames: listParam(p.by).slice(0, 20),
    cids: cids.length ? cids.map(Number) : null,
    searchChildren: p.searchChildren === 'true' || p.searchChildren === '1',
    tags: listParam(p.hasTags).slice(0, 20).map((t) => t.toLowerCase()),
    ...(replies !== undefined ? (repliesFilter === 'atmost' ? { maxReplies: replies } : { minReplies: replies }) : {}),
    ...(range ? (timeFilter === 'newer' ? { since: now - range * 1000 } : { until: now - range * 1000 }) : {}),
    sort: oneOf(p.sortBy, SORTS, oneOf(defaults.sortBy, SORTS, 'relevance', 'error:invalid-search-sort'), 'error:invalid-search-sort'),
    direction: oneOf(p.sortDirection, ['desc', 'asc'] as const, 'desc', 'error:invalid-search-sort'),
    byTopic: oneOf(p.showAs, ['posts', 'topics'] as const, 'posts', 'error:invalid-search-show-as') === 'topics',
    page,
  };
}

/** Full-text search over posts and titles, and the members / tags / categories lookups. */
export class SearchService {
  private pending = 0;
  private timer: NodeJS.Timeout | null = null;
  /** Pages of results, by query (the searched categories in it). */
  private pages: Cache<string, CachedPage>;
  /** Readable categories, by privilege set. */
  private scopes: Cache<string, Scope>;

  constructor(private readonly ctx: SearchDeps) {
    // Any content change may change a result; grants and groups decide the readable categories,
    // hence which results a privilege set shares.
    this.pages = ctx.cacheRegistry.create({
      name: 'search-results',
      keeps: 'a page of search results, presented, by query and searched categories',
      droppedBy: 'any content change, grants, groups, a reindex',
      ttlMs: SEARCH_CACHE_MS,
      max: 5000,
      maxBytes: SEARCH_CACHE_BYTES,
      // About the bytes it holds: the post's HTML (twice for a short one: the snippet) and its fields.
      sizeOf: (page) => page.posts.reduce((n, p) => n + p.content.length + p.snippet.length + 1500, 300),
      tags: () => [CONTENT, PRIVILEGES, GROUPS],
    });
    this.scopes = ctx.cacheRegistry.create({
      name: 'search-scopes',
      keeps: 'the categories a privilege set may read and see, for the search form and its results',
      droppedBy: 'grants, groups, any change of categories or content',
      ttlMs: SEARCH_CACHE_MS,
      max: 2000,
      maxBytes: 4 * 1024 * 1024,
      sizeOf: (scope) => 100 + 400 * scope.list.length,
      tags: () => [PRIVILEGES, GROUPS, CATEGORIES, CONTENT],
    });
    ctx.jobs.define(REINDEX_JOB, async () => {
      const n = await this.reindex(() => undefined);
      this.forget();
      ctx.log.info({ posts: n }, 'search index rebuilt');
    }, { leaseMs: 30 * 60_000, maxAttempts: 1 });
    // PostgreSQL stems by the forum's language: a change of it re-indexes in the new one.
    ctx.jobs.define(LANGUAGE_JOB, async () => {
      const n = await this.useForumLanguage();
      ctx.log.info({ documents: n }, 'search index now in the forum language');
    }, { leaseMs: 30 * 60_000, maxAttempts: 3 });
    if (ctx.dialect === 'postgres') {
      ctx.hooks.action('action:settings.set', 'search', async ({ keys }) => {
        if (keys.includes('defaultLang')) await ctx.jobs.enqueue(LANGUAGE_JOB, {});
      }, { durable: true });
    }
  }

  /** PostgreSQL: the text-search configuration of the forum's language, as searches and the index use it. */
  async textConfig(): Promise<string> {
    return textSearchConfig(this.ctx.db, offeredLanguage((await this.ctx.settings.get()).defaultLang) ?? DEFAULT_LANGUAGE);
  }

  /** PostgreSQL: re-indexes the documents not yet in the forum language's configuration; returns how many changed. */
  async useForumLanguage(): Promise<number> {
    if (this.ctx.dialect !== 'postgres') return 0;
    const n = await store.useTextConfig(this.ctx.db, await this.textConfig());
    this.forget();
    return n;
  }

  /** Drops the cached result pages and scopes in every process (the index was rebuilt). */
  forget(): void {
    this.ctx.changes.publish(['cache:search-results', 'cache:search-scopes']);
  }

  /** The category filter's choices for the viewer: the categories they may see, each with its depth. */
  async categoryChoices(viewer: Viewer): Promise<SearchPage['allCategories']> {
    return (await this.scope(viewer)).choices;
  }

  /** The index's size against the posts' (the dbsearch page). */
  async stats(): Promise<{ documents: number; posts: number }> {
    return store.indexStats(this.ctx.db, this.ctx.dialect);
  }

  /** Queues a rebuild of the index (administrators; the dbsearch page's button). */
  async queueReindex(actor: Viewer, ip = ''): Promise<void> {
    if (!actor.isAdmin) throw forbidden();
    await this.ctx.jobs.enqueue(REINDEX_JOB, {});
    await this.ctx.events.log('search-reindex', actor.uid, {}, ip);
  }

  /** Posts (or topics) matching a checked search, among those the viewer may read. */
  async content(viewer: Viewer, s: ContentSearch): Promise<ContentResults> {
    if (!s.terms.length) return { posts: [], matchCount: 0, pageCount: 0, users: [] };
    await this.ctx.privileges.assert(viewer, 'search:content');
    const { readable } = await this.scope(viewer);
    let cids = readable;
    if (s.cids) {
      let chosen = new Set(s.cids);
      if (s.searchChildren) chosen = await this.withChildren(viewer, chosen);
      // A category the viewer may not read finds nothing: never an error that reveals it.
      cids = readable.filter((c) => chosen.has(c));
    }
    const users = s.byNames.length ? await this.usersByName(s.byNames) : [];
    // Posts by members who do not exist: nothing, rather than everyone's.
    if (s.byNames.length && !users.length) return { posts: [], matchCount: 0, pageCount: 0, users };
    this.count();
    const page = await this.cachedPage(viewer, s, {
      terms: s.terms,
      in: s.in,
      any: s.any,
      cids,
      uids: users.map((u) => u.uid),
      tags: s.tags,
      since: s.since,
      until: s.until,
      minReplies: s.minReplies,
      maxReplies: s.maxReplies,
      sort: s.sort,
      direction: s.direction,
      byTopic: s.byTopic,
      offset: (s.page - 1) * PER_PAGE,
      limit: PER_PAGE,
      ...(this.ctx.dialect === 'postgres' ? { config: await this.textConfig() } : {}),
    });
    return { posts: page.posts, matchCount: page.count, pageCount: Math.ceil(page.count / PER_PAGE), users };
  }

  /**
   * A page of results, presented, from the cache or searched and presented now. The key holds
   * the searched categories (the viewer's readable ones), so viewers who may read the same
   * categories share it: a result carries nothing of its viewer. Cached pages are shared
   * objects: callers never change them.
   */
  private async cachedPage(viewer: Viewer, s: ContentSearch, q: store.PostQuery): Promise<CachedPage> {
    return this.pages.get(JSON.stringify(q), () => this.searchPage(viewer, s, q));
  }

  /** Searches and presents a page of results. */
  private async searchPage(viewer: Viewer, s: ContentSearch, q: store.PostQuery): Promise<CachedPage> {
    const hits = await store.searchPosts(this.ctx.db, this.ctx.dialect, q);
    const marks = highlightTerms(s.terms);
    // Each result frozen: the page's JSON (http/page-json.ts) then encodes a post once per cached
    // page instead of stringifying all ten (some 20 KB, the posts' HTML) for every request that
    // reuses it. Only the result object is frozen: what it points to may be another cache's.
    const posts = (await this.ctx.posts.objects(viewer, hits.pids)).map((p) => Object.freeze({ ...p, snippet: snippet(p.content, marks) }));
    return { posts, count: hits.count };
  }

  /** The viewer's readable categories (cached per privilege set: the same groups, and the uid for grants to a member). */
  private async scope(viewer: Viewer): Promise<Scope> {
    const key = viewer.isAdmin ? 'admin' : `${viewer.uid}:${viewer.groups.join(',')}`;
    return this.scopes.get(key, async () => {
      const [readable, list] = await Promise.all([this.ctx.categories.readableCids(viewer), this.ctx.categories.list(viewer)]);
      return { readable, list, choices: levels(list) };
    });
  }

  /** Members whose name starts with or contains the term (NodeBB's in=users). */
  async users(viewer: Viewer, term: string, limit = 20): Promise<number[]> {
    await this.ctx.privileges.assert(viewer, 'search:users');
    const t = term.trim();
    if (!t) return [];
    return this.ctx.users.searchUids(t, limit);
  }

  /** Tags containing the term, most used first (NodeBB's in=tags). */
  async tags(viewer: Viewer, term: string, limit = 50): Promise<TagRef[]> {
    await this.ctx.privileges.assert(viewer, 'search:tags');
    const t = term.trim().toLowerCase();
    if (!t) return [];
    return this.ctx.tags.search(t, limit);
  }

  /** Readable categories whose name contains the term (NodeBB's GET /search/categories, in=categories). */
  async categories(viewer: Viewer, term: string) {
    const rows = await this.ctx.categories.list(viewer);
    const t = term.trim().toLowerCase();
    return t ? rows.filter((r) => r.name.toLowerCase().includes(t)) : rows;
  }

  /** Searches per day since `since` (for the admin dashboard), counting the ones not yet written. */
  async perDay(since: number): Promise<{ day: number; count: number }[]> {
    await this.flush();
    return store.searchCounts(this.ctx.db, since);
  }

  /** Rebuilds the index from every post (`palaver reindex`); reports progress. */
  async reindex(progress: (done: number, total: number) => void): Promise<number> {
    return store.reindex(this.ctx.db, this.ctx.dialect, progress);
  }

  /** Writes the searches counted in memory (one write per 10 s, never one per search). */
  async flush(): Promise<void> {
    if (!this.pending) return;
    const n = this.pending;
    this.pending = 0;
    await store.addSearches(this.ctx.db, Math.floor(Date.now() / DAY_MS) * DAY_MS, n);
  }

  /** Stops the flush timer (at shutdown). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private count(): void {
    this.pending++;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush().catch((err: unknown) => this.ctx.log.error({ err }, 'search count flush failed'));
    }, FLUSH_MS);
    this.timer.unref();
  }

  private async withChildren(viewer: Viewer, chosen: Set<number>): Promise<Set<number>> {
    const rows = (await this.scope(viewer)).list;
    const out = new Set(chosen);
    // Parents come before children in the list, so one pass per level settles it.
    let grew = true;
    while (grew) {
      grew = false;
      for (const r of rows) {
        if (!out.has(r.cid) && out.has(r.parent_cid)) {
          out.add(r.cid);
          grew = true;
        }
      }
    }
    return out;
  }

  private async usersByName(names: string[]): Promise<{ uid: number; username: string }[]> {
    const rows = await Promise.all(names.map((n) => this.ctx.users.byUsername(n)));
    return rows.flatMap((r) => (r ? [{ uid: r.uid, username: r.username }] : []));
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * A short piece of the post around the first term found, as HTML with each term in `<mark>`:
 * made from the post's own rendered text (already sanitised), escaped again after cutting.
 */
export function snippet(html: string, marks: string[], width = 220): string {
  const text = html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    // Block ends separate words; inline tags (strong, a, code…) sit inside them.
    .replace(/<\/?(p|br|div|li|ul|ol|h[1-6]|pre|blockquote|tr|td|th|table|hr)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_m, e: string) => ENTITIES[e]!)
    .replace(/\s+/g, ' ')
    .trim();
  const lower = text.toLowerCase();
  let at = -1;
  for (const m of marks) {
    const i = lower.indexOf(m);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  const start = at < 0 ? 0 : Math.max(0, at - Math.floor(width / 3));
  const end = Math.min(text.length, start + width);
  const cut = text.slice(start, end);
  if (!marks.length) return escapeHtml(cut);
  const re = new RegExp(marks.map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'giu');
  let out = '';
  let last = 0;
  for (const m of cut.matchAll(re)) {
    out += `${escapeHtml(cut.slice(last, m.index))}<mark>${escapeHtml(m[0])}</mark>`;
    last = m.index + m[0].length;
  }
  out += escapeHtml(cut.slice(last));
  return `${start > 0 ? '…' : ''}${out}${end < text.length ? '…' : ''}`;
}
