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
});
