import { describe, expect, it } from 'vitest';
import type { HttpClient } from '../../test/http-client.js';
import { postTopic } from './testing.js';
import { useForum } from '../../test/forum-kit.js';

// NodeBB's PUT|DELETE /topics/{tid}/read, PUT /topics/{tid}/bump and PATCH /topics/{tid}/tags.

/** Whether the topic shows unread to the member in its category's list. */
async function unread(m: { client: HttpClient }, tid: number): Promise<boolean | undefined> {
  const res = await m.client.get(`/api/category/${kit.cid}`);
  expect(res.status).toBe(200);
  return (res.body.topics as { tid: number; unread: boolean }[]).find((t) => t.tid === tid)?.unread;
}

const kit = useForum({ category: 'Reads', members: ['alice', 'bob'] });

describe('read marks of a topic', () => {
  it('marks a topic unread for the member alone, then read again', async () => {
    const { tid } = await postTopic(kit.admin.client, kit.cid, { title: 'Read me, then forget it' });
    expect(await unread(kit.alice, tid)).toBe(true);
    expect((await kit.alice.client.put(`/api/v3/topics/${tid}/read`)).status).toBe(200);
    expect((await kit.bob.client.put(`/api/v3/topics/${tid}/read`)).status).toBe(200);
    expect(await unread(kit.alice, tid)).toBe(false);
    const res = await kit.alice.client.del(`/api/v3/topics/${tid}/read`);
    expect(res.status).toBe(200);
    expect(res.body.response).toEqual({});
    expect(await unread(kit.alice, tid)).toBe(true);
    expect(await unread(kit.bob, tid)).toBe(false);
  });

  it('refuses a guest (401) and answers 404 for a missing topic', async () => {
    const { tid } = await postTopic(kit.admin.client, kit.cid);
    expect((await kit.forum.client().put(`/api/v3/topics/${tid}/read`)).status).toBe(401);
    expect((await kit.alice.client.put('/api/v3/topics/999999/read')).status).toBe(404);
  });

  it('bumps a topic unread for every member: moderators only', async () => {
    const { tid } = await postTopic(kit.admin.client, kit.cid, { title: 'Bumped for everyone' });
    for (const m of [kit.alice, kit.bob]) await m.client.put(`/api/v3/topics/${tid}/read`);
    expect((await kit.alice.client.put(`/api/v3/topics/${tid}/bump`)).status).toBe(403);
    expect(await unread(kit.bob, tid)).toBe(false);
    expect((await kit.admin.client.put(`/api/v3/topics/${tid}/bump`)).status).toBe(200);
    expect(await unread(kit.alice, tid)).toBe(true);
    expect(await unread(kit.bob, tid)).toBe(true);
  });
});

describe('PATCH /topics/{tid}/tags', () => {
  it('adds tags to those the topic has and answers them all', async () => {
    const { tid } = await postTopic(kit.admin.client, kit.cid, { tags: ['first'] });
    const res = await kit.admin.client.request('PATCH', `/api/v3/topics/${tid}/tags`, { tags: ['second', 'first'] });
    expect(res.status).toBe(200);
    expect((res.body.response as { value: string }[]).map((t) => t.value).sort()).toEqual(['first', 'second']);
    const page = await kit.admin.client.get(`/api/topic/${tid}`);
    expect((page.body.tags as { value: string }[]).map((t) => t.value).sort()).toEqual(['first', 'second']);
  });

  it('refuses a member who did not start the topic', async () => {
    const { tid } = await postTopic(kit.admin.client, kit.cid, { tags: ['kept'] });
    expect((await kit.alice.client.request('PATCH', `/api/v3/topics/${tid}/tags`, { tags: ['sneaky'] })).status).toBe(403);
    expect((await kit.admin.client.request('PATCH', `/api/v3/topics/${tid}/tags`, { tag: 'nope' })).status).toBe(400);
  });
});
