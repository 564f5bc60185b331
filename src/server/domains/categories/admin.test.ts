import { beforeAll, describe, expect, it } from 'vitest';
import type {
  AdminCategoriesPage,
  AdminCategoryAnalyticsPage,
  AdminCategoryFederationPage,
  AdminCategoryPage,
} from '../../../shared/schemas/admin-categories.js';
import type { CategoriesPage } from '../../../shared/types.js';
import { SYSTEM } from '../../setup.js';
import type { HttpClient } from '../../test/http-client.js';
import { useForum } from '../../test/forum-kit.js';

// The admin category pages and writes, with the real topics and posts domains behind them.
let member: HttpClient;
const kit = useForum();
beforeAll(async () => {
  member = (await kit.forum.loginAs()).client;
});

let n = 0;
const make = (data: { parentCid?: number; name?: string } = {}) => kit.forum.ctx.categories.create(SYSTEM, { name: data.name ?? `Adm Cat ${++n}`, ...data });

async function topicsIn(cid: number, count: number, replies = 0) {
  const author = await kit.forum.createUser();
  const viewer = await kit.forum.ctx.privileges.viewer(author.uid);
  const tids: number[] = [];
  for (let i = 0; i < count; i++) {
    const { topic } = (await kit.forum.ctx.topics.create(viewer, { cid, title: `Admin topic ${cid}-${i}`, content: `Admin content ${cid} ${i}` })) as {
      topic: { tid: number };
    };
    for (let j = 0; j < replies; j++) await kit.forum.ctx.posts.reply(viewer, topic.tid, { content: `Reply ${j} in ${topic.tid}` });
    tids.push(topic.tid);
  }
  return tids;
}

const counts = async (cid: number) => {
  const row = await kit.forum.ctx.categories.get(cid);
  return row && { topics: row.topic_count, posts: row.post_count };
};

describe('admin category pages', () => {
  it('serve the tree, one category, its analytics and federation placeholder to admins only', async () => {
    const parent = await make({ name: 'Adm Parent' });
    const child = await make({ name: 'Adm Child', parentCid: parent.cid });
    await kit.forum.ctx.categories.update(SYSTEM, child.cid, { tagWhitelist: ['alpha', 'beta'], disabled: true });

    const list = await kit.admin.client.get('/api/admin/manage/categories');
    expect(list.status).toBe(200);
    const tree = (list.body as AdminCategoriesPage).categoriesTree;
    const p = tree.findIndex((c) => c.cid === parent.cid);
    expect(tree[p + 1]).toMatchObject({ cid: child.cid, parentCid: parent.cid, level: 1, disabled: 1 });

    const edit = (await kit.admin.client.get(`/api/admin/manage/categories/${child.cid}`)).body as AdminCategoryPage;
    expect(edit.category).toMatchObject({ cid: child.cid, name: 'Adm Child', tagWhitelist: ['alpha', 'beta'], parentCid: parent.cid });
    expect(edit.category.parent?.cid).toBe(parent.cid);
    expect(edit.categories.some((c) => c.cid === parent.cid)).toBe(true);
    expect(edit.template.name).toBe('admin/manage/category');

    const fed = (await kit.admin.client.get(`/api/admin/manage/categories/${child.cid}/federation`)).body as AdminCategoryFederationPage;
    expect(fed).toMatchObject({ cid: child.cid, name: 'Adm Child', federationEnabled: false });

    for (const path of ['', `/${child.cid}`, `/${child.cid}/analytics`, `/${child.cid}/federation`]) {
      expect((await member.get(`/api/admin/manage/categories${path}`)).status, path).toBe(403);
      expect((await kit.forum.client().get(`/api/admin/manage/categories${path}`)).status, path).toBe(401);
    }
    expect((await kit.admin.client.get('/api/admin/manage/categories/999999')).status).toBe(404);
    expect((await kit.admin.client.get('/api/admin/manage/categories/abc/analytics')).status).toBe(404);
  });

  it('analytics count topics and posts per day from their timestamps, last 30 days', async () => {
    const cat = await make();
    await topicsIn(cat.cid, 2, 1);
    const tids = await topicsIn(cat.cid, 1);
    // One topic and its post 40 days old: outside the window.
    const old = Date.now() - 40 * 86_400_000;
    await kit.forum.ctx.db.updateTable('topics').set({ created: old }).where('tid', '=', tids[0]!).execute();
    await kit.forum.ctx.db.updateTable('posts').set({ created: old }).where('tid', '=', tids[0]!).execute();
    // And one 3 days old.
    const other = await topicsIn(cat.cid, 1);
    const threeDays = Date.now() - 3 * 86_400_000;
    await kit.forum.ctx.db.updateTable('topics').set({ created: threeDays }).where('tid', '=', other[0]!).execute();
    await kit.forum.ctx.db.updateTable('posts').set({ created: threeDays }).where('tid', '=', other[0]!).execute();

    const res = await kit.admin.client.get(`/api/admin/manage/categories/${cat.cid}/analytics`);
    expect(res.status).toBe(200);
    const { analytics } = res.body as AdminCategoryAnalyticsPage;
    expect(analytics['topics:daily']).toHaveLength(30);
    expect(analytics['topics:daily'].at(-1)).toBe(2);
    expect(analytics['posts:daily'].at(-1)).toBe(4);
    expect(analytics['topics:daily'].at(-4)).toBe(1);
    expect(analytics['posts:daily'].at(-4)).toBe(1);
    expect(analytics['topics:daily'].reduce((a, b) => a + b, 0)).toBe(3);
    await expect(kit.forum.ctx.categories.analytics(await kit.forum.ctx.privileges.viewer(0), cat.cid)).rejects.toMatchObject({ status: 401 });
  });
});

