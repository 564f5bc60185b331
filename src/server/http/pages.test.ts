import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, TEST_PASSWORD, type TestForum } from '../test/harness.js';
import { expandPath } from './pages.js';
import { scriptJson } from './page-json.js';

describe('page paths', () => {
  it('expands optional trailing params into concrete routes', () => {
    expect(expandPath('/topic/:tid/:slug?/:index?')).toEqual(['/topic/:tid', '/topic/:tid/:slug', '/topic/:tid/:slug/:index']);
    expect(expandPath('/users')).toEqual(['/users']);
  });

  it('embeds JSON that cannot close its script element', () => {
    expect(scriptJson({ a: '</script><script>alert(1)</script>' })).not.toContain('</script>');
    const value = { html: '<p>a <b>b</b></p><!-- c -->', lines: 'one\u2028two\u2029three', n: [1, '<'] };
    const json = scriptJson(value);
    expect(json).not.toMatch(/[<\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('pages under a sub-path', () => {
  let forum: TestForum;
  beforeAll(async () => {
    forum = await startTestForum({ relativePath: '/forum' });
  });
  afterAll(async () => {
    await forum.close();
  });

  it('serves page data and config with the relative path', async () => {
    const c = forum.client();
    const config = await c.get('/api/config');
    expect(config.status).toBe(200);
    expect(config.body.relative_path).toBe('/forum');
    expect(config.body.asset_base_url).toBe('/forum/assets');
    const login = await c.get('/api/login');
    expect(login.status).toBe(200);
    expect(login.body.template).toEqual({ name: 'login', login: true });
    expect(login.body.url).toBe('/forum/login');
    expect(login.body.relative_path).toBe('/forum');
    // NodeBB's login page data: a name or an address logs in, locally, and passwords can be reset.
    expect(login.body).toMatchObject({ allowLoginWith: '[[login:username-email]]', allowLocalLogin: true, allowPasswordReset: true, alternate_logins: false, authentication: [], loginFormEntry: [] });
    expect((await c.get('/api/reset')).body).toMatchObject({ code: null });
    const canonical = login.body._header.tags.link.find((l: Record<string, string>) => l.rel === 'canonical');
    expect(canonical.href).toBe('http://127.0.0.1/forum/login');
  });

  it('scopes cookies to the relative path and logs in there', async () => {
    const user = await forum.createUser();
    const c = forum.client();
    const res = await c.post('/login', { username: user.username, password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.next).toBe('/forum/');
    expect(res.headers.getSetCookie().find((l) => l.startsWith('palaver.sid='))).toMatch(/Path=\/forum/);
  });

  it('redirects a logged-in member away from /login with X-Redirect under the sub-path', async () => {
    const { client } = await forum.loginAs();
    const res = await client.get('/api/login');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-redirect')).toBe('/forum/');
    const html = await client.get('/login');
    expect(html.status).toBe(302);
    expect(html.headers.get('location')).toBe('/forum/');
  });

  it('nothing outside the sub-path is served', async () => {
    const res = await fetch(forum.baseUrl.replace('/forum', '') + '/api/config');
    expect(res.status).toBe(404);
  });
});

describe('HTML documents and error pages', () => {
  let forum: TestForum;
  beforeAll(async () => {
    forum = await startTestForum();
    await forum.ctx.settings.set({ siteTitle: 'Tea Room', browserTitle: 'Tea Room', titleLayout: '{pageTitle} · {browserTitle}' });
  });
  afterAll(async () => {
    await forum.close();
  });

  it('renders a complete document: title from titleLayout, head tags, page data and config', async () => {
    const user = await forum.createUser({ username: 'htmlperson' });
    const res = await forum.client().get(`/user/${user.userslug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toMatch(/<title>htmlperson · Tea Room<\/title>/);
    expect(res.text).toContain('<meta property="og:site_name" content="Tea Room">');
    expect(res.text).toContain('<link rel="canonical" href="http://127.0.0.1/user/htmlperson">');
    const data = JSON.parse(res.text.match(/<script id="page-data" type="application\/json">(.*?)<\/script>/s)![1]!);
    expect(data.template.name).toBe('account/profile');
    expect(data.username).toBe('htmlperson');
    const config = JSON.parse(res.text.match(/<script id="client-config" type="application\/json">(.*?)<\/script>/s)![1]!);
    expect(config.siteTitle).toBe('Tea Room');
    expect(config.csrf_token).toBeTruthy();
  });

  it('answers an unknown page with the 404 page, as data and as HTML', async () => {
    const api = await forum.client().get('/api/no/such/page');
    expect(api.status).toBe(404);
    expect(api.body.template.name).toBe('404');
    const html = await forum.client().get('/no/such/page');
    expect(html.status).toBe(404);
    expect(html.text).toContain('"name":"404"');
    const v3 = await forum.client().get('/api/v3/no/such/route');
    expect(v3.status).toBe(404);
    expect(v3.body.status.code).toBe('not-found');
  });

  it('answers an unknown member with 404 and a wrong-case slug with a redirect', async () => {
    expect((await forum.client().get('/api/user/nobody-at-all')).status).toBe(404);
    await forum.createUser({ username: 'CaseName' });
    const res = await forum.client().get('/api/user/CaseName');
    expect(res.headers.get('x-redirect')).toBe('/user/casename');
  });

  it('refuses a bad page number with 400 page data', async () => {
    const res = await forum.client().get('/api/users?page=abc');
    expect(res.status).toBe(400);
    expect(res.body.template.name).toBe('400');
  });

  it('lists members on /users', async () => {
    await forum.createUser({ username: 'listed-one' });
    const res = await forum.client().get('/api/users');
    expect(res.status).toBe(200);
    expect(res.body.template.name).toBe('users');
    expect(res.body.users.map((u: { username: string }) => u.username)).toContain('listed-one');
    expect(res.body.users[0]).not.toHaveProperty('email');
    expect(res.body.users[0]).not.toHaveProperty('password_hash');
  });

  it('answers malformed JSON with 400 error:invalid-json', async () => {
    const c = forum.client();
    const token = await c.refreshCsrf();
    const res = await fetch(`${forum.baseUrl}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      body: '{"username": ',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { status: { key: string } }).status.key).toBe('error:invalid-json');
  });
});
