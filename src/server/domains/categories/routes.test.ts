import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from '../../test/http-client.js';
import { fakeTopics } from '../../test/fake-topics.js';
import { startTestForum, type TestForum } from '../../test/harness.js';
import { SYSTEM } from '../../setup.js';

let forum: TestForum;
let admin: HttpClient;
let member: HttpClient;
let memberUid: number;
let fakes: ReturnType<typeof fakeTopics>;

beforeAll(async () => {
  forum = await startTestForum();
  fakes = fakeTopics(forum);
  admin = (await forum.loginAs({ admin: true })).client;
  const m = await forum.loginAs();
  member = m.client;
  memberUid = m.user.uid;
});
afterAll(async () => {
  await forum?.close();
});

let n = 0;
/** Creates a category through the API as the admin. */
async function make(body: Record<string, unknown> = {}) {
  n += 1;
  const res = await admin.post('/api/v3/categories', { name: `Category ${n}`, ...body });
  expect(res.status, res.text).toBe(200);
  return res.body.response as { cid: number; name: string; handle: string; slug: string; order: number; parentCid: number };
}

describe('POST /api/v3/categories', () => {
  it('creates a category with its derived fields, default privileges and the hook', async () => {
    const seen: number[] = [];
    forum.ctx.hooks.action('action:category.create', 'test', ({ category }) => void seen.push(category.cid));
    const res = await admin.post('/api/v3/categories', { name: '  Café Talk  ', description: 'Hello **world**', icon: 'bullhorn', bgColor: '#AABBCC', color: '#fff' });
    expect(res.status).toBe(200);
    expect(res.body.status.code).toBe('ok');
    const c = res.body.response;
    expect(c).toMatchObject({ name: 'Café Talk', handle: 'café-talk', slug: `${c.cid}/café-talk`, icon: 'fa-bullhorn', bgColor: '#aabbcc', color: '#fff', parentCid: 0, disabled: 0 });
    expect(c.descriptionParsed).toContain('<strong>world</strong>');
    await forum.ctx.hooks.idle();
    expect(seen).toContain(c.cid);
    const grants = await forum.ctx.privileges.list(c.cid);
    expect(grants['topics:read']).toContain('guests');
    expect(grants['topics:create']).toContain('registered-users');
  });

  it('de-duplicates default handles and refuses a taken explicit one', async () => {
    const a = await make({ name: 'Same Name' });
    const b = await make({ name: 'Same Name' });
    const c = await make({ name: 'Same Name' });
    expect([a.handle, b.handle, c.handle]).toEqual(['same-name', 'same-name-2', 'same-name-3']);
    const taken = await admin.post('/api/v3/categories', { name: 'Other', handle: 'same-name-2' });
    expect(taken.status).toBe(400);
    expect(taken.body.status.key).toBe('error:category-handle-taken');
    expect((await make({ name: 'Other', handle: 'my-handle' })).handle).toBe('my-handle');
  });

  it('gives concurrent creates of one name distinct handles', async () => {
    const rows = await Promise.all([1, 2, 3, 4].map(() => forum.ctx.categories.create(SYSTEM, { name: 'Race Name' })));
    expect(rows.map((r) => r.handle).sort()).toEqual(['race-name', 'race-name-2', 'race-name-3', 'race-name-4']);
  });

  it('orders new categories after their siblings, or where asked', async () => {
    const parent = await make();
    const one = await make({ parentCid: parent.cid });
    const two = await make({ parentCid: parent.cid });
    const first = await make({ parentCid: parent.cid, order: 1 });
    const rows = await forum.ctx.db.selectFrom('categories').select(['cid', 'position']).where('parent_cid', '=', parent.cid).orderBy('position').execute();
    expect(rows.map((r) => r.cid)).toEqual([first.cid, one.cid, two.cid]);
    expect(rows.map((r) => r.position)).toEqual([1, 2, 3]);
  });

  const bad: [string, Record<string, unknown>, string][] = [
    ['no name', {}, 'error:category-name-empty'],
    ['blank name', { name: '   ' }, 'error:category-name-empty'],
    ['name over 255', { name: 'x'.repeat(256) }, 'error:category-name-too-long'],
    ['long description', { name: 'ok', description: 'd'.repeat(5001) }, 'error:category-description-too-long'],
    ['bad handle', { name: 'ok', handle: 'Not A Slug!' }, 'error:invalid-category-handle'],
    ['bad colour', { name: 'ok', bgColor: 'red;background:url(x)' }, 'error:invalid-category-color'],
    ['bad icon', { name: 'ok', icon: 'fa-x"><script>' }, 'error:invalid-category-icon'],
    ['script link', { name: 'ok', link: 'javascript:alert(1)' }, 'error:invalid-category-link'],
    ['missing parent', { name: 'ok', parentCid: 9999 }, 'error:no-parent-category'],
    ['order 0', { name: 'ok', order: 0 }, 'error:invalid-category-order'],
    ['non-numeric parent', { name: 'ok', parentCid: 'abc' }, 'error:invalid-data'],
  ];
  it.each(bad)('refuses %s with its key', async (_label, body, key) => {
    const res = await admin.post('/api/v3/categories', body);
    expect(res.status).toBe(400);
    expect(res.body.status.key).toBe(key);
  });

  it('accepts a 255-character name', async () => {
    expect((await make({ name: 'é'.repeat(255) })).name).toHaveLength(255);
  });

  it('refuses guests (401), members (403) and a missing CSRF token', async () => {
    expect((await forum.client().post('/api/v3/categories', { name: 'x' })).status).toBe(401);
    const m = await member.post('/api/v3/categories', { name: 'x' });
    expect(m.status).toBe(403);
    expect(m.body.status.key).toBe('error:no-privileges');
    const noCsrf = await admin.post('/api/v3/categories', { name: 'x' }, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.status.key).toBe('error:invalid-csrf');
  });
});

