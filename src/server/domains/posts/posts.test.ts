import { describe, expect, it } from 'vitest';
import { makeCategory, postReply, postTopic, userCounts } from '../topics/testing.js';
import { useForum } from '../../test/forum-kit.js';

const kit = useForum({ category: 'Posts', members: ['alice', 'bob', 'carol'] });

describe('GET /api/v3/posts/:pid and /raw', () => {
  it('answers the post and its markdown', async () => {
    const t = await postTopic(kit.alice.client, kit.cid, { content: 'Some *markdown* content' });
    const res = await kit.forum.client().get(`/api/v3/posts/${t.mainPid}`);
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({
      pid: t.mainPid,
      tid: t.tid,
      deleted: 0,
      deleterUid: 0,
      votes: 0,
      replies: 0,
      flagId: 0,
      attachments: [],
      sourceContent: null,
    });
    expect(res.body.response.content).toBe('<p>Some <em>markdown</em> content</p>\n');
    const raw = await kit.forum.client().get(`/api/v3/posts/${t.mainPid}/raw`);
    expect(raw.body.response).toEqual({ content: 'Some *markdown* content' });
    expect((await kit.forum.client().get('/api/v3/posts/999999')).status).toBe(404);
    expect((await kit.forum.client().get('/api/v3/posts/0')).status).toBe(400);
  });

  it('answers 404 to readers without the read privilege, as for a missing post (NodeBB)', async () => {
    const hidden = await makeCategory(kit.forum.ctx, 'Hidden');
    const t = await postTopic(kit.admin.client, hidden);
    await kit.forum.ctx.privileges.take(hidden, ['read', 'topics:read'], 'guests');
    const res = await kit.forum.client().get(`/api/v3/posts/${t.mainPid}`);
    expect(res.status).toBe(404);
    expect((await kit.forum.client().get(`/api/v3/topics/${t.tid}`)).status).toBe(404);
  });
});

describe('PUT /api/v3/posts/:pid (edit)', () => {
  it('edits, keeps previous versions, and changes the title and tags of a main post', async () => {
    const t = await postTopic(kit.alice.client, kit.cid, { title: 'Original title', content: 'Version one content', tags: ['first'] });
    const e1 = await kit.alice.client.put(`/api/v3/posts/${t.mainPid}`, { content: 'Version two content', title: 'Second title', tags: ['second', 'third'] });
    expect(e1.status).toBe(200);
    expect(e1.body.response.content).toContain('Version two');
    expect(e1.body.response.edited).toBeGreaterThan(0);
    expect(e1.body.response).toMatchObject({
      pid: t.mainPid,
      deleted: false,
      deleterUid: 0,
      isMainPost: true,
      user: { uid: kit.alice.user.uid, isLocal: true },
    });
    const topic = (await kit.forum.client().get(`/api/v3/topics/${t.tid}`)).body.response;
    expect(topic.titleRaw).toBe('Second title');
    expect(topic.slug).toBe(`${t.tid}/second-title`);
    expect(await kit.forum.ctx.tags.namesOf(t.tid)).toEqual(['second', 'third']);
    expect((await kit.forum.ctx.tags.get('first'))?.score).toBe(0);

    // A moderator edits too; the history lists every version, newest first.
    expect((await kit.admin.client.put(`/api/v3/posts/${t.mainPid}`, { content: 'Version three content' })).status).toBe(200);
    const diffs = await kit.alice.client.get(`/api/v3/posts/${t.mainPid}/diffs`);
    expect(diffs.status).toBe(200);
    const revs = diffs.body.response.revisions;
    // NodeBB lists each revision's time and editor (its content is GET …/diffs/{since}); a main post's carry the topic's title then. The versions are kept.
    expect(Object.keys(revs[0]).sort()).toEqual(['timestamp', 'title', 'uid', 'username']);
    const kept = await kit.forum.ctx.db
      .selectFrom('post_edits')
      .select(['content', 'title'])
      .where('pid', '=', t.mainPid)
      .orderBy('edited', 'desc')
      .orderBy('id', 'desc')
      .execute();
    expect(kept.map((r) => r.content)).toEqual(['Version two content', 'Version one content']);
    expect(kept.map((r) => r.title)).toEqual(['Second title', 'Original title']);
    expect(revs[0].uid).toBe(kit.admin.user.uid);
    expect(revs[2].uid).toBe(kit.alice.user.uid);
    expect(diffs.body.response.timestamps).toHaveLength(3);

    // Each version reads back through GET …/diffs/{since}, rendered, with its title.
    const ts = diffs.body.response.timestamps as string[];
    const first = await kit.alice.client.get(`/api/v3/posts/${t.mainPid}/diffs/${ts[2]}`);
    expect(first.status).toBe(200);
    expect(first.body.response.content).toBe('<p>Version one content</p>\n');
    expect(first.body.response.topic.titleRaw).toBe('Original title');
    const second = await kit.alice.client.get(`/api/v3/posts/${t.mainPid}/diffs/${ts[1]}`);
    expect(second.body.response.content).toContain('Version two content');
    const latest = await kit.alice.client.get(`/api/v3/posts/${t.mainPid}/diffs/${Date.now()}`);
    expect(latest.body.response.content).toContain('Version three content');
    expect((await kit.forum.client().get(`/api/v3/posts/${t.mainPid}/diffs/1e400`)).status).toBe(400);
  });

  it('ignores a title on a reply and refuses others, guests and bad content', async () => {
    const t = await postTopic(kit.alice.client, kit.cid, { title: 'Kept title' });
    const r = await postReply(kit.bob.client, t.tid);
    expect((await kit.bob.client.put(`/api/v3/posts/${r.pid}`, { content: 'Edited reply content', title: 'Nope title' })).status).toBe(200);
    expect((await kit.forum.client().get(`/api/v3/topics/${t.tid}`)).body.response.titleRaw).toBe('Kept title');
    expect((await kit.alice.client.put(`/api/v3/posts/${r.pid}`, { content: 'Not my post to edit' })).status).toBe(403);
    expect((await kit.forum.client().put(`/api/v3/posts/${r.pid}`, { content: 'Guest edit attempt' })).status).toBe(401);
    const short = await kit.bob.client.put(`/api/v3/posts/${r.pid}`, { content: 'x' });
    expect(short.status).toBe(400);
    expect(short.body.status.key).toBe('error:content-too-short');
    const title = await kit.alice.client.put(`/api/v3/posts/${t.mainPid}`, { content: 'Long enough content', title: 'no' });
    expect(title.body.status.key).toBe('error:title-too-short');
    expect((await kit.bob.client.put('/api/v3/posts/999999', { content: 'Long enough content' })).status).toBe(404);
  });

  it('fires filter:post.edit, which may change the content', async () => {
    kit.forum.ctx.hooks.filter('filter:post.edit', 'test', (d) => ({ ...d, content: d.content.replace('secret', 'public') }));
    const t = await postTopic(kit.alice.client, kit.cid);
    await kit.alice.client.put(`/api/v3/posts/${t.mainPid}`, { content: 'This is secret content' });
    kit.forum.ctx.hooks.unregisterPlugin('test');
    expect((await kit.forum.client().get(`/api/v3/posts/${t.mainPid}/raw`)).body.response.content).toBe('This is public content');
  });
});

