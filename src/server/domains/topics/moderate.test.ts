import { beforeAll, describe, expect, it } from 'vitest';
import { makeCategory, postReply, postTopic } from './testing.js';
import { useForum } from '../../test/forum-kit.js';

const kit = useForum({ category: 'Moderated', members: ['alice', 'bob', 'mod'] });
beforeAll(async () => {
  await kit.forum.ctx.privileges.give(kit.cid, ['moderate'], `uid:${kit.mod.user.uid}`);
});

describe('lock and pin', () => {
  it('lets moderators lock; locked topics refuse replies from non-moderators', async () => {
    const t = await postTopic(kit.alice.client, kit.cid);
    expect((await kit.alice.client.put(`/api/v3/topics/${t.tid}/lock`)).status).toBe(403);
    expect((await kit.forum.client().put(`/api/v3/topics/${t.tid}/lock`)).status).toBe(401);
    expect((await kit.mod.client.put(`/api/v3/topics/${t.tid}/lock`)).status).toBe(200);
    expect((await kit.forum.client().get(`/api/v3/topics/${t.tid}`)).body.response.locked).toBe(1);
    const refused = await kit.bob.client.post(`/api/v3/topics/${t.tid}`, { content: 'Reply to a locked topic' });
    expect(refused.status).toBe(403);
    expect(refused.body.status.key).toBe('error:topic-locked');
    expect((await kit.bob.client.get(`/api/topic/${t.slug}`)).body.privileges['topics:reply']).toBe(false);
    expect((await kit.mod.client.post(`/api/v3/topics/${t.tid}`, { content: 'Moderator reply to locked' })).status).toBe(200);
    expect((await kit.mod.client.del(`/api/v3/topics/${t.tid}/lock`)).status).toBe(200);
    expect((await kit.bob.client.post(`/api/v3/topics/${t.tid}`, { content: 'Reply after unlocking' })).status).toBe(200);
    expect((await kit.mod.client.put('/api/v3/topics/999999/lock')).status).toBe(404);
  });

  it('lets moderators pin and unpin', async () => {
    const t = await postTopic(kit.alice.client, kit.cid);
    expect((await kit.bob.client.put(`/api/v3/topics/${t.tid}/pin`)).status).toBe(403);
    expect((await kit.mod.client.put(`/api/v3/topics/${t.tid}/pin`)).status).toBe(200);
    expect((await kit.forum.client().get(`/api/v3/topics/${t.tid}`)).body.response.pinned).toBe(1);
    expect((await kit.mod.client.del(`/api/v3/topics/${t.tid}/pin`)).status).toBe(200);
    expect((await kit.forum.client().get(`/api/v3/topics/${t.tid}`)).body.response.pinned).toBe(0);
  });

  it("lets a moderator delete and restore others' posts and topics; members cannot restore others'", async () => {
    const t = await postTopic(kit.alice.client, kit.cid);
    const r = await postReply(kit.bob.client, t.tid);
    expect((await kit.mod.client.del(`/api/v3/posts/${r.pid}/state`)).status).toBe(200);
    expect((await kit.bob.client.put(`/api/v3/posts/${r.pid}/state`)).status).toBe(403);
    expect((await kit.mod.client.put(`/api/v3/posts/${r.pid}/state`)).status).toBe(200);
    expect((await kit.mod.client.del(`/api/v3/topics/${t.tid}/state`)).status).toBe(200);
    expect((await kit.alice.client.put(`/api/v3/topics/${t.tid}/state`)).status).toBe(403);
    expect((await kit.mod.client.put(`/api/v3/topics/${t.tid}/state`)).status).toBe(200);
    // Moderators do not get purge unless granted.
    expect((await kit.mod.client.del(`/api/v3/topics/${t.tid}`)).status).toBe(403);
  });
});

