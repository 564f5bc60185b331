import type { ClientConfig } from '../../shared/types';
import { errorKey, errorMessage } from '../navigation/response';

/**
 * An error answer of the write API: the server's message (English), and the translation key
 * and params the client shows instead, in the member's language (see i18n's errorText).
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly key?: string,
    readonly params: (string | number)[] = [],
    /** Indexes of `params` that are times in epoch ms (errorText shows them as dates). */
    readonly dates: number[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

async function send(config: ClientConfig, url: string, method: string, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = { Accept: 'application/json', 'x-csrf-token': config.csrf_token };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      credentials: 'same-origin',
      cache: 'no-store',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError('[[error:no-connection]]', 0);
  }
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) throw apiError(res.status, json);
  return json;
}

/** The ApiError for an error answer's status and parsed body (null when it was not JSON). */
export function apiError(status: number, json: unknown): ApiError {
  const code = (json as { status?: { code?: string } } | null)?.status?.code;
  const keyed = errorKey(json);
  return new ApiError(errorMessage(json) ?? `[[error:api.${status >= 500 ? 500 : status}]]`, status, code, keyed?.key, keyed?.params, keyed?.dates);
}

/** Calls the write API under {relative_path}/api/v3 and returns the envelope's response. */
export async function api<T = unknown>(config: ClientConfig, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const json = (await send(config, `${config.relative_path}/api/v3${path}`, method, body)) as { response?: T } | null;
  return (json && typeof json === 'object' && 'response' in json ? json.response : json) as T;
}

/** Posts JSON to a site route such as /login, /register or /logout and returns its body. */
export async function postSite<T = unknown>(config: ClientConfig, path: string, body: unknown): Promise<T> {
  return (await send(config, `${config.relative_path}${path}`, 'POST', body)) as T;
}