describe('reorder and re-parent', () => {
  it('one PUT per drop persists, and the public /categories page shows the new order', async () => {
    const a = await make({ name: 'Order A' });
    const b = await make({ name: 'Order B' });
    const c = await make({ name: 'Order C' });
    // Drop C before A at the top level: position of A.
    const top = (await kit.forum.ctx.db.selectFrom('categories').select(['cid', 'position']).where('cid', '=', a.cid).executeTakeFirstOrThrow()).position;
    expect((await kit.admin.client.put(`/api/v3/categories/${c.cid}`, { parentCid: 0, order: top })).status).toBe(200);
    // Drop B into A (re-parent).
    expect((await kit.admin.client.put(`/api/v3/categories/${b.cid}`, { parentCid: a.cid, order: 1 })).status).toBe(200);

    const page = (await kit.forum.client().get('/api/categories')).body as CategoriesPage;
    const cids = page.categories.map((x) => x.cid);
    expect(cids.indexOf(c.cid)).toBeLessThan(cids.indexOf(a.cid));
    expect(cids).not.toContain(b.cid);
    expect(page.categories.find((x) => x.cid === a.cid)!.children.map((x) => x.cid)).toEqual([b.cid]);
    // A category cannot go below its own child.
    const res = await kit.admin.client.put(`/api/v3/categories/${a.cid}`, { parentCid: b.cid });
    expect(res.status).toBe(400);
    expect(res.body.status.key).toBe('error:cant-set-child-as-parent');
    expect((await member.put(`/api/v3/categories/${c.cid}`, { order: 1 })).status).toBe(403);
  });
});

