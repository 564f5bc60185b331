/** Pure classification of a page-data response (spec §4 and §8). */

export type ErrorStatus = 400 | 403 | 404 | 500;

export type LoadOutcome =
  | { kind: 'page'; page: unknown }
  | { kind: 'redirect'; to: string; external: boolean }
  | { kind: 'login' }
  | { kind: 'error-page'; status: ErrorStatus; page: unknown; error?: string }
  | { kind: 'retry' }
  | { kind: 'toast'; message: string; key?: string; params?: (string | number)[] };

export interface ResponseFacts {
  status: number;
  /** The X-Redirect header, when present. */
  redirectHeader: string | null;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: unknown;
  /** How many times this page has already been retried. */
  attempt: number;
  /** Tells whether a target address is internal. */
  isInternal: (href: string) => boolean;
}

const ERROR_PAGES: readonly number[] = [400, 403, 404, 500];

function redirectTarget(body: unknown, header: string | null): string | null {
  if (typeof body === 'string' && body) return body;
  if (body && typeof body === 'object') {
    const b = body as { external?: unknown; url?: unknown };
    if (typeof b.external === 'string') return b.external;
    if (typeof b.url === 'string') return b.url;
  }
  if (header) {
    try {
      return decodeURI(header);
    } catch {
      return header;
    }
  }
  return null;
}

/** The server's message in an error envelope or error page, if any. */
export function errorMessage(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as { status?: { message?: unknown }; error?: unknown; message?: unknown };
  if (b.status && typeof b.status.message === 'string') return b.status.message;
  if (typeof b.error === 'string') return b.error;
  if (typeof b.message === 'string') return b.message;
  return null;
}

/** The translation key and params of an error envelope (status.key, status.params), if any. */
export function errorKey(body: unknown): { key: string; params: (string | number)[]; dates?: number[] } | null {
  const status = body && typeof body === 'object' ? (body as { status?: { key?: unknown; params?: unknown; dates?: unknown } }).status : undefined;
  if (!status || typeof status.key !== 'string') return null;
  const params = Array.isArray(status.params) ? status.params.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number') : [];
  // Params that are times (a ban's end): their indexes, so the reader sees a date in their own locale.
  const dates = Array.isArray(status.dates) ? status.dates.filter((d): d is number => Number.isInteger(d)) : [];
  return { key: status.key, params, ...(dates.length ? { dates } : {}) };
}

/** Decides what a page load does with the response it got. */
export function classifyResponse(f: ResponseFacts): LoadOutcome {
  const { status, body } = f;
  if ((status >= 200 && status < 300 && f.redirectHeader) || status === 302 || status === 308) {
    const to = redirectTarget(body, f.redirectHeader);
    if (to) return { kind: 'redirect', to, external: !f.isInternal(to) };
  }
  if (status >= 200 && status < 300) {
    if (body && typeof body === 'object' && 'template' in body) return { kind: 'page', page: body };
    return { kind: 'toast', message: 'error:parse-error' };
  }
  if (status === 401) return { kind: 'login' };
  if (status === 502) return f.attempt < 1 ? { kind: 'retry' } : { kind: 'error-page', status: 500, page: null };
  if (status === 0) return { kind: 'error-page', status: 500, page: null, error: 'error:no-connection' };
  if (ERROR_PAGES.includes(status)) {
    const isPage = body && typeof body === 'object' && 'template' in body;
    return { kind: 'error-page', status: status as ErrorStatus, page: isPage ? body : null, error: errorMessage(body) ?? undefined };
  }
  return { kind: 'toast', message: errorMessage(body) ?? `error:api.${status >= 500 ? 500 : 400}`, ...errorKey(body) };
}

/** Remembers the last request so a duplicate for the same page within the window is ignored. */
export function createDuplicateGuard(windowMs: number) {
  let last: { url: string; at: number } | null = null;
  return {
    /** True when the same url was requested less than windowMs ago; records the request otherwise. */
    isDuplicate(url: string, now: number): boolean {
      if (last && last.url === url && now - last.at < windowMs) return true;
      last = { url, at: now };
      return false;
    },
    reset(): void {
      last = null;
    },
  };
}
