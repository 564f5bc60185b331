import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CategoriesPage, CategoryPage, CategoryView } from '../../../shared/types.js';
import { fakeTopics, teaser } from '../../test/fake-topics.js';
import { startTestForum, type TestForum } from '../../test/harness.js';
import { SYSTEM } from '../../setup.js';
import type { CategoryInput } from './validate.js';

let forum: TestForum;
let fakes: ReturnType<typeof fakeTopics>;

beforeAll(async () => {
  forum = await startTestForum({ settings: { siteTitle: 'Test Forum' } });
  fakes = fakeTopics(forum);
});
afterAll(async () => {
  await forum?.close();
});

let n = 0;
const make = (data: CategoryInput = {}) => forum.ctx.categories.create(SYSTEM, { name: `Room ${(n += 1)}`, ...data });
const find = (list: CategoryView[], cid: number): CategoryView | undefined => {
  for (const c of list) {
    if (c.cid === cid) return c;
    const inner = find(c.children, cid);
    if (inner) return inner;
  }
  return undefined;
};

describe('home and categories pages', () => {
  it('serve the nested tree with totals and the latest teaser', async () => {
    const top = await make({ name: 'Top level' });
    const mid = await make({ parentCid: top.cid });
    const leaf = await make({ parentCid: mid.cid });
    const sibling = await make({ parentCid: top.cid });
    await forum.ctx.actions.run('test.counters', (w) => forum.ctx.categories.bumpCounters(w, top.cid, 1, 2));
    await forum.ctx.actions.run('test.counters', (w) => forum.ctx.categories.bumpCounters(w, mid.cid, 3, 4));
    await forum.ctx.actions.run('test.counters', (w) => forum.ctx.categories.bumpCounters(w, leaf.cid, 5, 6));
    fakes.teasers.set(top.cid, teaser(1, 1000));
    fakes.teasers.set(leaf.cid, teaser(2, 2000));

    const res = await forum.client().get('/api');
    expect(res.status).toBe(200);
    const page = res.body as CategoriesPage;
    expect(page.template.name).toBe('categories');
    expect(page.title).toBe('Test Forum');
    const node = find(page.categories, top.cid)!;
    expect(page.categories.map((c) => c.cid)).toContain(top.cid);
    expect(node.children.map((c) => c.cid)).toEqual([mid.cid, sibling.cid]);
    expect(node.children[0]!.children.map((c) => c.cid)).toEqual([leaf.cid]);
    expect(node).toMatchObject({ topic_count: 1, post_count: 2, totalTopicCount: 9, totalPostCount: 12 });
    expect(node.children[0]).toMatchObject({ totalTopicCount: 8, totalPostCount: 10 });
    // The newest post anywhere below a category is its teaser.
    expect(node.posts.map((p) => p.pid)).toEqual([2]);
    expect(find(page.categories, sibling.cid)!.posts).toEqual([]);
    expect(fakes.teaserCalls.at(-1)).toEqual(expect.arrayContaining([top.cid, mid.cid, leaf.cid, sibling.cid]));

    const cats = await forum.client().get('/api/categories');
    expect(cats.body.template.name).toBe('categories');
    expect(cats.body.title).toBe('Categories');
    expect(cats.body.breadcrumbs).toEqual([{ text: 'Categories' }]);
  });

  it('leave out disabled categories and those the viewer cannot find, with their children', async () => {
    const off = await make({ disabled: true });
    const secret = await make();
    const under = await make({ parentCid: secret.cid });
    await forum.ctx.privileges.take(secret.cid, ['find', 'read', 'topics:read'], 'guests');
    const guest = (await forum.client().get('/api/categories')).body as CategoriesPage;
    for (const cid of [off.cid, secret.cid, under.cid]) expect(find(guest.categories, cid)).toBeUndefined();
    expect(fakes.teaserCalls.at(-1)).not.toContain(secret.cid);
    const { client } = await forum.loginAs();
    const memberView = (await client.get('/api/categories')).body as CategoriesPage;
    expect(find(memberView.categories, under.cid)).toBeDefined();
  });

  it('render HTML with the category links', async () => {
    const c = await make({ name: 'Visible In HTML' });
    const res = await forum.client().get('/categories');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.text).toContain(`/category/${c.slug}`);
  });
});