describe('votes and reputation', () => {
  it('moves counts and reputation, refuses self-votes, and changes votes', async () => {
    const t = await postTopic(kit.alice.client, kit.cid);
    const rep0 = (await userCounts(kit.forum.ctx, kit.alice.user.uid)).reputation;
    const self = await kit.alice.client.put(`/api/v3/posts/${t.mainPid}/vote`, { delta: 1 });
    expect(self.status).toBe(400);
    expect(self.body.status.key).toBe('error:self-vote');

    expect((await kit.bob.client.put(`/api/v3/posts/${t.mainPid}/vote`, { delta: 1 })).status).toBe(200);
    expect((await kit.carol.client.put(`/api/v3/posts/${t.mainPid}/vote`, { delta: 1 })).status).toBe(200);
    let post = (await kit.bob.client.get(`/api/v3/posts/${t.mainPid}`)).body.response;
    expect(post).toMatchObject({ upvotes: 2, downvotes: 0, votes: 2, upvoted: true, downvoted: false });
    expect((await userCounts(kit.forum.ctx, kit.alice.user.uid)).reputation - rep0).toBe(2);
    expect((await kit.forum.client().get(`/api/v3/topics/${t.tid}`)).body.response.votes).toBe(2);

    // Voting the same way twice changes nothing; switching moves both counters.
    await kit.bob.client.put(`/api/v3/posts/${t.mainPid}/vote`, { delta: 1 });
    expect((await kit.bob.client.put(`/api/v3/posts/${t.mainPid}/vote`, { delta: -1 })).status).toBe(200);
    post = (await kit.bob.client.get(`/api/v3/posts/${t.mainPid}`)).body.response;
    expect(post).toMatchObject({ upvotes: 1, downvotes: 1, votes: 0, upvoted: false, downvoted: true });
    expect((await userCounts(kit.forum.ctx, kit.alice.user.uid)).reputation - rep0).toBe(0);

    expect((await kit.bob.client.del(`/api/v3/posts/${t.mainPid}/vote`)).status).toBe(200);
    post = (await kit.bob.client.get(`/api/v3/posts/${t.mainPid}`)).body.response;
    expect(post).toMatchObject({ upvotes: 1, downvotes: 0, downvoted: false });
    expect((await userCounts(kit.forum.ctx, kit.alice.user.uid)).reputation - rep0).toBe(1);
  });

  it('refuses guests, members without the privilege, and bad deltas', async () => {
    const t = await postTopic(kit.alice.client, kit.cid);
    expect((await kit.forum.client().put(`/api/v3/posts/${t.mainPid}/vote`, { delta: 1 })).status).toBe(401);
    const noDown = await makeCategory(kit.forum.ctx, 'No downvotes');
    const t2 = await postTopic(kit.alice.client, noDown);
    await kit.forum.ctx.privileges.take(noDown, ['posts:downvote'], 'registered-users');
    expect((await kit.bob.client.put(`/api/v3/posts/${t2.mainPid}/vote`, { delta: -1 })).status).toBe(403);
    expect((await kit.bob.client.put(`/api/v3/posts/${t2.mainPid}/vote`, { delta: 1 })).status).toBe(200);
    const bad = await kit.bob.client.put(`/api/v3/posts/${t.mainPid}/vote`, { delta: 'up' });
    expect(bad.status).toBe(400);
    expect(bad.body.status.key).toBe('error:invalid-data');
  });

  it('takes the reputation back when a voted post is purged', async () => {
    const t = await postTopic(kit.alice.client, kit.cid);
    const r = await postReply(kit.bob.client, t.tid);
    const rep0 = (await userCounts(kit.forum.ctx, kit.bob.user.uid)).reputation;
    await kit.alice.client.put(`/api/v3/posts/${r.pid}/vote`, { delta: 1 });
    await kit.carol.client.put(`/api/v3/posts/${r.pid}/vote`, { delta: 1 });
    expect((await userCounts(kit.forum.ctx, kit.bob.user.uid)).reputation - rep0).toBe(2);
    expect((await kit.admin.client.del(`/api/v3/posts/${r.pid}`)).status).toBe(200);
    expect((await userCounts(kit.forum.ctx, kit.bob.user.uid)).reputation - rep0).toBe(0);
  });
});

