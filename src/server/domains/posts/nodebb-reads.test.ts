import { describe, expect, it } from 'vitest';
import { SYSTEM } from '../../setup.js';
import { makeCategory, postReply, postTopic } from '../topics/testing.js';
import { useForum } from '../../test/forum-kit.js';

// NodeBB's GET /posts/{pid}/index|summary|replies, GET /categories/{cid}/posts|children,
// DELETE /categories/{cid}/watch/{member} and DELETE /categories/{cid}/privileges/{privilege}/{member}.

const kit = useForum({ category: 'Post reads', members: ['alice'] });

describe('a post by its pid', () => {
  it('answers its index in the topic, its summary with topic and category, and its direct replies', async () => {
    const { tid, mainPid } = await postTopic(kit.admin.client, kit.cid, { title: 'Posts with replies' });
    const first = await postReply(kit.alice.client, tid, 'The first reply, to the topic.');
    const answer = await postReply(kit.admin.client, tid, 'An answer to the first reply.', first.pid);
    const second = await postReply(kit.alice.client, tid, 'Another answer to the first reply.', first.pid);
    await postReply(kit.admin.client, tid, 'A reply to the main post.', mainPid);

    expect((await kit.alice.client.get(`/api/v3/posts/${second.pid}/index`)).body.response).toEqual({ index: 3 });
    expect((await kit.alice.client.get(`/api/v3/posts/${mainPid}/index`)).body.response).toEqual({ index: 0 });

    const summary = (await kit.alice.client.get(`/api/v3/posts/${answer.pid}/summary`)).body.response;
    expect(summary).toMatchObject({
      pid: answer.pid,
      tid,
      content: expect.stringContaining('An answer to the first reply.'),
      topic: { tid, title: 'Posts with replies' },
      category: { cid: kit.cid },
      user: { uid: kit.admin.user.uid },
    });

    const replies = (await kit.alice.client.get(`/api/v3/posts/${first.pid}/replies`)).body.response.replies as {
      pid: number;
      index: number;
      user: { uid: number };
    }[];
    expect(replies.map((r) => [r.pid, r.index, r.user.uid])).toEqual([
      [answer.pid, 2, kit.admin.user.uid],
      [second.pid, 3, kit.alice.user.uid],
    ]);
    // A deleted reply leaves the list for those who may not see deleted posts.
    expect((await kit.admin.client.del(`/api/v3/posts/${answer.pid}/state`)).status).toBe(200);
    const bob = await kit.forum.loginAs();
    expect(((await bob.client.get(`/api/v3/posts/${first.pid}/replies`)).body.response.replies as { pid: number }[]).map((r) => r.pid)).toEqual([second.pid]);
    expect(((await kit.admin.client.get(`/api/v3/posts/${first.pid}/replies`)).body.response.replies as { pid: number }[]).map((r) => r.pid)).toEqual([
      answer.pid,
      second.pid,
    ]);
  });

  it('answers 404 for a missing post and for one in a category the reader may not read', async () => {
    expect((await kit.alice.client.get('/api/v3/posts/999999/index')).status).toBe(404);
    const hidden = await makeCategory(kit.forum.ctx, 'Hidden post reads');
    const { mainPid } = await postTopic(kit.admin.client, hidden);
    await kit.forum.ctx.categories.rescind(SYSTEM, hidden, 'groups:topics:read', 'registered-users');
    for (const part of ['index', 'summary', 'replies'])
      expect((await kit.alice.client.get(`/api/v3/posts/${mainPid}/${part}`)).status, part).toBeGreaterThanOrEqual(403);
  });
});

