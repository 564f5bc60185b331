import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from '../../test/http-client.js';
import { startTestForum, type TestForum } from '../../test/harness.js';

// Every /api/v3/categories route answers NodeBB's documented fields and types (issue 9), and
// nothing more: NodeBB's conformance rule refuses a field its schema does not list.
let forum: TestForum;
let admin: HttpClient;
let memberUid: number;
beforeAll(async () => {
  forum = await startTestForum({ settings: { topicsPerPage: 2, minimumTagsPerTopic: 0, maximumTagsPerTopic: 4 } });
  admin = (await forum.loginAs({ admin: true })).client;
  memberUid = (await forum.createUser()).uid;
});
afterAll(async () => {
  await forum?.close();
});

const CATEGORY_NUMBERS = ['cid', 'parentCid', 'topic_count', 'post_count', 'disabled', 'order', 'numRecentReplies', 'isSection', 'minTags', 'maxTags', 'postQueue', 'totalPostCount', 'totalTopicCount', 'subCategoriesPerPage'];
const CATEGORY_STRINGS = ['name', 'nickname', 'handle', 'description', 'descriptionParsed', 'icon', 'bgColor', 'color', 'slug', 'link', 'class', 'imageClass'];
const sorted = (keys: string[]) => [...keys].sort();

/** Asserts a CategoryObject: exactly NodeBB's fields, each of its documented type. */
function expectCategory(c: Record<string, unknown>, extra: string[] = []) {
  expect(sorted(Object.keys(c))).toEqual(sorted([...CATEGORY_NUMBERS, ...CATEGORY_STRINGS, ...extra]));
  for (const k of CATEGORY_NUMBERS) expect(typeof c[k], k).toBe('number');
  for (const k of CATEGORY_STRINGS) expect(typeof c[k], k).toBe('string');
  expect([0, 1]).toContain(c.disabled);
  expect(['auto', 'cover', 'contain']).toContain(c.imageClass);
}

let n = 0;
async function make(body: Record<string, unknown> = {}) {
  n += 1;
  const res = await admin.post('/api/v3/categories', { name: `Shape ${n}`, ...body });
  expect(res.status, res.text).toBe(200);
  return res.body.response as Record<string, unknown> & { cid: number };
}

describe('category objects', () => {
  it('POST and PUT answer the CategoryObject with tagWhitelist and unread-class', async () => {
    const c = await make({ description: 'Hello' });
    expectCategory(c, ['tagWhitelist', 'unread-class']);
    expect(c).toMatchObject({ disabled: 0, nickname: `Shape ${n}`, minTags: 0, maxTags: 4, tagWhitelist: [], 'unread-class': '' });
    const put = await admin.put(`/api/v3/categories/${c.cid}`, { disabled: 1 });
    expect(put.status, put.text).toBe(200);
    expectCategory(put.body.response, ['tagWhitelist', 'unread-class']);
    expect(put.body.response.disabled).toBe(1);
  });

  it('GET one and GET the list answer CategoryObjects with 0/1 disabled', async () => {
    const parent = await make();
    const child = await make({ parentCid: parent.cid, disabled: true });
    const one = await admin.get(`/api/v3/categories/${child.cid}`);
    expectCategory(one.body.response);
    expect(one.body.response).toMatchObject({ disabled: 1, parentCid: parent.cid, totalTopicCount: 0 });
    const list = await admin.get('/api/v3/categories');
    expect(Object.keys(list.body.response)).toEqual(['categories']);
    for (const c of list.body.response.categories) expectCategory(c);
    expect(list.body.response.categories.find((c: { cid: number }) => c.cid === child.cid).disabled).toBe(1);
  });

  it('count answers only the count', async () => {
    const c = await make();
    expect((await admin.get(`/api/v3/categories/${c.cid}/count`)).body.response).toEqual({ count: 0 });
  });
});

describe('GET /api/v3/categories/{cid}/topics', () => {
  it('answers topics, nextStart and privileges (no other fields) from the real topics domain', async () => {
    const c = await make();
    const author = await forum.ctx.privileges.viewer(memberUid);
    for (const i of [1, 2, 3]) await forum.ctx.topics.create(author, { cid: c.cid, title: `Shape topic ${i}`, content: `Shape content ${i}` });
    const first = await forum.client().get(`/api/v3/categories/${c.cid}/topics`);
    expect(first.status, first.text).toBe(200);
    expect(sorted(Object.keys(first.body.response))).toEqual(['nextStart', 'privileges', 'topics']);
    expect(first.body.response.topics).toHaveLength(2);
    expect(first.body.response.nextStart).toBe(2);
    expect(first.body.response.privileges['topics:read']).toBe(true);
    const second = await forum.client().get(`/api/v3/categories/${c.cid}/topics?page=2`);
    expect(second.body.response.topics.map((t: { title: string }) => t.title)).toEqual(['Shape topic 1']);
    expect(second.body.response.nextStart).toBe(3);
  });
});