describe('bookmarks', () => {
  it('bookmarks once, counts, and unbookmarks', async () => {
    const t = await postTopic(kit.alice.client, kit.cid);
    expect((await kit.bob.client.put(`/api/v3/posts/${t.mainPid}/bookmark`)).status).toBe(200);
    const twice = await kit.bob.client.put(`/api/v3/posts/${t.mainPid}/bookmark`);
    expect(twice.status).toBe(400);
    expect(twice.body.status.key).toBe('error:already-bookmarked');
    let post = (await kit.bob.client.get(`/api/v3/posts/${t.mainPid}`)).body.response;
    expect(post).toMatchObject({ bookmarks: 1 });
    expect((await kit.bob.client.del(`/api/v3/posts/${t.mainPid}/bookmark`)).status).toBe(200);
    post = (await kit.bob.client.get(`/api/v3/posts/${t.mainPid}`)).body.response;
    expect(post).toMatchObject({ bookmarks: 0 });
    expect((await kit.bob.client.del(`/api/v3/posts/${t.mainPid}/bookmark`)).body.status.key).toBe('error:already-unbookmarked');
    expect((await kit.forum.client().put(`/api/v3/posts/${t.mainPid}/bookmark`)).status).toBe(401);
  });
});

describe('POST /api/v3/posts/preview', () => {
  it('renders through the parse filter for members only', async () => {
    const res = await kit.alice.client.post('/api/v3/posts/preview', { content: '**bold** <script>alert(1)</script>' });
    expect(res.status).toBe(200);
    expect(res.body.response.html).toContain('<strong>bold</strong>');
    expect(res.body.response.html).not.toContain('<script');
    expect((await kit.forum.client().post('/api/v3/posts/preview', { content: 'x' })).status).toBe(401);
  });
});

describe('diffs privilege', () => {
  it('needs posts:history', async () => {
    const noHistory = await makeCategory(kit.forum.ctx, 'No history');
    const t = await postTopic(kit.alice.client, noHistory);
    await kit.forum.ctx.privileges.take(noHistory, ['posts:history'], 'registered-users');
    expect((await kit.bob.client.get(`/api/v3/posts/${t.mainPid}/diffs`)).status).toBe(403);
    expect((await kit.bob.client.get(`/api/v3/posts/${t.mainPid}/diffs/0`)).status).toBe(403);
    expect((await kit.admin.client.get(`/api/v3/posts/${t.mainPid}/diffs`)).status).toBe(200);
  });
});

describe('recentByUser (profile page)', () => {
  it("lists a member's readable, undeleted posts with their topic and index", async () => {
    const author = await kit.forum.loginAs();
    const t = await postTopic(author.client, kit.cid, { title: 'Profile topic' });
    const r = await postReply(author.client, t.tid, 'Profile reply text here');
    const gone = await postReply(author.client, t.tid, 'This one gets deleted');
    await author.client.del(`/api/v3/posts/${gone.pid}/state`);
    const hidden = await makeCategory(kit.forum.ctx, 'Hidden from guests');
    await postTopic(author.client, hidden, { title: 'Secret topic' });
    await kit.forum.ctx.privileges.take(hidden, ['read', 'topics:read'], 'guests');
    const posts = await kit.forum.ctx.posts.recentByUser(await kit.forum.ctx.privileges.viewer(0), author.user.uid, 10);
    expect(posts.map((p) => p.pid)).toEqual([r.pid, t.mainPid]);
    expect(posts[0]).toMatchObject({ index: 1, topic: { tid: t.tid, title: 'Profile topic', slug: t.slug } });
    expect(posts[1]!.index).toBe(0);
  });
});