describe('a category by its cid', () => {
  it('answers its newest visible posts, newest first', async () => {
    const own = await makeCategory(kit.forum.ctx, 'Category posts');
    const { tid, mainPid } = await postTopic(kit.admin.client, own);
    const reply = await postReply(kit.alice.client, tid, 'The newest post of the category.');
    const posts = (await kit.forum.client().get(`/api/v3/categories/${own}/posts`)).body.response.posts as { pid: number; topic: { tid: number } }[];
    expect(posts.map((p) => p.pid)).toEqual([reply.pid, mainPid]);
    expect(posts[0]!.topic.tid).toBe(tid);
    expect((await kit.forum.client().get('/api/v3/categories/999999/posts')).status).toBe(404);
  });

  it('answers its children the reader may read, in order', async () => {
    const parent = await makeCategory(kit.forum.ctx, 'Parent of children');
    const a = (await kit.forum.ctx.categories.create(SYSTEM, { name: 'Child A', parentCid: parent })).cid;
    const b = (await kit.forum.ctx.categories.create(SYSTEM, { name: 'Child B', parentCid: parent })).cid;
    await kit.forum.ctx.categories.create(SYSTEM, { name: 'Grandchild', parentCid: a });
    const res = await kit.forum.client().get(`/api/v3/categories/${parent}/children`);
    expect(res.status).toBe(200);
    expect((res.body.response.categories as { cid: number; name: string }[]).map((c) => c.name)).toEqual(['Child A', 'Child B']);
    await kit.forum.ctx.categories.rescind(SYSTEM, b, 'groups:read', 'guests');
    expect(((await kit.forum.client().get(`/api/v3/categories/${parent}/children`)).body.response.categories as { cid: number }[]).map((c) => c.cid)).toEqual([
      a,
    ]);
  });

  it("resets a member's watch state named in the path (admins for others)", async () => {
    const own = await makeCategory(kit.forum.ctx, 'Watch by path');
    await kit.alice.client.put(`/api/v3/categories/${own}/watch`, { state: 'ignoring' });
    expect((await kit.forum.ctx.categories.watchStates(kit.alice.user.uid, [own])).get(own)).toBe('ignoring');
    const other = await kit.forum.loginAs();
    expect((await other.client.del(`/api/v3/categories/${own}/watch/${kit.alice.user.uid}`)).status).toBe(403);
    const res = await kit.admin.client.del(`/api/v3/categories/${own}/watch/${kit.alice.user.uid}`);
    expect(res.status).toBe(200);
    expect(res.body.response.modified).toEqual([String(own)]);
    expect((await kit.forum.ctx.categories.watchStates(kit.alice.user.uid, [own])).get(own)).not.toBe('ignoring');
  });

  it('rescinds a privilege from the group named in the path (admins only)', async () => {
    const own = await makeCategory(kit.forum.ctx, 'Privilege by path');
    expect((await kit.alice.client.del(`/api/v3/categories/${own}/privileges/groups:read/guests`)).status).toBe(403);
    const res = await kit.admin.client.del(`/api/v3/categories/${own}/privileges/groups:read/guests`);
    expect(res.status).toBe(200);
    expect(res.body.response.groups.find((g: { name: string }) => g.name === 'guests').privileges['groups:read']).toBe(false);
    expect((await kit.forum.client().get(`/api/v3/categories/${own}`)).status).toBe(404);
  });
});

describe('GET /api/categories/{cid}/moderators', () => {
  it('lists the members holding moderate in the category, given to them or to their group', async () => {
    const own = await makeCategory(kit.forum.ctx, 'Moderated by some');
    expect((await kit.forum.client().get(`/api/categories/${own}/moderators`)).body).toEqual({ moderators: [] });
    expect((await kit.admin.client.put(`/api/v3/categories/${own}/moderator/${kit.alice.user.uid}`)).status).toBe(200);
    const crew = await kit.forum.loginAs();
    await kit.admin.client.post('/api/v3/groups', { name: 'Moderating Crew' });
    await kit.admin.client.put(`/api/v3/groups/moderating-crew/membership/${crew.user.uid}`);
    await kit.forum.ctx.privileges.give(own, ['moderate'], 'Moderating Crew');
    const res = await kit.forum.client().get(`/api/categories/${own}/moderators`);
    // The group's members: the crew member and its creator (who joins the group made).
    const members = await kit.forum.ctx.groups.members('Moderating Crew');
    expect(members).toContain(crew.user.uid);
    expect(res.body.moderators).toEqual([...new Set([kit.alice.user.uid, ...members])].sort((a, b) => a - b));
    expect((await kit.forum.client().get('/api/categories/999999/moderators')).status).toBe(404);
  });
});