describe('GET /api/v3/categories and /:cid', () => {
  it('lists readable categories, parents before children; disabled ones only for admins', async () => {
    const parent = await make({ name: 'Listed parent' });
    const child = await make({ name: 'Listed child', parentCid: parent.cid });
    const off = await make({ name: 'Switched off', disabled: true });
    const guest = (await forum.client().get('/api/v3/categories')).body.response.categories as { cid: number; name: string; handle: string }[];
    const cids = guest.map((c) => c.cid);
    expect(cids.indexOf(parent.cid)).toBeLessThan(cids.indexOf(child.cid));
    expect(cids).not.toContain(off.cid);
    expect(guest[0]).toHaveProperty('handle');
    const all = (await admin.get('/api/v3/categories')).body.response.categories as { cid: number }[];
    expect(all.map((c) => c.cid)).toContain(off.cid);
  });

  it('?privilege=topics:create lists only where the viewer may start a topic (the composer\'s picker)', async () => {
    const open = await make({ name: 'Anyone posts' });
    const readOnly = await make({ name: 'Announcements only' });
    await forum.ctx.privileges.take(readOnly.cid, ['topics:create'], 'registered-users');
    const list = async (c: HttpClient, q = '') => ((await c.get(`/api/v3/categories${q}`)).body.response.categories as { cid: number }[]).map((x) => x.cid);
    // Both are readable; only one takes the member's topics.
    expect(await list(member)).toEqual(expect.arrayContaining([open.cid, readOnly.cid]));
    const postable = await list(member, '?privilege=topics:create');
    expect(postable).toContain(open.cid);
    expect(postable).not.toContain(readOnly.cid);
    // An admin may post anywhere; a guest nowhere.
    expect(await list(admin, '?privilege=topics:create')).toEqual(expect.arrayContaining([open.cid, readOnly.cid]));
    expect(await list(forum.client(), '?privilege=topics:create')).toEqual([]);
    expect((await member.get('/api/v3/categories?privilege=admin')).status).toBe(400);
    // And the create route agrees.
    expect((await member.post('/api/v3/topics', { cid: readOnly.cid, title: 'Not allowed here', content: 'The member may not start topics here.' })).status).toBe(403);
  });

  it('reads one category; missing, disabled and unknown are 404s, a bad id a 400', async () => {
    const c = await make({ description: 'About things' });
    const res = await forum.client().get(`/api/v3/categories/${c.cid}`);
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ cid: c.cid, name: c.name, description: 'About things', order: c.order });
    expect((await forum.client().get('/api/v3/categories/99999')).status).toBe(404);
    expect((await forum.client().get('/api/v3/categories/abc')).status).toBe(400);
    const off = await make({ disabled: true });
    expect((await forum.client().get(`/api/v3/categories/${off.cid}`)).status).toBe(404);
    expect((await admin.get(`/api/v3/categories/${off.cid}`)).status).toBe(200);
  });

  it('counts topics through bumpCounters', async () => {
    const c = await make();
    await forum.ctx.actions.run('test.counters', (w) => forum.ctx.categories.bumpCounters(w, c.cid, 2, 5));
    await forum.ctx.actions.run('test.counters', (w) => forum.ctx.categories.bumpCounters(w, c.cid, -1, -1));
    const res = await forum.client().get(`/api/v3/categories/${c.cid}/count`);
    expect(res.body.response).toEqual({ count: 1 });
    expect((await forum.client().get(`/api/v3/categories/${c.cid}`)).body.response).toMatchObject({ topic_count: 1, post_count: 4 });
    expect((await forum.client().get('/api/v3/categories/99999/count')).status).toBe(404);
  });
});

