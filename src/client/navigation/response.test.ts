import { describe, expect, it } from 'vitest';
import { classifyResponse, createDuplicateGuard } from './response';

const facts = (status: number, body: unknown, extra: { redirectHeader?: string; attempt?: number } = {}) => ({
  status,
  body,
  redirectHeader: extra.redirectHeader ?? null,
  attempt: extra.attempt ?? 0,
  isInternal: (href: string) => href.startsWith('/'),
});

describe('classifyResponse', () => {
  it('renders page data', () => {
    expect(classifyResponse(facts(200, { template: { name: 'recent' } })).kind).toBe('page');
  });
  it('follows X-Redirect internally and leaves for external targets', () => {
    expect(classifyResponse(facts(200, '/topic/1', { redirectHeader: '/topic/1' }))).toEqual({ kind: 'redirect', to: '/topic/1', external: false });
    expect(classifyResponse(facts(308, { external: 'https://x.test' }))).toEqual({ kind: 'redirect', to: 'https://x.test', external: true });
    expect(classifyResponse(facts(302, '/login'))).toEqual({ kind: 'redirect', to: '/login', external: false });
  });
  it('sends 401 to login', () => {
    expect(classifyResponse(facts(401, {})).kind).toBe('login');
  });
  it('retries 502 once then shows the 500 page', () => {
    expect(classifyResponse(facts(502, null)).kind).toBe('retry');
    expect(classifyResponse(facts(502, null, { attempt: 1 }))).toMatchObject({ kind: 'error-page', status: 500 });
  });
  it('shows error pages and no-connection', () => {
    expect(classifyResponse(facts(404, { template: { name: '404' } }))).toMatchObject({ kind: 'error-page', status: 404 });
    expect(classifyResponse(facts(403, null))).toMatchObject({ kind: 'error-page', status: 403 });
    expect(classifyResponse(facts(0, null))).toMatchObject({ kind: 'error-page', status: 500, error: 'error:no-connection' });
  });
  it('toasts the server message for other errors', () => {
    expect(classifyResponse(facts(429, { status: { code: 'x', message: 'Slow down' } }))).toEqual({ kind: 'toast', message: 'Slow down' });
  });
});

describe('duplicate guard', () => {
  it('ignores the same url within the window only', () => {
    const g = createDuplicateGuard(500);
    expect(g.isDuplicate('/a', 1000)).toBe(false);
    expect(g.isDuplicate('/a', 1400)).toBe(true);
    expect(g.isDuplicate('/b', 1450)).toBe(false);
    expect(g.isDuplicate('/b', 2000)).toBe(false);
  });
});