describe('category page', () => {
  it('serves the category with topics, privileges, pagination, breadcrumbs and head tags', async () => {
    const parent = await make({ name: 'Parent Room' });
    const c = await make({ name: 'Child Room', parentCid: parent.cid, description: 'All about **children** and more' });
    const sub = await make({ name: 'Grandchild', parentCid: c.cid });
    fakes.counts.set(c.cid, 25);
    const res = await forum.client().get(`/api/category/${c.slug}?page=2`);
    expect(res.status).toBe(200);
    const page = res.body as CategoryPage;
    expect(page.template.name).toBe('category');
    expect(page).toMatchObject({ cid: c.cid, name: 'Child Room', title: 'Child Room', parentCid: parent.cid, handle: c.handle });
    expect(page.descriptionParsed).toContain('<strong>children</strong>');
    expect(page.children.map((x) => x.cid)).toEqual([sub.cid]);
    expect(page.topics).toHaveLength(5);
    expect(fakes.listCalls.at(-1)).toMatchObject({ cids: [c.cid], sort: 'category', page: 2, perPage: 20 });
    expect(page.pagination).toMatchObject({ currentPage: 2, pageCount: 2, prev: { page: 1, active: true }, next: { active: false } });
    expect(page.privileges).toMatchObject({ read: true, 'topics:read': true, 'topics:create': false, isAdminOrMod: false });
    expect(page.breadcrumbs).toEqual([
      { text: 'Categories', url: '/categories' },
      { text: 'Parent Room', url: `/category/${parent.slug}`, cid: parent.cid },
      { text: 'Child Room', cid: c.cid },
    ]);
    const meta = page._header.tags.meta;
    expect(meta).toContainEqual({ name: 'description', content: 'All about children and more' });
    expect(meta).toContainEqual({ property: 'og:title', content: 'Child Room' });
    const link = page._header.tags.link;
    expect(link).toContainEqual({ rel: 'alternate', type: 'application/rss+xml', href: `${forum.ctx.config.url}/category/${c.cid}.rss` });
    expect(link).toContainEqual({ rel: 'up', href: `${forum.ctx.config.url}/category/${parent.slug}` });
  });

  it('shows a member their own privileges', async () => {
    const c = await make();
    const { client } = await forum.loginAs();
    const page = (await client.get(`/api/category/${c.slug}`)).body as CategoryPage;
    // NodeBB's category page privileges: its own subset, with the category (as text); not the
    // reader's uid (a documented deviation: members alike share the page's rendered frame).
    expect(page.privileges).toEqual({
      'topics:create': true,
      'topics:read': true,
      'topics:tag': true,
      'topics:schedule': false,
      read: true,
      'posts:view_deleted': false,
      cid: String(c.cid),
      editable: false,
      view_deleted: false,
      isAdminOrMod: false,
    });
    expect(page).toMatchObject({ showSelect: false, showTopicTools: false, selectedTag: null, selectedTags: [], tagWhitelist: [], link: '' });
    expect(page.rssFeedUrl).toMatch(new RegExp(`/category/${c.cid}\\.rss\\?uid=${page.loggedInUser.uid}&token=`));
    expect(page.loggedIn).toBe(true);
  });

  it('redirects a wrong or missing slug in HTML (308); page data answers directly, as NodeBB does', async () => {
    const c = await make({ name: 'Slugged Room' });
    fakes.counts.set(c.cid, 45);
    for (const path of [`/category/${c.cid}`, `/category/${c.cid}/wrong-slug`]) {
      const api = await forum.client().get(`/api${path}?page=2`);
      expect(api.status).toBe(200);
      expect(api.headers.get('x-redirect')).toBeNull();
      expect(api.body).toMatchObject({ cid: c.cid, name: 'Slugged Room', pagination: { currentPage: 2 } });
      const html = await forum.client().get(path);
      expect(html.status).toBe(308);
      expect(html.headers.get('location')).toBe(`/category/${c.slug}`);
    }
  });

  it('serves a non-Latin slug without a redirect loop', async () => {
    const c = await make({ name: 'Café Ärger' });
    const res = await forum.client().get(`/api/category/${encodeURI(c.slug)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-redirect')).toBeNull();
    expect(res.body.name).toBe('Café Ärger');
  });

  it('sends a page past the end to the last page and refuses page 0', async () => {
    const c = await make();
    fakes.counts.set(c.cid, 41);
    const past = await forum.client().get(`/api/category/${c.slug}?page=9`);
    expect(past.headers.get('x-redirect')).toBe(`/category/${c.slug}?page=3`);
    const html = await forum.client().get(`/category/${c.slug}?page=9`);
    expect(html.status).toBe(302);
    expect(html.headers.get('location')).toBe(`/category/${c.slug}?page=3`);
    const zero = await forum.client().get(`/api/category/${c.slug}?page=0`);
    expect(zero.status).toBe(400);
    expect(zero.body.template.name).toBe('400');
    const empty = await make();
    expect((await forum.client().get(`/api/category/${empty.slug}`)).body.pagination).toMatchObject({ currentPage: 1, pageCount: 1 });
    expect((await forum.client().get(`/api/category/${empty.slug}?page=2`)).headers.get('x-redirect')).toBe(`/category/${empty.slug}?page=1`);
  });

  it('answers 404 for a non-numeric, unknown, disabled or hidden category, and without read (like a missing one)', async () => {
    expect((await forum.client().get('/api/category/abc/def')).status).toBe(404);
    expect((await forum.client().get('/api/category/99999/x')).status).toBe(404);
    const off = await make({ disabled: true });
    expect((await forum.client().get(`/api/category/${off.slug}`)).status).toBe(404);
    const c = await make({ name: 'Members Only Room' });
    await forum.ctx.privileges.take(c.cid, ['read'], 'guests');
    const denied = await forum.client().get(`/api/category/${c.slug}`);
    expect(denied.status).toBe(404);
    expect(denied.body.template.name).toBe('404');
    expect(denied.text).not.toContain('Members Only Room');
    expect((await forum.client().get(`/api/category/${c.cid}`)).status).toBe(404);
    expect((await forum.client().get(`/api/v3/categories/${c.cid}`)).status).toBe(404);
    await forum.ctx.privileges.take(c.cid, ['find'], 'guests');
    const hidden = await forum.client().get(`/category/${c.slug}`);
    expect(hidden.status).toBe(404);
    expect(hidden.text).not.toContain('Members Only Room');
    await forum.ctx.privileges.give(c.cid, ['find', 'read'], 'guests');
    expect((await forum.client().get(`/api/category/${c.slug}`)).status).toBe(200);
  });

  it('sends a link category to its link', async () => {
    const c = await make({ link: 'https://example.org/elsewhere' });
    const res = await forum.client().get(`/api/category/${c.slug}`);
    expect(res.headers.get('x-redirect')).toBe('https://example.org/elsewhere');
  });

  it('renders the HTML page with its title and head tags', async () => {
    const c = await make({ name: 'Html Room', description: 'Plain words' });
    const res = await forum.client().get(`/category/${c.slug}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>Html Room | ');
    expect(res.text).toContain('<meta name="description" content="Plain words">');
    expect(res.text).toContain('rel="up"');
  });
});