describe('DELETE /api/v3/categories/:cid with topics', () => {
  it('refuses without a choice (400), nothing lost', async () => {
    const cat = await make();
    await topicsIn(cat.cid, 1);
    const res = await kit.admin.client.del(`/api/v3/categories/${cat.cid}`);
    expect(res.status).toBe(400);
    expect(res.body.status.key).toBe('error:category-delete-has-topics');
    expect(await counts(cat.cid)).toEqual({ topics: 1, posts: 1 });
    const bad = await kit.admin.client.del(`/api/v3/categories/${cat.cid}`, { topics: 'move', moveTo: cat.cid });
    expect(bad.status).toBe(400);
    expect(bad.body.status.key).toBe('error:category-delete-move-target');
    expect((await kit.admin.client.del(`/api/v3/categories/${cat.cid}`, { topics: 'sideways' })).status).toBe(400);
    expect((await member.del(`/api/v3/categories/${cat.cid}`, { topics: 'purge' })).status).toBe(403);
    expect(await kit.forum.ctx.categories.get(cat.cid)).not.toBeNull();
  });

  it('moves every topic (deleted ones too) and fixes both counts', async () => {
    const from = await make();
    const to = await make();
    await topicsIn(to.cid, 1);
    const tids = await topicsIn(from.cid, 3, 2);
    const adminViewer = (await kit.forum.loginAs({ admin: true })).user;
    await kit.forum.ctx.topics.delete(await kit.forum.ctx.privileges.viewer(adminViewer.uid), tids[2]!);
    expect(await counts(from.cid)).toEqual({ topics: 2, posts: 6 });
    const res = await kit.admin.client.del(`/api/v3/categories/${from.cid}`, { topics: 'move', moveTo: to.cid });
    expect(res.status).toBe(200);
    expect(await kit.forum.ctx.categories.get(from.cid)).toBeNull();
    const moved = await kit.forum.ctx.db.selectFrom('topics').select('cid').where('tid', 'in', tids).execute();
    expect(moved.map((r) => r.cid)).toEqual([to.cid, to.cid, to.cid]);
    expect(await counts(to.cid)).toEqual({ topics: 3, posts: 7 });
    const listed = await kit.forum.client().get(`/api/v3/categories/${to.cid}/topics`);
    expect(listed.body.response.topics).toHaveLength(3);
  });

  it('purges the topics with the category', async () => {
    const cat = await make();
    const tids = await topicsIn(cat.cid, 2, 1);
    const res = await kit.admin.client.del(`/api/v3/categories/${cat.cid}`, { topics: 'purge' });
    expect(res.status).toBe(200);
    expect(await kit.forum.ctx.categories.get(cat.cid)).toBeNull();
    expect(await kit.forum.ctx.db.selectFrom('topics').select('tid').where('tid', 'in', tids).execute()).toEqual([]);
    expect(await kit.forum.ctx.db.selectFrom('posts').select('pid').where('tid', 'in', tids).execute()).toEqual([]);
  });
});

describe('POST /api/v3/admin/categories/:cid/copy-settings', () => {
  it("copies the other's look and rules, and with privileges its grants", async () => {
    const source = await make();
    const target = await make({ name: 'Copy Target' });
    await kit.forum.ctx.categories.update(SYSTEM, source.cid, {
      icon: 'fa-book',
      bgColor: '#123456',
      color: '#fedcba',
      tagWhitelist: ['one'],
      maxTags: 3,
      postQueue: false,
    });
    await kit.forum.ctx.privileges.take(source.cid, ['topics:create'], 'registered-users');
    expect((await kit.forum.ctx.privileges.list(target.cid))['topics:create']).toContain('registered-users');

    const res = await kit.admin.client.post(`/api/v3/admin/categories/${target.cid}/copy-settings`, { fromCid: source.cid, privileges: true });
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({
      cid: target.cid,
      name: 'Copy Target',
      icon: 'fa-book',
      bgColor: '#123456',
      color: '#fedcba',
      tagWhitelist: ['one'],
      postQueue: 0,
    });
    expect((await kit.forum.ctx.privileges.list(target.cid))['topics:create'] ?? []).not.toContain('registered-users');
    expect((await kit.forum.ctx.privileges.list(target.cid))['topics:read']).toEqual((await kit.forum.ctx.privileges.list(source.cid))['topics:read']);

    const same = await kit.admin.client.post(`/api/v3/admin/categories/${target.cid}/copy-settings`, { fromCid: target.cid });
    expect(same.status).toBe(400);
    expect(same.body.status.key).toBe('error:category-copy-same');
    expect((await member.post(`/api/v3/admin/categories/${target.cid}/copy-settings`, { fromCid: source.cid })).status).toBe(403);
    expect((await kit.forum.client().post(`/api/v3/admin/categories/${target.cid}/copy-settings`, { fromCid: source.cid })).status).toBe(401);
  });
});
