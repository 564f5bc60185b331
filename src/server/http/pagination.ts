import type { Pagination } from '../../shared/types.js';
import { badRequest } from './errors.js';

/** Parses ?page=N (1 when absent); a non-number is a 400. */
export function pageNumber(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1e6) throw badRequest('error:invalid-page');
  return n;
}

/** The pagination block of a list page. */
export function pagination(current: number, pageCount: number, query: Record<string, string> = {}): Pagination {
  const count = Math.max(1, pageCount);
  const from = Math.max(1, Math.min(current - 2, count - 4));
  const to = Math.min(count, from + 4);
  const qs = (page: number) => new URLSearchParams({ ...query, page: String(page) }).toString();
  const pages = [];
  for (let p = from; p <= to; p++) pages.push({ page: p, active: p === current, qs: qs(p) });
  return {
    currentPage: current,
    pageCount: count,
    prev: { page: Math.max(1, current - 1), active: current > 1 },
    next: { page: Math.min(count, current + 1), active: current < count },
    pages,
  };
}
