import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../test/harness.js';

let forum: TestForum;
let routes: RouteOptions[] = [];

beforeAll(async () => {
  forum = await startTestForum();
  routes = forum.app.routeList;
});
afterAll(async () => {
  await forum.close();
});

// Static file routes serve files, not data: they have no body or response schema.
const STATIC = /^(\/assets|\/language)\//;

describe('route schemas', () => {
  it('every route declares its params, query, body and response schemas', () => {
    expect(routes.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const r of routes) {
      const url = r.url;
      const methods = ([] as string[]).concat(r.method as string | string[]);
      if (methods.every((m) => m === 'HEAD' || m === 'OPTIONS')) continue;
      if (STATIC.test(url)) continue;
      const s = r.schema ?? {};
      const problems: string[] = [];
      if (!s.response) problems.push('response');
      if (url.includes(':') && !s.params) problems.push('params');
      if (methods.some((m) => ['POST', 'PUT', 'PATCH'].includes(m)) && !s.body) problems.push('body');
      if (problems.length) missing.push(`${methods.join(',')} ${url}: ${problems.join(', ')}`);
    }
    expect(missing).toEqual([]);
  });

  it('serves an OpenAPI document listing the write API', async () => {
    const res = await forum.client().get('/api/v3/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toContain('/api/v3/users/{uid}/settings');
  });

  it('documents every route of the forum but the HEAD twins and hidden ones, though @fastify/swagger is only loaded on the first request', async () => {
    const doc = (await forum.client().get('/api/v3/openapi.json')).body as { paths: Record<string, Record<string, { responses?: object }>> };
    const documented = Object.entries(doc.paths).flatMap(([url, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${url}`));
    const expected = routes.flatMap((r) => {
      if ((r.schema as { hide?: boolean } | undefined)?.hide) return [];
      const url = r.url.replace(/:(\w+)/g, '{$1}');
      return [r.method].flat().filter((m) => m !== 'HEAD').map((m) => `${m} ${url}`);
    });
    expect(documented.sort()).toEqual([...new Set(expected)].sort());
    // Each operation keeps its route's response schemas.
    expect(doc.paths['/api/v3/ping']!.get!.responses).toHaveProperty('200');
  });

  it('compiles each schema on first use, and every pending one compiles (a test, so a broken schema still fails CI)', async () => {
    const before = forum.app.schemas.pending();
    expect(before).toBeGreaterThan(100);
    // A first request compiles its route's validators and serializer: they check and coerce as before.
    const bad = await forum.client().get('/api/v3/users/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.status.message).toBe('Invalid Data');
    expect(forum.app.schemas.pending()).toBeLessThan(before);
    const ping = await forum.client().get('/api/v3/ping');
    expect(ping.status).toBe(200);
    expect(ping.body.response).toEqual({ pong: true });
    // The rest, all at once: a schema that cannot compile throws here, as it threw at start-up before.
    expect(forum.app.schemas.compileAll()).toBeGreaterThan(0);
    expect(forum.app.schemas.pending()).toBe(0);
  });
});
