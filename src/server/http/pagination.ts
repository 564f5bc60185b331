import type { Pagination, TopicPostSort } from '../../shared/types.js';
import type { AppContext } from '../context.js';
import type { Viewer } from '../domains/privileges/service.js';
import { deepFreeze } from '../cache/page-cache.js';
import { badRequest } from './errors.js';

/** Parses ?page=N (1 when absent); a non-number is a 400. */
export function pageNumber(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1e6) throw badRequest('error:invalid-page');
  return n;
}

/**
 * The pagination block of a list page, with NodeBB's fields (Pagination.yaml): prev, next,
 * first and last with their query strings, the rel links of the adjacent pages, and a
 * window of up to five pages around the current one.
 */
export function pagination(current: number, pageCount: number, query: Record<string, string> = {}): Pagination {
  // Most pages' query holds nothing but the page: their blocks are shared, one per place.
  for (const name in query) if (name !== 'page' && name !== '_') return paginationOf(current, pageCount, query);
  const key = `${current}|${pageCount}`;
  let shared = sharedBlocks.get(key);
  if (!shared) {
    if (sharedBlocks.size >= MAX_SHARED_BLOCKS) sharedBlocks.clear();
    sharedBlocks.set(key, (shared = deepFreeze(paginationOf(current, pageCount, {}))));
  }
  return shared;
}

/**
 * Pagination blocks of pages whose query is only the page, by place (`current|pageCount`):
 * frozen, so a member's list page encodes and keys the same object as every other reader's
 * (http/page-json.ts) instead of making it, then its JSON, on every request.
 */
const sharedBlocks = new Map<string, Pagination>();
const MAX_SHARED_BLOCKS = 2000;

function paginationOf(current: number, pageCount: number, query: Record<string, string>): Pagination {
  const count = Math.max(1, pageCount);
  const from = Math.max(1, Math.min(current - 2, count - 4));
  const to = Math.min(count, from + 4);
  // NodeBB drops the cache-busting "_" parameter from the links it builds.
  const params = new URLSearchParams(query);
  params.delete('_');
  // (`set` keeps a given page's place and adds it last otherwise, as `{ ...rest, page }` did.)
  const qs = (page: number) => {
    params.set('page', String(page));
    return params.toString();
  };
  const link = (page: number, active: boolean) => ({ page, active, qs: qs(page) });
  const pages = [];
  for (let p = from; p <= to; p++) pages.push(link(p, p === current));
  const prev = Math.max(1, current - 1);
  const next = Math.min(count, current + 1);
  const rel: Pagination['rel'] = [];
  if (current < count) rel.push({ rel: 'next', href: `?${qs(next)}` });
  if (current > 1) rel.push({ rel: 'prev', href: `?${qs(prev)}` });
  return {
    currentPage: current,
    pageCount: count,
    prev: link(prev, current > 1),
    next: link(next, current < count),
    first: link(1, current === 1),
    last: link(count, current === count),
    rel,
    pages,
  };
}

/** Page sizes a member may choose; anything they have not chosen follows the forum's settings. */
export interface PageSizes {
  topicsPerPage: number;
  postsPerPage: number;
  /** The order of a topic's replies (NodeBB's topicPostSort); the forum has no setting of its own: oldest first. */
  topicPostSort: TopicPostSort;
}

const POST_SORTS: readonly string[] = ['oldest_to_newest', 'newest_to_oldest', 'most_votes'] satisfies TopicPostSort[];

/** The sizes a member stored themself (their settings JSON), each a positive integer or absent. */
export function chosenPageSizes(rawSettings: string | null | undefined): Partial<PageSizes> {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(rawSettings ?? '{}');
    if (parsed && typeof parsed === 'object') stored = parsed as Record<string, unknown>;
  } catch {
    // A hand-edited row that is not JSON counts as no choice.
  }
  const out: Partial<PageSizes> = {};
  for (const key of ['topicsPerPage', 'postsPerPage'] as const) {
    const v = stored[key];
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) out[key] = v;
  }
  if (typeof stored.topicPostSort === 'string' && POST_SORTS.includes(stored.topicPostSort)) out.topicPostSort = stored.topicPostSort as TopicPostSort;
  return out;
}

/**
 * The sizes by settings load and member row (each replaced on any change; the row is the
 * session's, shared by a member's requests for a few seconds): a member's page asked three
 * times, each parsing their settings' JSON.
 */
const sizesOf = new WeakMap<object, WeakMap<object, PageSizes>>();

/** Topics and posts per page for this viewer: their own choice, else the forum's setting (issue 17, defect 6). */
export async function pageSizes(ctx: Pick<AppContext, 'settings' | 'users'>, viewer: Viewer): Promise<PageSizes> {
  const [settings, user] = await Promise.all([ctx.settings.get(), ctx.users.ofViewer(viewer)]);
  let byRow = user ? sizesOf.get(settings) : undefined;
  let sizes = byRow?.get(user!);
  if (!sizes) {
    const chosen = chosenPageSizes(user?.settings);
    sizes = Object.freeze({ topicsPerPage: chosen.topicsPerPage ?? settings.topicsPerPage, postsPerPage: chosen.postsPerPage ?? settings.postsPerPage, topicPostSort: chosen.topicPostSort ?? 'oldest_to_newest' });
    if (user) {
      if (!byRow) sizesOf.set(settings, (byRow = new WeakMap()));
      byRow.set(user, sizes);
    }
  }
  return sizes;
}
