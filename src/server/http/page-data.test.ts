import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../test/harness.js';
import { makeCategory, postReply, postTopic } from '../domains/topics/testing.js';
import { pagination } from './pagination.js';

describe("NodeBB's pagination object", () => {
  it('carries prev, next, first, last, rel, pages, currentPage and pageCount with query strings', () => {
    const p = pagination(2, 3, { sort: 'x', _: '123' });
    expect(p).toEqual({
      currentPage: 2,
      pageCount: 3,
      prev: { page: 1, active: true, qs: 'sort=x&page=1' },
      next: { page: 3, active: true, qs: 'sort=x&page=3' },
      first: { page: 1, active: false, qs: 'sort=x&page=1' },
      last: { page: 3, active: false, qs: 'sort=x&page=3' },
      rel: [
        { rel: 'next', href: '?sort=x&page=3' },
        { rel: 'prev', href: '?sort=x&page=1' },
      ],
      pages: [1, 2, 3].map((page) => ({ page, active: page === 2, qs: `sort=x&page=${page}` })),
    });
  });

  it('marks a single page as both first and last, with no rel links', () => {
    expect(pagination(1, 0)).toMatchObject({ currentPage: 1, pageCount: 1, first: { active: true }, last: { active: true }, rel: [], prev: { active: false }, next: { active: false } });
  });
});

describe('page data as NodeBB sends it', () => {
  let forum: TestForum;
  beforeAll(async () => {
    forum = await startTestForum({ settings: { topicsPerPage: 2, postsPerPage: 2, usersPerPage: 2 } });
  });
  afterAll(async () => {
    await forum.close();
  });

  it("gives a guest NodeBB's guest object as loggedInUser, not null", async () => {
    const page = (await forum.client().get('/api/recent')).body;
    expect(page.loggedIn).toBe(false);
    expect(page.loggedInUser).toMatchObject({ uid: 0, username: '[[global:guest]]', picture: '', 'icon:text': '?', 'icon:bgColor': '#aaa' });
    const { client, user } = await forum.loginAs();
    const mine = (await client.get('/api/recent')).body;
    expect(mine.loggedInUser).toMatchObject({ uid: user.uid, username: user.username });
  });

  it('puts the pagination object on every list: recent, popular, top, unread, category, tag, users, topic', async () => {
    const { client } = await forum.loginAs();
    await forum.createUser();
    await forum.createUser();
    const cid = await makeCategory(forum.ctx, 'Paged');
    const t = await postTopic(client, cid, { tags: ['paged'] });
    for (let i = 0; i < 2; i++) await postTopic(client, cid, { tags: ['paged'] });
    for (let i = 0; i < 2; i++) await postReply(client, t.tid);
    const other = await forum.loginAs();
    for (const path of ['/api/recent', '/api/popular', '/api/top', '/api/unread', `/api/category/${cid}`, '/api/tags/paged', '/api/users', `/api/topic/${t.tid}`]) {
      const res = await other.client.get(path);
      expect(res.status, path).toBe(200);
      const count = res.body.pagination?.pageCount;
      expect(count, path).toBeGreaterThanOrEqual(2);
      expect(res.body.pagination, path).toMatchObject({
        currentPage: 1,
        first: { page: 1, active: true },
        last: { page: count, active: false },
        rel: [{ rel: 'next', href: '?page=2' }],
        prev: { page: 1, active: false },
        next: { page: 2, active: true },
      });
    }
  });
});
