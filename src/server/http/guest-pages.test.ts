import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../setup.js';
import { GUESTS } from '../domains/groups/service.js';
import { CACHE_OFF, startSecondProcess, startTestForum, type TestForum, type TestMember } from '../test/harness.js';
import { HttpClient } from '../test/http-client.js';

let forum: TestForum;
let cid: number;
beforeAll(async () => {
  forum = await startTestForum({ env: { PALAVER_GUEST_CACHE_MS: '60000' } });
  cid = (await forum.ctx.categories.create(SYSTEM, { name: 'Cached' })).cid;
});
afterAll(async () => {
  await forum.close();
});

const configOf = (html: string) => JSON.parse(html.match(/<script id="client-config" type="application\/json">(.*?)<\/script>/s)![1]!) as { csrf_token: string };

describe('guest page cache', () => {
  it.skipIf(CACHE_OFF)('serves guests the same page from the cache, and a write clears it', async () => {
    const first = await forum.client().get('/api/recent');
    expect(first.headers.get('x-palaver-cache')).toBeNull();
    const second = await forum.client().get('/api/recent');
    expect(second.headers.get('x-palaver-cache')).toBe('hit');
    expect(second.body).toEqual(first.body);
    const { user } = await forum.loginAs();
    await forum.ctx.topics.create(await forum.ctx.privileges.viewer(user.uid), { cid, title: 'Fresh topic after caching', content: 'This must show to guests at once.' });
    const third = await forum.client().get('/api/recent');
    expect(third.headers.get('x-palaver-cache')).toBeNull();
    expect(third.body.topics.map((t: { titleRaw: string }) => t.titleRaw)).toContain('Fresh topic after caching');
  });

  it('never serves members from it', async () => {
    await forum.client().get('/api/categories');
    await forum.client().get('/api/categories');
    const { client } = await forum.loginAs();
    const res = await client.get('/api/categories');
    expect(res.headers.get('x-palaver-cache')).toBeNull();
    expect(res.body.loggedIn).toBe(true);
  });

  it.skipIf(CACHE_OFF)('gives each guest their own CSRF token in cached HTML', async () => {
    const a = forum.client();
    const b = forum.client();
    await a.get('/categories');
    const hitA = await a.get('/categories');
    const hitB = await b.get('/categories');
    expect(hitA.headers.get('x-palaver-cache')).toBe('hit');
    expect(hitB.headers.get('x-palaver-cache')).toBe('hit');
    expect(configOf(hitA.text).csrf_token).not.toBe(configOf(hitB.text).csrf_token);
    // B's token from the cached page works for B's login form.
    const user = await forum.createUser();
    b.csrf = configOf(hitB.text).csrf_token;
    expect((await b.post('/login', { username: user.username, password: 'Correct-Horse-42' })).status).toBe(200);
  });

  it('still counts a guest view of a cached topic, once per visitor', async () => {
    const { user } = await forum.loginAs();
    const { topic } = await forum.ctx.topics.create(await forum.ctx.privileges.viewer(user.uid), { cid, title: 'Counted views', content: 'Views must count on hits.' });
    const seen: (string | null)[] = [];
    for (let i = 0; i < 3; i++) seen.push((await forum.client().get(`/api/topic/${topic.tid}/${topic.slug}`)).headers.get('x-palaver-cache'));
    if (!CACHE_OFF) expect(seen.slice(1)).toEqual(['hit', 'hit']);
    await forum.ctx.views.flush();
    // The same guest (one address) reloading: one view, from the cache's hits as from a build.
    expect((await forum.ctx.topics.get(topic.tid))?.view_count).toBe(1);
  });
});

// Guest pages that came from the cache (the test checks they did) and must stop coming from it.
describe.skipIf(CACHE_OFF)('a category made private', () => {
  /** Makes a category guests can read, with a topic, and has guests' pages of it cached. */
  async function cachedCategory(base: string, name: string) {
    const admin = await forum.member({ admin: true });
    const secret = (await forum.ctx.categories.create(SYSTEM, { name })).cid;
    await forum.ctx.topics.create(admin.viewer, { cid: secret, title: `${name}: guests read this for now`, content: 'Until the category is made private.' });
    const guest = new HttpClient(base);
    for (const path of [`/api/category/${secret}`, '/api/categories']) {
      await guest.get(path);
      const again = await guest.get(path);
      expect(again.headers.get('x-palaver-cache'), path).toBe('hit');
      expect(again.text).toContain(name);
    }
    return { admin, secret, guest };
  }

  /** Takes the guests' read privileges away, as an admin does on the category's privileges page. */
  async function makePrivate(admin: TestMember, cid: number) {
    for (const privilege of ['find', 'read', 'topics:read']) {
      const res = await admin.client.del(`/api/v3/categories/${cid}/privileges/${privilege}`, { member: GUESTS });
      expect(res.status, res.text).toBe(200);
    }
  }

  it('is no longer served to guests from the cache, at once', async () => {
    const { admin, secret, guest } = await cachedCategory(forum.baseUrl, 'Soon private here');
    await makePrivate(admin, secret);
    const page = await guest.get(`/api/category/${secret}`);
    expect(page.headers.get('x-palaver-cache')).toBeNull();
    expect(page.status).not.toBe(200);
    expect(page.text).not.toContain('guests read this for now');
    expect((await guest.get('/api/categories')).text).not.toContain('Soon private here');
  });

  it.skipIf(!process.env.REDIS_URL)('is no longer served to guests from another process’s cache either', async () => {
    const other = await startSecondProcess(forum);
    try {
      const { admin, secret, guest } = await cachedCategory(other.url, 'Soon private there');
      await makePrivate(admin, secret);
      // The change reaches the other process through Redis: well within a second, never the cache's 60 s.
      const deadline = Date.now() + 5000;
      let page = await guest.get(`/api/category/${secret}`);
      while (page.status === 200 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        page = await guest.get(`/api/category/${secret}`);
      }
      expect(page.status).not.toBe(200);
      expect((await guest.get('/api/categories')).text).not.toContain('Soon private there');
    } finally {
      await other.close();
    }
  });
});
