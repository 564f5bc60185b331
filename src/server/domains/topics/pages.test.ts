import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import type { UserRow } from '../users/store.js';
import { makeCategory, postReply, postTopic, writeSnapshot } from './testing.js';

let forum: TestForum;
let cid: number;
let alice: { client: HttpClient; user: UserRow };
let bob: { client: HttpClient; user: UserRow };
let admin: { client: HttpClient; user: UserRow };

beforeAll(async () => {
  forum = await startTestForum({ settings: { postsPerPage: 5, topicsPerPage: 3 } });
  cid = await makeCategory(forum.ctx, 'Pages');
  alice = await forum.loginAs();
  bob = await forum.loginAs();
  admin = await forum.loginAs({ admin: true });
  // Members page by their own setting; give these the forum's small sizes.
  for (const c of [alice, bob, admin]) await c.client.put(`/api/v3/users/${c.user.uid}/settings`, { settings: { postsPerPage: 5, topicsPerPage: 3 } });
});
afterAll(async () => {
  await forum.close();
});

describe('topic page', () => {
  it('serves page data: posts, authors, votes, privileges, breadcrumbs, meta', async () => {
    const t = await postTopic(alice.client, cid, { title: 'Page data topic', content: 'The **first** post of the page', tags: ['pagetag'] });
    const r = await postReply(bob.client, t.tid);
    await bob.client.put(`/api/v3/posts/${t.mainPid}/vote`, { delta: 1 });
    await bob.client.put(`/api/v3/posts/${t.mainPid}/bookmark`);
    const res = await bob.client.get(`/api/topic/${t.slug}`);
    expect(res.status).toBe(200);
    const p = res.body;
    expect(p.template.name).toBe('topic');
    expect(p.tid).toBe(t.tid);
    expect(p.titleRaw).toBe('Page data topic');
    expect(p.posts.map((x: { pid: number }) => x.pid)).toEqual([t.mainPid, r.pid]);
    expect(p.posts[0]).toMatchObject({ index: 0, upvoted: true, bookmarked: true, votes: 1, selfPost: false, display_edit_tools: false });
    expect(p.posts[1]).toMatchObject({ index: 1, selfPost: true, display_edit_tools: true, display_delete_tools: true });
    expect(p.posts[0].user.uid).toBe(alice.user.uid);
    expect(p.privileges['topics:reply']).toBe(true);
    expect(p.privileges.isAdminOrMod).toBe(false);
    expect(p.tags[0].value).toBe('pagetag');
    expect(p.category.cid).toBe(cid);
    expect(p.breadcrumbs.map((b: { text: string }) => b.text).slice(1)).toEqual(['Pages', 'Page data topic']);
    const meta = p._header.tags.meta;
    expect(meta.find((m: { name?: string }) => m.name === 'description').content).toBe('The first post of the page');
    expect(meta.find((m: { property?: string }) => m.property === 'og:type').content).toBe('article');
    const canon = p._header.tags.link.filter((l: { rel: string }) => l.rel === 'canonical');
    expect(canon).toHaveLength(1);
    expect(canon[0].href).toMatch(new RegExp(`/topic/${t.slug}$`));
    expect(p.pagination).toMatchObject({ currentPage: 1, pageCount: 1 });
  });

  it('renders HTML for crawlers with the posts in it, and the title escaped once', async () => {
    const t = await postTopic(alice.client, cid, { title: 'Html & <topic>', content: 'Visible to curl too' });
    const res = await forum.client().get(`/topic/${t.slug}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Visible to curl too');
    expect(res.text).toContain('<title>Html &amp; &lt;topic&gt; | Palaver</title>');
    expect(res.text).toMatch(/<h1[^>]*>Html &amp; &lt;topic&gt;<\/h1>/);
  });

  it('redirects a wrong or missing slug in HTML, keeping the index and query; page data answers directly', async () => {
    const t = await postTopic(alice.client, cid, { title: 'Slug topic' });
    const bare = await forum.client().get(`/topic/${t.tid}`);
    expect(bare.status).toBe(302);
    expect(bare.headers.get('location')).toBe(`/topic/${t.tid}/slug-topic`);
    const wrong = await forum.client().get(`/topic/${t.tid}/wrong-slug/3?sort=x`);
    expect(wrong.headers.get('location')).toBe(`/topic/${t.tid}/slug-topic/3?sort=x`);
    // NodeBB answers API requests at any slug: the page data itself, no X-Redirect.
    for (const path of [`/api/topic/${t.tid}`, `/api/topic/${t.tid}/nope`]) {
      const api = await forum.client().get(path);
      expect(api.status).toBe(200);
      expect(api.headers.get('x-redirect')).toBeNull();
      expect(api.body).toMatchObject({ tid: t.tid, slug: t.slug, template: { name: 'topic' } });
    }
  });

  it('404s a non-numeric or unknown tid, a deleted topic for guests, and a topic the reader may not read', async () => {
    expect((await forum.client().get('/api/topic/abc')).status).toBe(404);
    expect((await forum.client().get('/api/topic/999999/x')).status).toBe(404);
    const t = await postTopic(alice.client, cid);
    await alice.client.del(`/api/v3/topics/${t.tid}/state`);
    expect((await forum.client().get(`/api/topic/${t.slug}`)).status).toBe(404);
    expect((await bob.client.get(`/api/topic/${t.slug}`)).status).toBe(404);
    expect((await alice.client.get(`/api/topic/${t.slug}`)).status).toBe(200);
    const adminView = await admin.client.get(`/api/topic/${t.slug}`);
    expect(adminView.status).toBe(200);
    expect(adminView.body.deleted).toBe(1);
    const hidden = await makeCategory(forum.ctx, 'Members only');
    const h = await postTopic(alice.client, hidden);
    await forum.ctx.privileges.take(hidden, ['read', 'topics:read'], 'guests');
    // Like a missing topic, so restricted content cannot be probed: page data, HTML and v3.
    const denied = await forum.client().get(`/api/topic/${h.slug}`);
    expect(denied.status).toBe(404);
    expect(denied.body.template.name).toBe('404');
    expect((await forum.client().get(`/api/topic/${h.tid}`)).status).toBe(404);
    expect((await forum.client().get(`/topic/${h.slug}`)).status).toBe(404);
    const v3 = await forum.client().get(`/api/v3/topics/${h.tid}`);
    expect(v3.status).toBe(404);
    expect(v3.body.status.code).toBe('not-found');
    expect((await alice.client.get(`/api/topic/${h.slug}`)).status).toBe(200);
  });

  it('paginates: ?page=, the index in the path, and the edges', async () => {
    const t = await postTopic(alice.client, cid, { title: 'Long topic' });
    for (let i = 1; i <= 11; i++) await postReply(bob.client, t.tid, `Reply number ${i} here`);
    // 12 posts, 5 per page: 3 pages.
    const p1 = (await bob.client.get(`/api/topic/${t.slug}`)).body;
    expect(p1.posts).toHaveLength(5);
    expect(p1.pagination).toMatchObject({ currentPage: 1, pageCount: 3 });
    const p3 = (await bob.client.get(`/api/topic/${t.slug}?page=3`)).body;
    expect(p3.posts.map((x: { index: number }) => x.index)).toEqual([10, 11]);
    const byIndex = (await bob.client.get(`/api/topic/${t.slug}/7`)).body;
    expect(byIndex.pagination.currentPage).toBe(2);
    expect(byIndex.postIndex).toBe(7);
    expect(byIndex.posts[0].index).toBe(5);
    const past = (await bob.client.get(`/api/topic/${t.slug}/999`)).body;
    expect(past.pagination.currentPage).toBe(3);
    expect((await bob.client.get(`/api/topic/${t.slug}?page=4`)).status).toBe(404);
    expect((await bob.client.get(`/api/topic/${t.slug}?page=0`)).status).toBe(400);
    expect((await bob.client.get(`/api/topic/${t.slug}?page=abc`)).status).toBe(400);
  });

  it('shows a deleted reply without content to members and with it to moderators', async () => {
    const t = await postTopic(alice.client, cid);
    const r = await postReply(bob.client, t.tid, 'Soon to be deleted reply');
    await bob.client.del(`/api/v3/posts/${r.pid}/state`);
    const member = (await alice.client.get(`/api/topic/${t.slug}`)).body.posts[1];
    expect(member).toMatchObject({ deleted: 1, content: '' });
    const mod = (await admin.client.get(`/api/topic/${t.slug}`)).body.posts[1];
    expect(mod.content).toContain('Soon to be deleted');
  });

  it('a guest reading writes nothing; views count after the flush, each visitor once however often they reload', async () => {
    const t = await postTopic(alice.client, cid);
    await forum.ctx.views.flush();
    const before = await writeSnapshot(forum.ctx);
    const guest = forum.client();
    for (let i = 0; i < 3; i++) expect((await guest.get(`/api/topic/${t.slug}`)).status).toBe(200);
    expect((await guest.get(`/topic/${t.slug}`)).status).toBe(200);
    expect(await writeSnapshot(forum.ctx)).toEqual(before);
    await forum.ctx.views.flush();
    const views = async () => (await forum.client().get(`/api/v3/topics/${t.tid}`)).body.response.viewcount as number;
    expect(await views()).toBe(1);
    // Two members: each counts once, reloads and the page data alike.
    for (let i = 0; i < 3; i++) {
      await bob.client.get(`/api/topic/${t.slug}`);
      await alice.client.get(`/topic/${t.slug}`);
    }
    await forum.ctx.views.flush();
    expect(await views()).toBe(3);
  });

  it("records a member's read, which the unread list uses", async () => {
    const t = await postTopic(alice.client, cid, { title: 'Unread tracking topic' });
    const unreadBefore = (await bob.client.get('/api/unread')).body;
    expect(unreadBefore.template.name).toBe('unread');
    const count = async () => {
      let all: number[] = [];
      for (let page = 1; ; page++) {
        const res = await bob.client.get(`/api/unread?page=${page}`);
        if (res.status !== 200) break;
        all = all.concat(res.body.topics.map((x: { tid: number }) => x.tid));
        if (page >= res.body.pagination.pageCount) break;
      }
      return all;
    };
    expect(await count()).toContain(t.tid);
    await bob.client.get(`/api/topic/${t.slug}`);
    expect(await count()).not.toContain(t.tid);
    await postReply(alice.client, t.tid, 'A new reply makes it unread');
    expect(await count()).toContain(t.tid);
    // Ignored topics leave the unread list.
    await bob.client.put(`/api/v3/topics/${t.tid}/ignore`);
    expect(await count()).not.toContain(t.tid);
    expect((await forum.client().get('/api/unread')).status).toBe(401);
  });
});

describe('list pages', () => {
  it('recent lists newest activity first with pagination and teasers', async () => {
    const f = await startTestForum();
    try {
      const c = await makeCategory(f.ctx, 'Lists');
      const u = await f.loginAs();
      await u.client.put(`/api/v3/users/${u.user.uid}/settings`, { settings: { topicsPerPage: 2 } });
      const a = await postTopic(u.client, c, { title: 'Topic A here' });
      const b = await postTopic(u.client, c, { title: 'Topic B here' });
      const d = await postTopic(u.client, c, { title: 'Topic C here' });
      const reply = await postReply(u.client, a.tid, 'Bump topic A to the top');
      const p1 = (await u.client.get('/api/recent')).body;
      expect(p1.template.name).toBe('recent');
      expect(p1.topics.map((x: { tid: number }) => x.tid)).toEqual([a.tid, d.tid]);
      expect(p1.topics[0].teaser.pid).toBe(reply.pid);
      expect(p1.pagination).toMatchObject({ currentPage: 1, pageCount: 2 });
      const p2 = (await u.client.get('/api/recent?page=2')).body;
      expect(p2.topics.map((x: { tid: number }) => x.tid)).toEqual([b.tid]);
      expect((await u.client.get('/api/recent?page=3')).status).toBe(404);

      const admin = await f.loginAs({ admin: true });
      await admin.client.put(`/api/v3/posts/${d.mainPid}/vote`, { delta: 1 });
      const top = (await f.client().get('/api/top')).body;
      expect(top.template.name).toBe('top');
      expect(top.topics[0].tid).toBe(d.tid);
      const popular = (await f.client().get('/api/popular?term=day')).body;
      expect(popular.template.name).toBe('popular');
      expect(popular.selectedTerm?.term).toBe('day');
      expect(popular.topics[0].tid).toBe(a.tid);

      // Pinned topics lead the category sort, not the recent list.
      await admin.client.put(`/api/v3/topics/${b.tid}/pin`);
      const inCat = await f.ctx.topics.list(await f.ctx.privileges.viewer(admin.user.uid), { cids: [c], sort: 'category', page: 1, perPage: 10 });
      expect(inCat.topics[0]!.tid).toBe(b.tid);
      expect(inCat.topics[0]!.pinned).toBe(1);
      const recent = (await f.client().get('/api/recent')).body;
      expect(recent.topics[0].tid).toBe(a.tid);

      // Deleted topics leave lists.
      await admin.client.del(`/api/v3/topics/${a.tid}/state`);
      expect((await f.client().get('/api/recent')).body.topics.map((x: { tid: number }) => x.tid)).not.toContain(a.tid);
    } finally {
      await f.close();
    }
  });

  it('tag pages list the tagged topics', async () => {
    const t = await postTopic(alice.client, cid, { tags: ['listed'] });
    const res = await forum.client().get('/api/tags/listed');
    expect(res.status).toBe(200);
    expect(res.body.template.name).toBe('tag');
    expect(res.body.topics.map((x: { tid: number }) => x.tid)).toEqual([t.tid]);
    const all = await forum.client().get('/api/tags');
    expect(all.body.tags.find((x: { value: string }) => x.value === 'listed').score).toBe(1);
  });
});
