/** A response as a test sees it. */
export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON, or undefined when the body is not JSON. */
  body: T;
}

/** A small real-HTTP client that keeps cookies and sends the CSRF token on writes. */
export class HttpClient {
  cookies = new Map<string, string>();
  csrf: string | null = null;
  bearer: string | null = null;

  constructor(readonly baseUrl: string) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keepCookies(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /expires=thu, 01 jan 1970/i.test(a.trim()) || /max-age=0/i.test(a.trim()));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** Fetches the CSRF token from /api/config (as the browser's page load does). */
  async refreshCsrf(): Promise<string> {
    const res = await this.request('GET', '/api/config');
    this.csrf = (res.body as { csrf_token: string }).csrf_token;
    return this.csrf;
  }

  /** Sends a request; writes carry x-csrf-token unless `csrf: false`. */
  async request<T = any>(method: string, path: string, body?: unknown, opts: { csrf?: boolean; headers?: Record<string, string>; form?: boolean } = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    const write = method !== 'GET' && method !== 'HEAD';
    if (write && opts.csrf !== false && !this.bearer) headers['x-csrf-token'] = this.csrf ?? (await this.refreshCsrf());
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    let payload: string | undefined;
    if (body !== undefined) {
      if (opts.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        payload = new URLSearchParams(body as Record<string, string>).toString();
      } else {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(body);
      }
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body: payload, redirect: 'manual' });
    this.keepCookies(res.headers);
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    // A login or logout changes the session, and with it the CSRF token.
    if (/^\/(login|logout|register)$|\/utilities\/login$/.test(path) && res.status === 200) this.csrf = null;
    return { status: res.status, headers: res.headers, text, body: parsed as T };
  }

  get<T = any>(path: string, opts?: { headers?: Record<string, string> }) {
    return this.request<T>('GET', path, undefined, opts);
  }
  post<T = any>(path: string, body?: unknown, opts?: { csrf?: boolean; form?: boolean; headers?: Record<string, string> }) {
    return this.request<T>('POST', path, body ?? {}, opts);
  }
  put<T = any>(path: string, body?: unknown, opts?: { csrf?: boolean; headers?: Record<string, string> }) {
    return this.request<T>('PUT', path, body ?? {}, opts);
  }
  del<T = any>(path: string, body?: unknown, opts?: { csrf?: boolean; headers?: Record<string, string> }) {
    return this.request<T>('DELETE', path, body, opts);
  }
}