describe('privilege tables', () => {
  const TABLE = ['columnCountGroupOther', 'columnCountUserOther', 'groups', 'keys', 'labelData', 'users'];
  const GROUP = ['isPrivate', 'isSystem', 'name', 'nameEscaped', 'privileges', 'types'];

  function expectTable(t: Record<string, any>) {
    expect(sorted(Object.keys(t))).toEqual(TABLE);
    expect(t.columnCountUserOther).toBe(0);
    expect(t.keys.users).toContain('moderate');
    expect(t.keys.groups).toContain('groups:moderate');
    expect(t.labelData.find((l: { label: string }) => l.label === '[[admin/manage/privileges:moderate]]')).toEqual({ label: '[[admin/manage/privileges:moderate]]', type: 'moderation' });
    for (const g of t.groups) expect(sorted(Object.keys(g))).toEqual(GROUP);
    const guests = t.groups.find((g: { name: string }) => g.name === 'guests');
    expect(guests).toMatchObject({ isSystem: true, isPrivate: false, nameEscaped: 'guests' });
    expect(guests.privileges['groups:read']).toBe(true);
    expect(guests.types['groups:moderate']).toBe('moderation');
  }

  it('GET lists members by name; PUT privilege answers banned as 0/1 with its readable date', async () => {
    const c = await make();
    const banned = await forum.createUser();
    expect((await admin.put(`/api/v3/users/${banned.uid}/ban`, { until: Date.UTC(2099, 0, 1) })).status).toBe(200);
    await admin.put(`/api/v3/categories/${c.cid}/privileges/posts:view_deleted`, { member: String(memberUid) });
    const put = await admin.put(`/api/v3/categories/${c.cid}/privileges/read`, { member: String(banned.uid) });
    expect(put.status, put.text).toBe(200);
    expectTable(put.body.response);
    const users = put.body.response.users as Record<string, unknown>[];
    for (const u of users) expect(sorted(Object.keys(u))).toEqual(sorted(['uid', 'username', 'displayname', 'picture', 'icon:text', 'icon:bgColor', 'banned', 'banned_until_readable', 'privileges']));
    expect(users.find((u) => u.uid === memberUid)).toMatchObject({ banned: 0, banned_until_readable: 'Not Banned' });
    expect(users.find((u) => u.uid === banned.uid)).toMatchObject({ banned: 1, banned_until_readable: '2099-01-01T00:00:00.000Z' });

    const get = await admin.get(`/api/v3/categories/${c.cid}/privileges`);
    expectTable(get.body.response);
    for (const u of get.body.response.users) expect(sorted(Object.keys(u))).toEqual(['isPrivate', 'isSystem', 'name', 'nameEscaped', 'privileges']);
    expect(get.body.response.users.map((u: { name: string }) => u.name)).toEqual(expect.arrayContaining([banned.username]));
  });

  it('PUT and DELETE moderator take no body and answer banned as a boolean with isLocal and types', async () => {
    const c = await make();
    const put = await admin.request('PUT', `/api/v3/categories/${c.cid}/moderator/${memberUid}`);
    expect(put.status, put.text).toBe(200);
    expectTable(put.body.response);
    const me = put.body.response.users.find((u: { uid: number }) => u.uid === memberUid);
    expect(sorted(Object.keys(me))).toEqual(
      sorted(['uid', 'isLocal', 'username', 'displayname', 'picture', 'icon:text', 'icon:bgColor', 'banned', 'banned_until', 'banned_until_readable', 'privileges', 'types']),
    );
    expect(me).toMatchObject({ isLocal: true, banned: false, banned_until: 0, banned_until_readable: 'Not Banned' });
    expect(me.privileges.moderate).toBe(true);
    expect(me.types.moderate).toBe('moderation');
    // A body sent anyway is ignored.
    expect((await admin.put(`/api/v3/categories/${c.cid}/moderator/${memberUid}`, { anything: 1 })).status).toBe(200);
    const del = await admin.request('DELETE', `/api/v3/categories/${c.cid}/moderator/${memberUid}`);
    expect(del.status, del.text).toBe(200);
    expect(del.body.response.users.find((u: { uid: number }) => u.uid === memberUid)?.privileges.moderate ?? false).toBe(false);
  });
});

describe('requests', () => {
  it('ignores unknown fields and answers a wrong type with 400 and a key', async () => {
    const c = await make({ cloneFromCid: 0, class: 'col-md-6', backgroundImage: '/x.png', whatever: true });
    expect(c).not.toHaveProperty('whatever');
    const wrong = await admin.put(`/api/v3/categories/${c.cid}`, { order: 'first' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.status.key).toBeTruthy();
    const wrongName = await admin.post('/api/v3/categories', { name: { nested: true } });
    expect(wrongName.status).toBe(400);
    expect(wrongName.body.status.key).toBeTruthy();
  });
});