describe('GET /api/v3/categories/:cid/topics', () => {
  it('refuses page 0 and a non-number with 400', async () => {
    const c = await make();
    for (const page of ['0', '-1', 'two']) {
      const res = await forum.client().get(`/api/v3/categories/${c.cid}/topics?page=${page}`);
      expect(res.status, page).toBe(400);
      expect(res.body.status.key).toBe('error:invalid-page');
    }
  });
});

describe('PUT /api/v3/categories/:cid', () => {
  it('renames (new slug), re-handles and fires the hook', async () => {
    const c = await make();
    const seen: string[] = [];
    forum.ctx.hooks.action('action:category.update', 'test', ({ category }) => void seen.push(category.name));
    const res = await admin.put(`/api/v3/categories/${c.cid}`, { name: 'Renamed Place', handle: 'renamed', description: '_hi_' });
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ name: 'Renamed Place', slug: `${c.cid}/renamed-place`, handle: 'renamed' });
    expect(res.body.response.descriptionParsed).toContain('<em>hi</em>');
    await forum.ctx.hooks.idle();
    expect(seen).toContain('Renamed Place');
  });

  it('moves a category under another and renumbers both sibling lists', async () => {
    const a = await make();
    const b = await make();
    const x = await make({ parentCid: a.cid });
    const y = await make({ parentCid: a.cid });
    const z = await make({ parentCid: a.cid });
    const res = await admin.put(`/api/v3/categories/${x.cid}`, { parentCid: b.cid });
    expect(res.body.response).toMatchObject({ parentCid: b.cid, order: 1 });
    const under = async (cid: number) =>
      (await forum.ctx.db.selectFrom('categories').select(['cid', 'position']).where('parent_cid', '=', cid).orderBy('position').execute()).map((r) => [r.cid, r.position]);
    expect(await under(a.cid)).toEqual([
      [y.cid, 1],
      [z.cid, 2],
    ]);
    // Reordering: z goes first.
    expect((await admin.put(`/api/v3/categories/${z.cid}`, { order: 1 })).body.response.order).toBe(1);
    expect(await under(a.cid)).toEqual([
      [z.cid, 1],
      [y.cid, 2],
    ]);
  });

  it('refuses a cycle, a taken handle and bad fields', async () => {
    const a = await make();
    const b = await make({ parentCid: a.cid });
    const c = await make({ parentCid: b.cid });
    const cases: [number, Record<string, unknown>, string][] = [
      [a.cid, { parentCid: a.cid }, 'error:cant-set-self-as-parent'],
      [a.cid, { parentCid: c.cid }, 'error:cant-set-child-as-parent'],
      [a.cid, { parentCid: 99999 }, 'error:no-parent-category'],
      [a.cid, { handle: b.handle }, 'error:category-handle-taken'],
      [a.cid, { name: '' }, 'error:category-name-empty'],
      [a.cid, { name: 'y'.repeat(256) }, 'error:category-name-too-long'],
      [a.cid, { color: 'blue' }, 'error:invalid-category-color'],
    ];
    for (const [cid, body, key] of cases) {
      const res = await admin.put(`/api/v3/categories/${cid}`, body);
      expect(res.status, key).toBe(400);
      expect(res.body.status.key).toBe(key);
    }
  });

  it('refuses guests, members, unknown categories and a missing token', async () => {
    const c = await make();
    expect((await forum.client().put(`/api/v3/categories/${c.cid}`, { name: 'x' })).status).toBe(401);
    expect((await member.put(`/api/v3/categories/${c.cid}`, { name: 'x' })).status).toBe(403);
    expect((await admin.put('/api/v3/categories/99999', { name: 'x' })).status).toBe(404);
    expect((await admin.put(`/api/v3/categories/${c.cid}`, { name: 'x' }, { csrf: false })).status).toBe(403);
  });
});

