import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import type { UserRow } from '../users/store.js';
import { makeCategory, postReply, postTopic } from './testing.js';

let forum: TestForum;
let cid: number;
let alice: { client: HttpClient; user: UserRow };
let bob: { client: HttpClient; user: UserRow };
let mod: { client: HttpClient; user: UserRow };

beforeAll(async () => {
  forum = await startTestForum();
  cid = await makeCategory(forum.ctx, 'Moderated');
  alice = await forum.loginAs();
  bob = await forum.loginAs();
  mod = await forum.loginAs();
  await forum.ctx.privileges.give(cid, ['moderate'], `uid:${mod.user.uid}`);
});
afterAll(async () => {
  await forum.close();
});

describe('lock and pin', () => {
  it('lets moderators lock; locked topics refuse replies from non-moderators', async () => {
    const t = await postTopic(alice.client, cid);
    expect((await alice.client.put(`/api/v3/topics/${t.tid}/lock`)).status).toBe(403);
    expect((await forum.client().put(`/api/v3/topics/${t.tid}/lock`)).status).toBe(401);
    expect((await mod.client.put(`/api/v3/topics/${t.tid}/lock`)).status).toBe(200);
    expect((await forum.client().get(`/api/v3/topics/${t.tid}`)).body.response.locked).toBe(1);
    const refused = await bob.client.post(`/api/v3/topics/${t.tid}`, { content: 'Reply to a locked topic' });
    expect(refused.status).toBe(403);
    expect(refused.body.status.key).toBe('error:topic-locked');
    expect((await bob.client.get(`/api/topic/${t.slug}`)).body.privileges['topics:reply']).toBe(false);
    expect((await mod.client.post(`/api/v3/topics/${t.tid}`, { content: 'Moderator reply to locked' })).status).toBe(200);
    expect((await mod.client.del(`/api/v3/topics/${t.tid}/lock`)).status).toBe(200);
    expect((await bob.client.post(`/api/v3/topics/${t.tid}`, { content: 'Reply after unlocking' })).status).toBe(200);
    expect((await mod.client.put('/api/v3/topics/999999/lock')).status).toBe(404);
  });

  it('lets moderators pin and unpin', async () => {
    const t = await postTopic(alice.client, cid);
    expect((await bob.client.put(`/api/v3/topics/${t.tid}/pin`)).status).toBe(403);
    expect((await mod.client.put(`/api/v3/topics/${t.tid}/pin`)).status).toBe(200);
    expect((await forum.client().get(`/api/v3/topics/${t.tid}`)).body.response.pinned).toBe(1);
    expect((await mod.client.del(`/api/v3/topics/${t.tid}/pin`)).status).toBe(200);
    expect((await forum.client().get(`/api/v3/topics/${t.tid}`)).body.response.pinned).toBe(0);
  });

  it("lets a moderator delete and restore others' posts and topics; members cannot restore others'", async () => {
    const t = await postTopic(alice.client, cid);
    const r = await postReply(bob.client, t.tid);
    expect((await mod.client.del(`/api/v3/posts/${r.pid}/state`)).status).toBe(200);
    expect((await bob.client.put(`/api/v3/posts/${r.pid}/state`)).status).toBe(403);
    expect((await mod.client.put(`/api/v3/posts/${r.pid}/state`)).status).toBe(200);
    expect((await mod.client.del(`/api/v3/topics/${t.tid}/state`)).status).toBe(200);
    expect((await alice.client.put(`/api/v3/topics/${t.tid}/state`)).status).toBe(403);
    expect((await mod.client.put(`/api/v3/topics/${t.tid}/state`)).status).toBe(200);
    // Moderators do not get purge unless granted.
    expect((await mod.client.del(`/api/v3/topics/${t.tid}`)).status).toBe(403);
  });
});

