/** HTTP status → the v3 envelope's status code word, as NodeBB names them. */
export const STATUS_CODES: Record<number, string> = {
  200: 'ok',
  400: 'bad-request',
  401: 'not-authorised',
  403: 'forbidden',
  404: 'not-found',
  409: 'conflict',
  413: 'payload-too-large',
  426: 'upgrade-required',
  429: 'too-many-requests',
  500: 'internal-server-error',
  503: 'service-unavailable',
};

/**
 * A typed error: a stable translation key (e.g. 'error:no-privileges') and an HTTP status,
 * set where the error is made. Params fill the key's %1, %2… placeholders.
 */
export class AppError extends Error {
  constructor(
    public readonly key: string,
    public readonly status: number,
    public readonly params: (string | number)[] = [],
    /** Indexes of params that are times (epoch ms): each reader sees them as a date in their own language. */
    public readonly dates: number[] = [],
  ) {
    super(`[[${key}${params.length ? `, ${params.join(', ')}` : ''}]]`);
  }
}

/** 400 with a translation key. */
export const badRequest = (key: string, ...params: (string | number)[]) => new AppError(key, 400, params);
/** 401: the request needs a logged-in member. */
export const notAuthorised = () => new AppError('error:not-logged-in', 401);
/** 403 with a translation key (default: no privileges). */
export const forbidden = (key = 'error:no-privileges', ...params: (string | number)[]) => new AppError(key, 403, params);
/** 404 with a translation key. */
export const notFound = (key = 'error:not-found') => new AppError(key, 404);
/** 429 with a translation key. */
export const tooMany = (key = 'error:too-many-requests', ...params: (string | number)[]) => new AppError(key, 429, params);