describe('DELETE /api/v3/categories/:cid', () => {
  it('with topics: purge, purges content first, deletes, lifts children into its place, drops grants, fires the hook', async () => {
    const root = await make();
    const before = await make({ parentCid: root.cid });
    const doomed = await make({ parentCid: root.cid });
    const after = await make({ parentCid: root.cid });
    const kid = await make({ parentCid: doomed.cid });
    const deleted: number[] = [];
    forum.ctx.hooks.action('action:category.delete', 'test', ({ cid }) => void deleted.push(cid));
    const res = await admin.del(`/api/v3/categories/${doomed.cid}`, { topics: 'purge' });
    expect(res.status).toBe(200);
    expect(fakes.purged).toContain(doomed.cid);
    await forum.ctx.hooks.idle();
    expect(deleted).toEqual([doomed.cid]);
    expect(await forum.ctx.categories.get(doomed.cid)).toBeNull();
    expect(await forum.ctx.privileges.list(doomed.cid)).toEqual({});
    const rows = await forum.ctx.db.selectFrom('categories').select(['cid', 'position']).where('parent_cid', '=', root.cid).orderBy('position').execute();
    expect(rows.map((r) => r.cid)).toEqual([before.cid, kid.cid, after.cid]);
    expect(rows.map((r) => r.position)).toEqual([1, 2, 3]);
    expect((await admin.del(`/api/v3/categories/${doomed.cid}`)).status).toBe(404);
  });

  it('refuses guests and members', async () => {
    const c = await make();
    expect((await forum.client().del(`/api/v3/categories/${c.cid}`)).status).toBe(401);
    expect((await member.del(`/api/v3/categories/${c.cid}`)).status).toBe(403);
    expect(await forum.ctx.categories.get(c.cid)).not.toBeNull();
  });
});

