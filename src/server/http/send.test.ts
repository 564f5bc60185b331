import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../setup.js';
import { startTestForum, type TestForum, CACHE_OFF } from '../test/harness.js';

// Pages are written as pieces on a hijacked reply (send.ts): their length, HEAD answers and
// cookies must be what Fastify's own send would have given.
let forum: TestForum;
let topicPath: string;
beforeAll(async () => {
  forum = await startTestForum({ env: { PALAVER_GUEST_CACHE_MS: '60000' } });
  const { cid } = await forum.ctx.categories.create(SYSTEM, { name: 'Pieces' });
  const { user } = await forum.loginAs();
  const { topic } = await forum.ctx.topics.create(await forum.ctx.privileges.viewer(user.uid), {
    cid,
    title: 'Written in pieces',
    content: 'Ünïcödé text, so bytes and characters differ: 東京.',
  });
  topicPath = `/topic/${topic.tid}/${topic.slug}`;
});
afterAll(async () => {
  await forum.close();
});

const bytesOf = (text: string) => Buffer.byteLength(text);

describe('pages written as pieces', () => {
  it('gives members and guests, from the cache or not, a Content-Length that is the body’s', async () => {
    const { client } = await forum.loginAs();
    const guest = forum.client();
    const answers = [
      await client.get(`/api${topicPath}`),
      await client.get(topicPath),
      await guest.get(`/api${topicPath}`),
      await guest.get(`/api${topicPath}`),
      await guest.get(topicPath),
      await guest.get(topicPath),
    ];
    expect(answers.map((a) => a.headers.get('x-palaver-cache'))).toEqual(CACHE_OFF ? [null, null, null, null, null, null] : [null, null, null, 'hit', null, 'hit']);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(Number(a.headers.get('content-length'))).toBe(bytesOf(a.text));
      expect(a.headers.get('cache-control')).toBe('private, no-store');
    }
    expect(answers[0]!.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answers[1]!.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answers[0]!.body.posts[0].content).toContain('東京');
    expect(answers[1]!.text).toContain('東京');
    expect(answers[1]!.text.endsWith('</html>')).toBe(true);
  });

  it('answers HEAD with the headers and no body', async () => {
    const get = await fetch(`${forum.baseUrl}${topicPath}`);
    const head = await fetch(`${forum.baseUrl}${topicPath}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(1000);
    expect(await head.text()).toBe('');
    expect(bytesOf(await get.text())).toBe(Number(get.headers.get('content-length')));
  });

  it('sets a new guest’s CSRF cookie on a page, cached or not', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${forum.baseUrl}/categories`);
      const cookies = res.headers.getSetCookie();
      expect(cookies).toHaveLength(1);
      expect(cookies[0]).toMatch(/^palaver\.csrf=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
    }
  });

  it('clears a session cookie that no longer logs anyone in, on a page', async () => {
    const res = await fetch(`${forum.baseUrl}/categories`, { headers: { cookie: 'palaver.sid=no-such-session' } });
    expect(res.status).toBe(200);
    const cookies = res.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith('palaver.sid='))).toMatch(
      /^palaver\.sid=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/,
    );
    // The guest it now is gets its CSRF cookie in the same answer.
    expect(cookies.some((c) => c.startsWith('palaver.csrf='))).toBe(true);
  });

  it('replaces a cookie set twice in one answer: a login after a stale session sends only the new one', async () => {
    const user = await forum.createUser();
    const client = forum.client();
    await client.refreshCsrf();
    const res = await fetch(`${forum.baseUrl}/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-csrf-token': client.csrf!,
        cookie: `palaver.sid=no-such-session; ${[...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')}`,
      },
      body: JSON.stringify({ username: user.username, password: 'Correct-Horse-42' }),
    });
    expect(res.status).toBe(200);
    const sid = res.headers.getSetCookie().filter((c) => c.startsWith('palaver.sid='));
    expect(sid).toHaveLength(1);
    expect(sid[0]).toMatch(/^palaver\.sid=[^;]+;/);
    expect(sid[0]).not.toMatch(/^palaver\.sid=;/);
  });
});
