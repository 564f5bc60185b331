import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../test/harness.js';

let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum.close();
});

describe('errors as the client sees them', () => {
  it('still answers a malformed body with 400 error:invalid-json, and an empty JSON body too', async () => {
    const c = forum.client();
    const token = await c.refreshCsrf();
    const headers = { 'content-type': 'application/json', 'x-csrf-token': token, cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    for (const body of ['{"username": ', '']) {
      const res = await fetch(`${forum.baseUrl}/login`, { method: 'POST', headers, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { status: { key: string } }).status.key).toBe('error:invalid-json');
    }
  });

  it('names the failing parameter as body/cid, params/tid and querystring/page', async () => {
    const { client, user } = await forum.loginAs();
    const missing = await client.post('/api/v3/topics', { title: 'A title here', content: 'Some content here' });
    expect(missing.status).toBe(400);
    expect(missing.body.status.params).toEqual(['body/cid']);
    const wrong = await client.post('/api/v3/topics', { cid: 'abc', title: 'A title here', content: 'Some content here' });
    expect(wrong.body.status.params).toEqual(['body/cid']);
    const param = await client.get('/api/v3/topics/abc');
    expect(param.status).toBe(400);
    expect(param.body.status.params).toEqual(['params/tid']);
    const nested = await client.put(`/api/v3/users/${user.uid}/settings`, { settings: { topicsPerPage: { deep: 1 } } });
    expect(nested.status).toBe(400);
    expect(nested.body.status.params).toEqual(['body/settings/topicsPerPage']);
    const query = await client.get(`/api/v3/categories/1/topics?page=${'1'.repeat(30)}`);
    expect(query.status).toBe(400);
    expect(query.body.status.params).toEqual(['querystring/page']);
  });

  it('answers a SyntaxError thrown by server code with 500, not error:invalid-json', async () => {
    // Last in the file: the filter stays registered. A plugin whose filter fails with a SyntaxError (as a bad JSON.parse would).
    forum.ctx.hooks.filter('filter:user.create', 'broken-plugin', () => {
      throw new SyntaxError('Unexpected token in JSON');
    });
    const res = await forum.client().post('/register', { username: 'syntaxy', email: 'syntaxy@example.com', password: 'Correct-Horse-42' });
    expect(res.status).toBe(500);
    expect(res.body.status.key).toBe('error:api.500');
  });
});