describe('privileges and moderators', () => {
  it('rescinding and granting read makes a category unreadable and readable for guests', async () => {
    const c = await make();
    const guest = forum.client();
    expect((await guest.get(`/api/v3/categories/${c.cid}`)).status).toBe(200);
    for (const p of ['find', 'read']) {
      const res = await admin.del(`/api/v3/categories/${c.cid}/privileges/groups:${p}`, { member: 'guests' });
      expect(res.status).toBe(200);
      expect(res.body.response.groups.find((g: { name: string }) => g.name === 'guests').privileges[`groups:${p}`]).toBe(false);
    }
    const hidden = await guest.get(`/api/v3/categories/${c.cid}`);
    expect(hidden.status).toBe(404);
    expect(hidden.text).not.toContain(c.name);
    expect((await guest.get('/api/v3/categories')).body.response.categories.map((x: { cid: number }) => x.cid)).not.toContain(c.cid);
    expect(await forum.ctx.categories.readableCids({ uid: 0, groups: ['guests'], isAdmin: false, isGlobalMod: false }, 'read')).not.toContain(c.cid);
    // Findable but not readable: answered like a missing one, so it cannot be probed (NodeBB).
    await admin.put(`/api/v3/categories/${c.cid}/privileges/find`, { member: 'guests' });
    const denied = await guest.get(`/api/v3/categories/${c.cid}`);
    expect(denied.status).toBe(404);
    expect(denied.body.status.key).toBe('error:no-category');
    await admin.put(`/api/v3/categories/${c.cid}/privileges/read`, { member: 'guests' });
    expect((await guest.get(`/api/v3/categories/${c.cid}`)).status).toBe(200);
  });

  it('grants to a single member by uid and lists them', async () => {
    const c = await make();
    const res = await admin.put(`/api/v3/categories/${c.cid}/privileges/posts:view_deleted`, { member: String(memberUid) });
    expect(res.status).toBe(200);
    const user = res.body.response.users.find((u: { uid: number }) => u.uid === memberUid);
    expect(user.privileges['posts:view_deleted']).toBe(true);
    const get = await admin.get(`/api/v3/categories/${c.cid}/privileges`);
    expect(get.body.response.keys).toEqual({ users: expect.arrayContaining(['moderate']), groups: expect.arrayContaining(['groups:moderate']) });
    expect(get.body.response.groups.map((g: { name: string }) => g.name)).toEqual(expect.arrayContaining(['registered-users', 'guests']));
  });

  it('refuses unknown privileges, groups and members, and non-admins', async () => {
    const c = await make();
    const cases: [string, string, string][] = [
      ['fly', 'guests', 'error:invalid-privilege'],
      ['read', 'no such group', 'error:no-group'],
      ['read', '99999', 'error:no-user'],
    ];
    for (const [p, m, key] of cases) {
      const res = await admin.put(`/api/v3/categories/${c.cid}/privileges/${p}`, { member: m });
      expect(res.status, key).toBe(400);
      expect(res.body.status.key).toBe(key);
    }
    expect((await member.put(`/api/v3/categories/${c.cid}/privileges/read`, { member: 'guests' })).status).toBe(403);
    expect((await forum.client().put(`/api/v3/categories/${c.cid}/privileges/read`, { member: 'guests' })).status).toBe(401);
    expect((await member.get(`/api/v3/categories/${c.cid}/privileges`)).status).toBe(403);
    expect((await admin.get('/api/v3/categories/99999/privileges')).status).toBe(404);
  });

  it('makes a member a moderator of one category and takes it back', async () => {
    const c = await make();
    const other = await make();
    const viewer = await forum.ctx.privileges.viewer(memberUid);
    const res = await admin.put(`/api/v3/categories/${c.cid}/moderator/${memberUid}`);
    expect(res.status).toBe(200);
    expect(res.body.response.users.find((u: { uid: number }) => u.uid === memberUid).privileges.moderate).toBe(true);
    expect(await forum.ctx.privileges.isModerator(viewer, c.cid)).toBe(true);
    expect(await forum.ctx.privileges.isModerator(viewer, other.cid)).toBe(false);
    expect((await member.put(`/api/v3/categories/${c.cid}/moderator/${memberUid}`)).status).toBe(403);
    expect((await admin.del(`/api/v3/categories/${c.cid}/moderator/${memberUid}`)).status).toBe(200);
    expect(await forum.ctx.privileges.isModerator(viewer, c.cid)).toBe(false);
    expect((await admin.put(`/api/v3/categories/${c.cid}/moderator/99999`)).status).toBe(400);
  });
});

describe('OpenAPI', () => {
  it('documents every category route with its schemas', async () => {
    const doc = (await forum.client().get('/api/v3/openapi.json')).body as { paths: Record<string, Record<string, { responses?: object }>> };
    for (const path of ['/api/v3/categories', '/api/v3/categories/{cid}', '/api/v3/categories/{cid}/topics', '/api/v3/categories/{cid}/privileges/{privilege}', '/api/v3/categories/{cid}/moderator/{uid}']) {
      expect(doc.paths[path], path).toBeDefined();
      for (const op of Object.values(doc.paths[path]!)) expect(op.responses).toHaveProperty('200');
    }
  });
});

describe('service contract', () => {
  it('refs, count and create work for other domains', async () => {
    const before = await forum.ctx.categories.count();
    const row = await forum.ctx.categories.create(SYSTEM, { name: 'From setup' });
    expect(await forum.ctx.categories.count()).toBe(before + 1);
    const refs = await forum.ctx.categories.refs([row.cid, 99999]);
    // NodeBB's TopicObject `category`: no handle, image fields, disabled as 0/1.
    expect(refs.get(row.cid)).toEqual({
      cid: row.cid,
      name: 'From setup',
      slug: `${row.cid}/from-setup`,
      icon: 'fa-comments',
      backgroundImage: null,
      imageClass: 'cover',
      bgColor: row.bg_color,
      color: row.color,
      disabled: 0,
    });
    expect(refs.has(99999)).toBe(false);
  });
});
