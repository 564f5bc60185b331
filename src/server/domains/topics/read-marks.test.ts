import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import type { UserRow } from '../users/store.js';
import { makeCategory, postTopic } from './testing.js';

// NodeBB's PUT|DELETE /topics/{tid}/read, PUT /topics/{tid}/bump and PATCH /topics/{tid}/tags.
let forum: TestForum;
let cid: number;
let admin: { client: HttpClient; user: UserRow };
let alice: { client: HttpClient; user: UserRow };
let bob: { client: HttpClient; user: UserRow };

/** Whether the topic shows unread to the member in its category's list. */
async function unread(m: { client: HttpClient }, tid: number): Promise<boolean | undefined> {
  const res = await m.client.get(`/api/category/${cid}`);
  expect(res.status).toBe(200);
  return (res.body.topics as { tid: number; unread: boolean }[]).find((t) => t.tid === tid)?.unread;
}

beforeAll(async () => {
  forum = await startTestForum();
  cid = await makeCategory(forum.ctx, 'Reads');
  admin = await forum.loginAs({ admin: true });
  alice = await forum.loginAs();
  bob = await forum.loginAs();
});
afterAll(async () => {
  await forum.close();
});

describe('read marks of a topic', () => {
  it('marks a topic unread for the member alone, then read again', async () => {
    const { tid } = await postTopic(admin.client, cid, { title: 'Read me, then forget it' });
    expect(await unread(alice, tid)).toBe(true);
    expect((await alice.client.put(`/api/v3/topics/${tid}/read`)).status).toBe(200);
    expect((await bob.client.put(`/api/v3/topics/${tid}/read`)).status).toBe(200);
    expect(await unread(alice, tid)).toBe(false);
    const res = await alice.client.del(`/api/v3/topics/${tid}/read`);
    expect(res.status).toBe(200);
    expect(res.body.response).toEqual({});
    expect(await unread(alice, tid)).toBe(true);
    expect(await unread(bob, tid)).toBe(false);
  });

  it('refuses a guest (401) and answers 404 for a missing topic', async () => {
    const { tid } = await postTopic(admin.client, cid);
    expect((await forum.client().put(`/api/v3/topics/${tid}/read`)).status).toBe(401);
    expect((await alice.client.put('/api/v3/topics/999999/read')).status).toBe(404);
  });

  it('bumps a topic unread for every member: moderators only', async () => {
    const { tid } = await postTopic(admin.client, cid, { title: 'Bumped for everyone' });
    for (const m of [alice, bob]) await m.client.put(`/api/v3/topics/${tid}/read`);
    expect((await alice.client.put(`/api/v3/topics/${tid}/bump`)).status).toBe(403);
    expect(await unread(bob, tid)).toBe(false);
    expect((await admin.client.put(`/api/v3/topics/${tid}/bump`)).status).toBe(200);
    expect(await unread(alice, tid)).toBe(true);
    expect(await unread(bob, tid)).toBe(true);
  });
});

describe('PATCH /topics/{tid}/tags', () => {
  it('adds tags to those the topic has and answers them all', async () => {
    const { tid } = await postTopic(admin.client, cid, { tags: ['first'] });
    const res = await admin.client.request('PATCH', `/api/v3/topics/${tid}/tags`, { tags: ['second', 'first'] });
    expect(res.status).toBe(200);
    expect((res.body.response as { value: string }[]).map((t) => t.value).sort()).toEqual(['first', 'second']);
    const page = await admin.client.get(`/api/topic/${tid}`);
    expect((page.body.tags as { value: string }[]).map((t) => t.value).sort()).toEqual(['first', 'second']);
  });

  it('refuses a member who did not start the topic', async () => {
    const { tid } = await postTopic(admin.client, cid, { tags: ['kept'] });
    expect((await alice.client.request('PATCH', `/api/v3/topics/${tid}/tags`, { tags: ['sneaky'] })).status).toBe(403);
    expect((await admin.client.request('PATCH', `/api/v3/topics/${tid}/tags`, { tag: 'nope' })).status).toBe(400);
  });
});
