import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CategoriesPage, CategoryPage, CategoryView } from '../../../shared/types.js';
import { startTestForum, type TestForum } from '../../test/harness.js';
import { SYSTEM } from '../../setup.js';

// Categories with the real topics domain behind them: counters, teasers and topic lists.
let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum({ settings: { topicsPerPage: 2 } });
});
afterAll(async () => {
  await forum?.close();
});

const find = (list: CategoryView[], cid: number) => list.find((c) => c.cid === cid);

describe('categories with real topics', () => {
  it('count topics and posts, total them up the tree and show the newest post', async () => {
    const top = await forum.ctx.categories.create(SYSTEM, { name: 'Real Top' });
    const child = await forum.ctx.categories.create(SYSTEM, { name: 'Real Child', parentCid: top.cid });
    const author = await forum.createUser();
    const viewer = await forum.ctx.privileges.viewer(author.uid);
    // A few milliseconds apart, so "newest" never ties.
    const tick = () => new Promise((r) => setTimeout(r, 5));
    await forum.ctx.topics.create(viewer, { cid: top.cid, title: 'First topic here', content: 'Some first content' });
    for (const i of [1, 2, 3]) {
      await tick();
      await forum.ctx.topics.create(viewer, { cid: child.cid, title: `Child topic ${i}`, content: `Child content number ${i}` });
    }

    const count = await forum.client().get(`/api/v3/categories/${child.cid}/count`);
    expect(count.body.response.count).toBe(3);

    const home = (await forum.client().get('/api/categories')).body as CategoriesPage;
    const node = find(home.categories, top.cid)!;
    expect(node).toMatchObject({ topic_count: 1, post_count: 1, totalTopicCount: 4, totalPostCount: 4 });
    expect(node.posts).toHaveLength(1);
    expect(node.posts[0]!.content).toContain('Child content number 3');
    expect(node.children[0]!.posts[0]!.user.uid).toBe(author.uid);

    const page = (await forum.client().get(`/api/category/${child.slug}?page=2`)).body as CategoryPage;
    expect(page.topics.map((t) => t.title)).toEqual(['Child topic 1']);
    expect(page.pagination).toMatchObject({ currentPage: 2, pageCount: 2 });
    const past = await forum.client().get(`/api/category/${child.slug}?page=5`);
    expect(past.headers.get('x-redirect')).toBe(`/category/${child.slug}?page=2`);
  });

  it('NodeBB\'s /category/{cid}/{slug}/{topic_index} opens the page holding that topic; the page marks unread topics and names its tag whitelist', async () => {
    const cat = await forum.ctx.categories.create(SYSTEM, { name: 'Indexed Room', tagWhitelist: ['alpha', 'beta'] });
    const author = await forum.createUser();
    const viewer = await forum.ctx.privileges.viewer(author.uid);
    for (const i of [1, 2, 3, 4, 5]) {
      await forum.ctx.topics.create(viewer, { cid: cat.cid, title: `Indexed topic ${i}`, content: `Indexed content ${i}`, tags: ['alpha'] });
      await new Promise((r) => setTimeout(r, 5));
    }
    const reader = await forum.loginAs();
    const get = async (path: string) => (await reader.client.get(path)).body as CategoryPage;
    // Two per page, newest first: the 3rd topic is the newest but two, on page 2.
    const third = await get(`/api/category/${cat.slug}/3`);
    expect(third.topics.map((t) => t.title)).toEqual(['Indexed topic 3', 'Indexed topic 2']);
    expect(third).toMatchObject({ topicIndex: 0, nextStart: 4, pagination: { currentPage: 2, pageCount: 3 } });
    expect((await get(`/api/category/${cat.slug}/5`)).pagination.currentPage).toBe(3);
    // ?page= wins over the index.
    expect((await get(`/api/category/${cat.slug}/5?page=1`)).topics[0]!.title).toBe('Indexed topic 5');
    expect((await reader.client.get(`/api/category/${cat.slug}/x`)).status).toBe(404);
    expect(third).toMatchObject({ tagWhitelist: ['alpha', 'beta'], unread: true, 'unread-class': 'unread', hasFollowers: false });
    // Read both topics of page 1: it has nothing unread left.
    const first = await get(`/api/category/${cat.slug}`);
    for (const t of first.topics) expect((await reader.client.get(`/api/topic/${t.tid}`)).status).toBe(200);
    expect(await get(`/api/category/${cat.slug}`)).toMatchObject({ unread: false, 'unread-class': '' });
    // A tag filter is the selected tag.
    expect(await get(`/api/category/${cat.slug}?tag=alpha`)).toMatchObject({ selectedTag: { label: 'alpha', value: 'alpha' }, selectedTags: ['alpha'] });
  });

  it("NodeBB's /api/topic/pagination/{tid}: the topic's pagination block for the reader", async () => {
    const cat = await forum.ctx.categories.create(SYSTEM, { name: 'Paged Topic Room' });
    const { client } = await forum.loginAs();
    const topic = (await client.post('/api/v3/topics', { cid: cat.cid, title: 'A topic of several pages', content: 'The opening post.' })).body.response;
    const perPage = (await forum.ctx.settings.get()).postsPerPage;
    for (let i = 0; i < perPage; i++) await client.post(`/api/v3/topics/${topic.tid}`, { content: `Reply number ${i + 1}` });
    const res = await client.get(`/api/topic/pagination/${topic.tid}?page=2`);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toMatchObject({ currentPage: 2, pageCount: 2, prev: { page: 1, active: true }, next: { page: 2, active: false } });
    expect(res.body.pagination.rel).toEqual([{ rel: 'prev', href: `/topic/${topic.slug}?page=1` }]);
    expect((await client.get('/api/topic/pagination/999999')).status).toBe(404);
    // A topic the reader may not read answers 404 like a missing one.
    await forum.ctx.categories.rescind(SYSTEM, cat.cid, 'groups:topics:read', 'registered-users');
    try {
      expect((await client.get(`/api/topic/pagination/${topic.tid}`)).status).toBe(404);
    } finally {
      await forum.ctx.categories.grant(SYSTEM, cat.cid, 'groups:topics:read', 'registered-users');
    }
  });

  it("a member's categories page shows a reply and an edit as the teaser at once (the teasers are cached per category set)", async () => {
    const cat = await forum.ctx.categories.create(SYSTEM, { name: 'Teaser Freshness' });
    const reader = await forum.loginAs();
    const writer = await forum.loginAs();
    const topic = (await writer.client.post('/api/v3/topics', { cid: cat.cid, title: 'Teaser freshness topic', content: 'The opening post of the topic.' })).body.response;
    const teaserOf = async () => find(((await reader.client.get('/api/categories')).body as CategoriesPage).categories, cat.cid)!.posts[0];
    expect((await teaserOf())!.content).toContain('The opening post of the topic.');
    // Read twice: the second answer comes from the cache, which the reply must drop.
    expect((await teaserOf())!.pid).toBe(topic.mainPid);
    const reply = (await writer.client.post(`/api/v3/topics/${topic.tid}`, { content: 'A reply that becomes the teaser.' })).body.response;
    expect(await teaserOf()).toMatchObject({ pid: reply.pid, content: expect.stringContaining('A reply that becomes the teaser.') });
    expect((await writer.client.put(`/api/v3/posts/${reply.pid}`, { content: 'The reply, edited.' })).status).toBe(200);
    expect((await teaserOf())!.content).toContain('The reply, edited.');
    // The category rows are shared too: a rename and the counters show at once.
    const node = async () => find(((await reader.client.get('/api/categories')).body as CategoriesPage).categories, cat.cid)!;
    expect(await node()).toMatchObject({ name: 'Teaser Freshness', topic_count: 1, post_count: 2 });
    await forum.ctx.categories.update(SYSTEM, cat.cid, { name: 'Renamed At Once' });
    expect((await node()).name).toBe('Renamed At Once');
    await writer.client.post(`/api/v3/topics/${topic.tid}`, { content: 'One more reply to count.' });
    expect(await node()).toMatchObject({ topic_count: 1, post_count: 3 });
  });

  it("GET /api/v3/categories/{cid}/topics follows a member's own topics-per-page setting", async () => {
    const cat = await forum.ctx.categories.create(SYSTEM, { name: 'Per Page' });
    const m = await forum.loginAs();
    const viewer = await forum.ctx.privileges.viewer(m.user.uid);
    for (const i of [1, 2, 3, 4]) await forum.ctx.topics.create(viewer, { cid: cat.cid, title: `Per page topic ${i}`, content: `Per page content ${i}` });
    expect((await m.client.put(`/api/v3/users/${m.user.uid}/settings`, { settings: { topicsPerPage: 3 } })).status).toBe(200);
    const res = await m.client.get(`/api/v3/categories/${cat.cid}/topics`);
    expect(res.body.response.topics).toHaveLength(3);
    expect(res.body.response.nextStart).toBe(3);
  });
});