describe('follow and ignore', () => {
  it('follows (automatically on create), unfollows, ignores', async () => {
    const t = await postTopic(alice.client, cid);
    expect((await alice.client.get(`/api/topic/${t.slug}`)).body.isFollowing).toBe(true);
    expect((await bob.client.put(`/api/v3/topics/${t.tid}/follow`)).status).toBe(200);
    expect((await bob.client.get(`/api/topic/${t.slug}`)).body).toMatchObject({ isFollowing: true, isIgnoring: false });
    expect((await bob.client.put(`/api/v3/topics/${t.tid}/ignore`)).status).toBe(200);
    expect((await bob.client.get(`/api/topic/${t.slug}`)).body).toMatchObject({ isFollowing: false, isIgnoring: true });
    expect((await bob.client.del(`/api/v3/topics/${t.tid}/ignore`)).status).toBe(200);
    expect((await bob.client.get(`/api/topic/${t.slug}`)).body).toMatchObject({ isFollowing: false, isIgnoring: false });
    expect((await forum.client().put(`/api/v3/topics/${t.tid}/follow`)).status).toBe(401);
    expect((await bob.client.put('/api/v3/topics/999999/follow')).status).toBe(404);
  });
});

describe('PUT/DELETE /api/v3/topics/:tid/tags', () => {
  it('replaces and removes tags with counts kept', async () => {
    const t = await postTopic(alice.client, cid, { tags: ['red', 'green'] });
    const put = await alice.client.put(`/api/v3/topics/${t.tid}/tags`, { tags: ['Green', 'blue'] });
    expect(put.status).toBe(200);
    expect(put.body.response.map((x: { value: string }) => x.value)).toEqual(['blue', 'green']);
    expect((await forum.ctx.tags.get('red'))?.score).toBe(0);
    expect((await forum.ctx.tags.get('blue'))?.score).toBe(1);
    expect((await bob.client.put(`/api/v3/topics/${t.tid}/tags`, { tags: ['stolen'] })).status).toBe(403);
    const bad = await alice.client.put(`/api/v3/topics/${t.tid}/tags`, { tags: ['x'] });
    expect(bad.status).toBe(400);
    expect(bad.body.status.key).toBe('error:tag-too-short');
    expect((await mod.client.put(`/api/v3/topics/${t.tid}/tags`, { tags: ['green', 'blue', 'modtag'] })).status).toBe(200);
    // NodeBB answers DELETE …/tags with an empty object; the tags left are on the topic.
    const one = await alice.client.del(`/api/v3/topics/${t.tid}/tags`, { tags: ['modtag'] });
    expect(one.body.response).toEqual({});
    expect(await forum.ctx.tags.namesOf(t.tid)).toEqual(['blue', 'green']);
    const all = await alice.client.del(`/api/v3/topics/${t.tid}/tags`);
    expect(all.status).toBe(200);
    expect(all.body.response).toEqual({});
    expect(await forum.ctx.tags.namesOf(t.tid)).toEqual([]);
    expect((await forum.ctx.tags.get('blue'))?.score).toBe(0);
  });
});

describe('purgeCategoryContent', () => {
  it('purges every topic of a category and takes back the counters', async () => {
    const doomed = await makeCategory(forum.ctx, 'Doomed');
    const a0 = (await forum.ctx.users.get(alice.user.uid))!;
    const b0 = (await forum.ctx.users.get(bob.user.uid))!;
    const t1 = await postTopic(alice.client, doomed, { tags: ['doomed'] });
    const t2 = await postTopic(bob.client, doomed);
    const r = await postReply(bob.client, t1.tid);
    await alice.client.put(`/api/v3/posts/${r.pid}/vote`, { delta: 1 });
    await forum.ctx.topics.purgeCategoryContent(doomed);
    for (const t of [t1, t2]) expect((await forum.client().get(`/api/v3/topics/${t.tid}`)).status).toBe(404);
    const a1 = (await forum.ctx.users.get(alice.user.uid))!;
    const b1 = (await forum.ctx.users.get(bob.user.uid))!;
    expect([a1.postcount, a1.topiccount, a1.reputation]).toEqual([a0.postcount, a0.topiccount, a0.reputation]);
    expect([b1.postcount, b1.topiccount, b1.reputation]).toEqual([b0.postcount, b0.topiccount, b0.reputation]);
    expect((await forum.ctx.tags.get('doomed'))?.score).toBe(0);
  });
});