describe('follow and ignore', () => {
  it('follows (automatically on create), unfollows, ignores', async () => {
    const t = await postTopic(kit.alice.client, kit.cid);
    expect((await kit.alice.client.get(`/api/topic/${t.slug}`)).body.isFollowing).toBe(true);
    expect((await kit.bob.client.put(`/api/v3/topics/${t.tid}/follow`)).status).toBe(200);
    expect((await kit.bob.client.get(`/api/topic/${t.slug}`)).body).toMatchObject({ isFollowing: true, isIgnoring: false });
    expect((await kit.bob.client.put(`/api/v3/topics/${t.tid}/ignore`)).status).toBe(200);
    expect((await kit.bob.client.get(`/api/topic/${t.slug}`)).body).toMatchObject({ isFollowing: false, isIgnoring: true });
    expect((await kit.bob.client.del(`/api/v3/topics/${t.tid}/ignore`)).status).toBe(200);
    expect((await kit.bob.client.get(`/api/topic/${t.slug}`)).body).toMatchObject({ isFollowing: false, isIgnoring: false });
    expect((await kit.forum.client().put(`/api/v3/topics/${t.tid}/follow`)).status).toBe(401);
    expect((await kit.bob.client.put('/api/v3/topics/999999/follow')).status).toBe(404);
  });
});

describe('PUT/DELETE /api/v3/topics/:tid/tags', () => {
  it('replaces and removes tags with counts kept', async () => {
    const t = await postTopic(kit.alice.client, kit.cid, { tags: ['red', 'green'] });
    const put = await kit.alice.client.put(`/api/v3/topics/${t.tid}/tags`, { tags: ['Green', 'blue'] });
    expect(put.status).toBe(200);
    expect(put.body.response.map((x: { value: string }) => x.value)).toEqual(['blue', 'green']);
    expect((await kit.forum.ctx.tags.get('red'))?.score).toBe(0);
    expect((await kit.forum.ctx.tags.get('blue'))?.score).toBe(1);
    expect((await kit.bob.client.put(`/api/v3/topics/${t.tid}/tags`, { tags: ['stolen'] })).status).toBe(403);
    const bad = await kit.alice.client.put(`/api/v3/topics/${t.tid}/tags`, { tags: ['x'] });
    expect(bad.status).toBe(400);
    expect(bad.body.status.key).toBe('error:tag-too-short');
    expect((await kit.mod.client.put(`/api/v3/topics/${t.tid}/tags`, { tags: ['green', 'blue', 'modtag'] })).status).toBe(200);
    // NodeBB answers DELETE …/tags with an empty object; the tags left are on the topic.
    const one = await kit.alice.client.del(`/api/v3/topics/${t.tid}/tags`, { tags: ['modtag'] });
    expect(one.body.response).toEqual({});
    expect(await kit.forum.ctx.tags.namesOf(t.tid)).toEqual(['blue', 'green']);
    const all = await kit.alice.client.del(`/api/v3/topics/${t.tid}/tags`);
    expect(all.status).toBe(200);
    expect(all.body.response).toEqual({});
    expect(await kit.forum.ctx.tags.namesOf(t.tid)).toEqual([]);
    expect((await kit.forum.ctx.tags.get('blue'))?.score).toBe(0);
  });
});

describe('purgeCategoryContent', () => {
  it('purges every topic of a category and takes back the counters', async () => {
    const doomed = await makeCategory(kit.forum.ctx, 'Doomed');
    const a0 = (await kit.forum.ctx.users.get(kit.alice.user.uid))!;
    const b0 = (await kit.forum.ctx.users.get(kit.bob.user.uid))!;
    const t1 = await postTopic(kit.alice.client, doomed, { tags: ['doomed'] });
    const t2 = await postTopic(kit.bob.client, doomed);
    const r = await postReply(kit.bob.client, t1.tid);
    await kit.alice.client.put(`/api/v3/posts/${r.pid}/vote`, { delta: 1 });
    await kit.forum.ctx.topics.purgeCategoryContent(doomed);
    for (const t of [t1, t2]) expect((await kit.forum.client().get(`/api/v3/topics/${t.tid}`)).status).toBe(404);
    const a1 = (await kit.forum.ctx.users.get(kit.alice.user.uid))!;
    const b1 = (await kit.forum.ctx.users.get(kit.bob.user.uid))!;
    expect([a1.postcount, a1.topiccount, a1.reputation]).toEqual([a0.postcount, a0.topiccount, a0.reputation]);
    expect([b1.postcount, b1.topiccount, b1.reputation]).toEqual([b0.postcount, b0.topiccount, b0.reputation]);
    expect((await kit.forum.ctx.tags.get('doomed'))?.score).toBe(0);
  });
});
