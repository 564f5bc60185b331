import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../../setup.js';
import { startTestForum, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import type { UserRow } from '../users/store.js';
import { makeCategory, postReply, postTopic } from '../topics/testing.js';

// NodeBB's GET /posts/{pid}/index|summary|replies, GET /categories/{cid}/posts|children,
// DELETE /categories/{cid}/watch/{member} and DELETE /categories/{cid}/privileges/{privilege}/{member}.
let forum: TestForum;
let cid: number;
let admin: { client: HttpClient; user: UserRow };
let alice: { client: HttpClient; user: UserRow };

beforeAll(async () => {
  forum = await startTestForum();
  cid = await makeCategory(forum.ctx, 'Post reads');
  admin = await forum.loginAs({ admin: true });
  alice = await forum.loginAs();
});
afterAll(async () => {
  await forum.close();
});

describe('a post by its pid', () => {
  it('answers its index in the topic, its summary with topic and category, and its direct replies', async () => {
    const { tid, mainPid } = await postTopic(admin.client, cid, { title: 'Posts with replies' });
    const first = await postReply(alice.client, tid, 'The first reply, to the topic.');
    const answer = await postReply(admin.client, tid, 'An answer to the first reply.', first.pid);
    const second = await postReply(alice.client, tid, 'Another answer to the first reply.', first.pid);
    await postReply(admin.client, tid, 'A reply to the main post.', mainPid);

    expect((await alice.client.get(`/api/v3/posts/${second.pid}/index`)).body.response).toEqual({ index: 3 });
    expect((await alice.client.get(`/api/v3/posts/${mainPid}/index`)).body.response).toEqual({ index: 0 });

    const summary = (await alice.client.get(`/api/v3/posts/${answer.pid}/summary`)).body.response;
    expect(summary).toMatchObject({ pid: answer.pid, tid, content: expect.stringContaining('An answer to the first reply.'), topic: { tid, title: 'Posts with replies' }, category: { cid }, user: { uid: admin.user.uid } });

    const replies = (await alice.client.get(`/api/v3/posts/${first.pid}/replies`)).body.response.replies as { pid: number; index: number; user: { uid: number } }[];
    expect(replies.map((r) => [r.pid, r.index, r.user.uid])).toEqual([
      [answer.pid, 2, admin.user.uid],
      [second.pid, 3, alice.user.uid],
    ]);
    // A deleted reply leaves the list for those who may not see deleted posts.
    expect((await admin.client.del(`/api/v3/posts/${answer.pid}/state`)).status).toBe(200);
    const bob = await forum.loginAs();
    expect(((await bob.client.get(`/api/v3/posts/${first.pid}/replies`)).body.response.replies as { pid: number }[]).map((r) => r.pid)).toEqual([second.pid]);
    expect(((await admin.client.get(`/api/v3/posts/${first.pid}/replies`)).body.response.replies as { pid: number }[]).map((r) => r.pid)).toEqual([answer.pid, second.pid]);
  });

  it('answers 404 for a missing post and for one in a category the reader may not read', async () => {
    expect((await alice.client.get('/api/v3/posts/999999/index')).status).toBe(404);
    const hidden = await makeCategory(forum.ctx, 'Hidden post reads');
    const { mainPid } = await postTopic(admin.client, hidden);
    await forum.ctx.categories.rescind(SYSTEM, hidden, 'groups:topics:read', 'registered-users');
    for (const part of ['index', 'summary', 'replies']) expect((await alice.client.get(`/api/v3/posts/${mainPid}/${part}`)).status, part).toBeGreaterThanOrEqual(403);
  });
});

describe('a category by its cid', () => {
  it('answers its newest visible posts, newest first', async () => {
    const own = await makeCategory(forum.ctx, 'Category posts');
    const { tid, mainPid } = await postTopic(admin.client, own);
    const reply = await postReply(alice.client, tid, 'The newest post of the category.');
    const posts = (await forum.client().get(`/api/v3/categories/${own}/posts`)).body.response.posts as { pid: number; topic: { tid: number } }[];
    expect(posts.map((p) => p.pid)).toEqual([reply.pid, mainPid]);
    expect(posts[0]!.topic.tid).toBe(tid);
    expect((await forum.client().get('/api/v3/categories/999999/posts')).status).toBe(404);
  });

  it('answers its children the reader may read, in order', async () => {
    const parent = await makeCategory(forum.ctx, 'Parent of children');
    const a = (await forum.ctx.categories.create(SYSTEM, { name: 'Child A', parentCid: parent })).cid;
    const b = (await forum.ctx.categories.create(SYSTEM, { name: 'Child B', parentCid: parent })).cid;
    await forum.ctx.categories.create(SYSTEM, { name: 'Grandchild', parentCid: a });
    const res = await forum.client().get(`/api/v3/categories/${parent}/children`);
    expect(res.status).toBe(200);
    expect((res.body.response.categories as { cid: number; name: string }[]).map((c) => c.name)).toEqual(['Child A', 'Child B']);
    await forum.ctx.categories.rescind(SYSTEM, b, 'groups:read', 'guests');
    expect(((await forum.client().get(`/api/v3/categories/${parent}/children`)).body.response.categories as { cid: number }[]).map((c) => c.cid)).toEqual([a]);
  });

  it("resets a member's watch state named in the path (admins for others)", async () => {
    const own = await makeCategory(forum.ctx, 'Watch by path');
    await alice.client.put(`/api/v3/categories/${own}/watch`, { state: 'ignoring' });
    expect((await forum.ctx.categories.watchStates(alice.user.uid, [own])).get(own)).toBe('ignoring');
    const other = await forum.loginAs();
    expect((await other.client.del(`/api/v3/categories/${own}/watch/${alice.user.uid}`)).status).toBe(403);
    const res = await admin.client.del(`/api/v3/categories/${own}/watch/${alice.user.uid}`);
    expect(res.status).toBe(200);
    expect(res.body.response.modified).toEqual([String(own)]);
    expect((await forum.ctx.categories.watchStates(alice.user.uid, [own])).get(own)).not.toBe('ignoring');
  });

  it('rescinds a privilege from the group named in the path (admins only)', async () => {
    const own = await makeCategory(forum.ctx, 'Privilege by path');
    expect((await alice.client.del(`/api/v3/categories/${own}/privileges/groups:read/guests`)).status).toBe(403);
    const res = await admin.client.del(`/api/v3/categories/${own}/privileges/groups:read/guests`);
    expect(res.status).toBe(200);
    expect(res.body.response.groups.find((g: { name: string }) => g.name === 'guests').privileges['groups:read']).toBe(false);
    expect((await forum.client().get(`/api/v3/categories/${own}`)).status).toBe(404);
  });
});

describe('GET /api/categories/{cid}/moderators', () => {
  it('lists the members holding moderate in the category, given to them or to their group', async () => {
    const own = await makeCategory(forum.ctx, 'Moderated by some');
    expect((await forum.client().get(`/api/categories/${own}/moderators`)).body).toEqual({ moderators: [] });
    expect((await admin.client.put(`/api/v3/categories/${own}/moderator/${alice.user.uid}`)).status).toBe(200);
    const crew = await forum.loginAs();
    await admin.client.post('/api/v3/groups', { name: 'Moderating Crew' });
    await admin.client.put(`/api/v3/groups/moderating-crew/membership/${crew.user.uid}`);
    await forum.ctx.privileges.give(own, ['moderate'], 'Moderating Crew');
    const res = await forum.client().get(`/api/categories/${own}/moderators`);
    // The group's members: the crew member and its creator (who joins the group made).
    const members = await forum.ctx.groups.members('Moderating Crew');
    expect(members).toContain(crew.user.uid);
    expect(res.body.moderators).toEqual([...new Set([alice.user.uid, ...members])].sort((a, b) => a - b));
    expect((await forum.client().get('/api/categories/999999/moderators')).status).toBe(404);
  });
});
