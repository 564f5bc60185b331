import { describe, expect, it } from 'vitest';
import { categoryCounts, makeCategory, postReply, postTopic, userCounts } from './testing.js';
import { useForum } from '../../test/forum-kit.js';

const kit = useForum({ category: 'General', members: ['alice', 'bob'] });

describe('POST /api/v3/topics', () => {
  it('creates a topic with its main post, tags and counters', async () => {
    const before = await categoryCounts(kit.forum.ctx, kit.cid);
    const res = await kit.alice.client.post('/api/v3/topics', {
      cid: kit.cid,
      title: 'Hello <b>world</b> & [[error:no-topic]]',
      content: 'First **post** content',
      tags: ['Alpha', 'beta!', 'alpha'],
    });
    expect(res.status).toBe(200);
    expect(res.body.status.code).toBe('ok');
    const t = res.body.response;
    expect(t.tid).toBeGreaterThan(0);
    expect(t.titleRaw).toBe('Hello <b>world</b> & [[error:no-topic]]');
    expect(t.title).toBe('Hello &lt;b&gt;world&lt;/b&gt; &amp; &#91;&#91;error:no-topic&#93;&#93;');
    expect(t.slug).toBe(`${t.tid}/hello-bworldb-errorno-topic`);
    expect(t.mainPid).toBe(t.mainPost.pid);
    expect(t.mainPost.content).toContain('<strong>post</strong>');
    expect(t.postcount).toBe(1);
    expect(t.tags.map((x: { value: string }) => x.value)).toEqual(['alpha', 'beta']);
    expect(t.user.uid).toBe(kit.alice.user.uid);
    expect(t.category.cid).toBe(kit.cid);
    const after = await categoryCounts(kit.forum.ctx, kit.cid);
    expect(after.topic_count - before.topic_count).toBe(1);
    expect(after.post_count - before.post_count).toBe(1);
    const u = await userCounts(kit.forum.ctx, kit.alice.user.uid);
    expect(u.topiccount).toBeGreaterThanOrEqual(1);
    expect(u.postcount).toBeGreaterThanOrEqual(1);
  });

  it('reads a topic back with titleRaw', async () => {
    const t = await postTopic(kit.alice.client, kit.cid, { title: 'Read me back' });
    const res = await kit.forum.client().get(`/api/v3/topics/${t.tid}`);
    expect(res.status).toBe(200);
    expect(res.body.response.titleRaw).toBe('Read me back');
    expect(res.body.response.teaserPid).toBe(t.mainPid);
  });

  const bad: [string, Record<string, unknown>, string, unknown[]?][] = [
    ['a short title', { title: 'ab' }, 'error:title-too-short', [3]],
    ['a long title', { title: 'x'.repeat(256) }, 'error:title-too-long', [255]],
    ['short content', { content: 'short' }, 'error:content-too-short', [8]],
    ['long content', { content: 'y'.repeat(32768) }, 'error:content-too-long', [32767]],
    ['a short tag', { tags: ['ab'] }, 'error:tag-too-short', [3]],
    ['a long tag', { tags: ['abcdefghijklmnopq'] }, 'error:tag-too-long', [15]],
    ['too many tags', { tags: ['one', 'two', 'three', 'four', 'five', 'six'] }, 'error:too-many-tags', [5]],
    ['a missing cid', { cid: undefined }, 'error:invalid-data'],
    ['a non-numeric cid', { cid: 'abc' }, 'error:invalid-data'],
    ['a missing title', { title: undefined }, 'error:invalid-data'],
  ];
  it.each(bad)('refuses %s with its key', async (_name, over, key, params) => {
    const body = { cid: kit.cid, title: 'A good title', content: 'Good content here', ...over };
    const res = await kit.alice.client.post('/api/v3/topics', JSON.parse(JSON.stringify(body)));
    expect(res.status).toBe(400);
    expect(res.body.status.key).toBe(key);
    if (params) expect(res.body.status.params).toEqual(params);
  });

  it('needs at least minimumTagsPerTopic tags', async () => {
    await kit.forum.ctx.settings.set({ minimumTagsPerTopic: 1 });
    const res = await kit.alice.client.post('/api/v3/topics', { cid: kit.cid, title: 'A good title', content: 'Good content here' });
    await kit.forum.ctx.settings.set({ minimumTagsPerTopic: 0 });
    expect(res.status).toBe(400);
    expect(res.body.status.key).toBe('error:not-enough-tags');
  });

  it('refuses guests (401), missing categories (404) and a missing privilege (403)', async () => {
    const guest = kit.forum.client();
    expect((await guest.post('/api/v3/topics', { cid: kit.cid, title: 'Guest title', content: 'Guest content!!' })).status).toBe(401);
    const missing = await kit.alice.client.post('/api/v3/topics', { cid: 99999, title: 'A good title', content: 'Good content here' });
    expect(missing.status).toBe(404);
    expect(missing.body.status.key).toBe('error:no-category');
    const closed = await makeCategory(kit.forum.ctx, 'Closed');
    await kit.forum.ctx.privileges.take(closed, ['topics:create'], 'registered-users');
    const res = await kit.alice.client.post('/api/v3/topics', { cid: closed, title: 'A good title', content: 'Good content here' });
    expect(res.status).toBe(403);
    expect(res.body.status.key).toBe('error:no-privileges');
    await kit.forum.ctx.privileges.take(closed, ['topics:tag'], 'registered-users');
    const tagless = await kit.alice.client.post('/api/v3/topics', { cid: kit.cid, title: 'A good title', content: 'Good content here' });
    expect(tagless.status).toBe(200);
  });

  it('refuses a write without the CSRF token', async () => {
    const res = await kit.alice.client.post('/api/v3/topics', { cid: kit.cid, title: 'A good title', content: 'Good content here' }, { csrf: false });
    expect(res.status).toBe(403);
    expect(res.body.status.key).toBe('error:invalid-csrf');
  });

  it('404s an unknown topic and 400s a non-numeric tid', async () => {
    expect((await kit.forum.client().get('/api/v3/topics/99999')).status).toBe(404);
    expect((await kit.forum.client().get('/api/v3/topics/abc')).status).toBe(400);
  });
});

describe('replies and counters', () => {
  it('replies, counts, deletes, restores and purges with every counter right', async () => {
    const t = await postTopic(kit.alice.client, kit.cid);
    const c0 = await categoryCounts(kit.forum.ctx, kit.cid);
    const b0 = await userCounts(kit.forum.ctx, kit.bob.user.uid);
    const r1 = await postReply(kit.bob.client, t.tid, 'First reply, long enough');
    const r2 = await postReply(kit.bob.client, t.tid, 'Second reply, long enough', r1.pid);
    expect(r1.index).toBe(1);
    expect(r2.index).toBe(2);
    let topic = (await kit.forum.client().get(`/api/v3/topics/${t.tid}`)).body.response;
    expect(topic.postcount).toBe(3);
    expect(topic.teaserPid).toBe(r2.pid);
    expect((await categoryCounts(kit.forum.ctx, kit.cid)).post_count - c0.post_count).toBe(2);
    expect((await userCounts(kit.forum.ctx, kit.bob.user.uid)).postcount - b0.postcount).toBe(2);

    expect((await kit.bob.client.del(`/api/v3/posts/${r2.pid}/state`)).status).toBe(200);
    topic = (await kit.forum.client().get(`/api/v3/topics/${t.tid}`)).body.response;
    expect(topic.postcount).toBe(2);
    expect(topic.teaserPid).toBe(r1.pid);
    expect((await categoryCounts(kit.forum.ctx, kit.cid)).post_count - c0.post_count).toBe(1);
    expect((await userCounts(kit.forum.ctx, kit.bob.user.uid)).postcount - b0.postcount).toBe(1);
    const again = await kit.bob.client.del(`/api/v3/posts/${r2.pid}/state`);
    expect(again.status).toBe(400);
    expect(again.body.status.key).toBe('error:already-deleted');
    // A guest sees the deleted post without its content; its author's moderator sees it all.
    expect((await kit.forum.client().get(`/api/v3/posts/${r2.pid}`)).body.response.content).toBe('');
    expect((await kit.admin.client.get(`/api/v3/posts/${r2.pid}`)).body.response.content).toContain('Second reply');

    expect((await kit.bob.client.put(`/api/v3/posts/${r2.pid}/state`)).status).toBe(200);
    topic = (await kit.forum.client().get(`/api/v3/topics/${t.tid}`)).body.response;
    expect(topic.postcount).toBe(3);
    expect(topic.teaserPid).toBe(r2.pid);
    expect((await categoryCounts(kit.forum.ctx, kit.cid)).post_count - c0.post_count).toBe(2);

    // Purging needs the purge privilege: members lack it, admins hold it.
    expect((await kit.bob.client.del(`/api/v3/posts/${r2.pid}`)).status).toBe(403);
    expect((await kit.admin.client.del(`/api/v3/posts/${r2.pid}`)).status).toBe(200);
    expect((await kit.forum.client().get(`/api/v3/posts/${r2.pid}`)).status).toBe(404);
    topic = (await kit.forum.client().get(`/api/v3/topics/${t.tid}`)).body.response;
    expect(topic.postcount).toBe(2);
    expect((await categoryCounts(kit.forum.ctx, kit.cid)).post_count - c0.post_count).toBe(1);
    expect((await userCounts(kit.forum.ctx, kit.bob.user.uid)).postcount - b0.postcount).toBe(1);
  });

  it('refuses to delete or purge the main post', async () => {
    const t = await postTopic(kit.alice.client, kit.cid);
    const del = await kit.alice.client.del(`/api/v3/posts/${t.mainPid}/state`);
    expect(del.status).toBe(400);
    expect(del.body.status.key).toBe('error:cant-delete-main-post');
    const purge = await kit.admin.client.del(`/api/v3/posts/${t.mainPid}`);
    expect(purge.body.status.key).toBe('error:cant-purge-main-post');
  });

  it("refuses replies: bad content, bad toPid, unknown topic, guests, others' deletes", async () => {
    const t = await postTopic(kit.alice.client, kit.cid);
    const short = await kit.bob.client.post(`/api/v3/topics/${t.tid}`, { content: 'hi' });
    expect(short.status).toBe(400);
    expect(short.body.status.key).toBe('error:content-too-short');
    const badTo = await kit.bob.client.post(`/api/v3/topics/${t.tid}`, { content: 'A reply that is long enough', toPid: 999999 });
    expect(badTo.body.status.key).toBe('error:invalid-pid');
    expect((await kit.bob.client.post('/api/v3/topics/999999', { content: 'A reply that is long enough' })).status).toBe(404);
    expect((await kit.forum.client().post(`/api/v3/topics/${t.tid}`, { content: 'A reply that is long enough' })).status).toBe(401);
    const r = await postReply(kit.alice.client, t.tid);
    expect((await kit.bob.client.del(`/api/v3/posts/${r.pid}/state`)).status).toBe(403);
  });

  it('deletes, restores and purges topics with category and user counters', async () => {
    const t = await postTopic(kit.alice.client, kit.cid, { tags: ['countme'] });
    await postReply(kit.bob.client, t.tid);
    const c0 = await categoryCounts(kit.forum.ctx, kit.cid);
    const a0 = await userCounts(kit.forum.ctx, kit.alice.user.uid);
    const b0 = await userCounts(kit.forum.ctx, kit.bob.user.uid);
    expect((await kit.forum.ctx.tags.get('countme'))?.score).toBe(1);

    expect((await kit.bob.client.del(`/api/v3/topics/${t.tid}/state`)).status).toBe(403);
    expect((await kit.alice.client.del(`/api/v3/topics/${t.tid}/state`)).status).toBe(200);
    let c = await categoryCounts(kit.forum.ctx, kit.cid);
    expect(c0.topic_count - c.topic_count).toBe(1);
    expect(c0.post_count - c.post_count).toBe(2);
    expect(a0.topiccount - (await userCounts(kit.forum.ctx, kit.alice.user.uid)).topiccount).toBe(1);
    expect((await kit.forum.ctx.tags.get('countme'))?.score).toBe(0);
    // Deleted topics are hidden from those who may not see them.
    expect((await kit.forum.client().get(`/api/v3/topics/${t.tid}`)).status).toBe(404);
    expect((await kit.bob.client.post(`/api/v3/topics/${t.tid}`, { content: 'Reply to deleted topic' })).status).toBe(404);
    expect((await kit.admin.client.get(`/api/v3/topics/${t.tid}`)).body.response.deleted).toBe(1);
    const twice = await kit.alice.client.del(`/api/v3/topics/${t.tid}/state`);
    expect(twice.body.status.key).toBe('error:topic-already-deleted');

    expect((await kit.alice.client.put(`/api/v3/topics/${t.tid}/state`)).status).toBe(200);
    c = await categoryCounts(kit.forum.ctx, kit.cid);
    expect(c).toEqual(c0);
    expect((await kit.forum.ctx.tags.get('countme'))?.score).toBe(1);

    expect((await kit.alice.client.del(`/api/v3/topics/${t.tid}`)).status).toBe(403);
    expect((await kit.admin.client.del(`/api/v3/topics/${t.tid}`)).status).toBe(200);
    expect((await kit.forum.client().get(`/api/v3/topics/${t.tid}`)).status).toBe(404);
    c = await categoryCounts(kit.forum.ctx, kit.cid);
    expect(c0.topic_count - c.topic_count).toBe(1);
    expect(c0.post_count - c.post_count).toBe(2);
    expect(a0.postcount - (await userCounts(kit.forum.ctx, kit.alice.user.uid)).postcount).toBe(1);
    expect(b0.postcount - (await userCounts(kit.forum.ctx, kit.bob.user.uid)).postcount).toBe(1);
    expect((await kit.forum.ctx.tags.get('countme'))?.score).toBe(0);
  });
});

describe('the teaser under concurrent replies', () => {
  it('stays on the newest reply when an older one commits last', async () => {
    const t = await postTopic(kit.alice.client, kit.cid);
    const newer = await postReply(kit.bob.client, t.tid, 'The newer reply, committed first');
    const row = (await kit.forum.ctx.topics.get(t.tid))!;
    // An older reply (its time taken before the newer one's) reaching the database last.
    const older = await kit.forum.ctx.db
      .insertInto('posts')
      .values({ tid: t.tid, uid: kit.bob.user.uid, to_pid: 0, content: 'older', content_html: '<p>older</p>', created: Number(row.last_post_time) - 5, ip: '' })
      .returning('pid')
      .executeTakeFirstOrThrow();
    const after = await kit.forum.ctx.actions.run('test.reply', (w) => kit.forum.ctx.topics.recordReply(w, t.tid, older.pid, Number(row.last_post_time) - 5));
    expect(after!.post_count).toBe(row.post_count + 1);
    expect(after!.teaser_pid).toBe(newer.pid);
    expect(Number(after!.last_post_time)).toBe(Number(row.last_post_time));
  });

  it('counts every one of many simultaneous replies and ends on the newest', async () => {
    const t = await postTopic(kit.alice.client, kit.cid);
    const viewer = await kit.forum.ctx.privileges.viewer(kit.admin.user.uid);
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) => kit.forum.ctx.posts.reply(viewer, t.tid, { content: `Simultaneous reply number ${i}` })),
    );
    const topic = (await kit.forum.client().get(`/api/v3/topics/${t.tid}`)).body.response;
    expect(topic.postcount).toBe(9);
    const newest = replies.map((r) => r.post).sort((a, b) => Number(b.created) - Number(a.created) || b.pid - a.pid)[0]!;
    expect(topic.teaserPid).toBe(newest.pid);
  });
});

describe('hooks', () => {
  it('runs filter:topic.create before saving (it may refuse) and fires action:topic.save after commit', async () => {
    const { badRequest } = await import('../../http/errors.js');
    kit.forum.ctx.hooks.filter('filter:topic.create', 'test', (d) => {
      if (d.title.includes('spam')) throw badRequest('error:invalid-data');
      return { ...d, content: `${d.content} (filtered)` };
    });
    let seenInDb: unknown = null;
    kit.forum.ctx.hooks.action('action:topic.save', 'test', async ({ topic }) => {
      // Another connection's view: the write is committed when the action runs.
      seenInDb = await kit.forum.ctx.db.selectFrom('topics').select('tid').where('tid', '=', topic.tid).executeTakeFirst();
    });
    const before = await kit.forum.ctx.db
      .selectFrom('topics')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    const refused = await kit.alice.client.post('/api/v3/topics', { cid: kit.cid, title: 'Buy spam now', content: 'Spam spam spam spam' });
    expect(refused.status).toBe(400);
    const after = await kit.forum.ctx.db
      .selectFrom('topics')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    expect(Number(after?.n)).toBe(Number(before?.n));
    const t = await postTopic(kit.alice.client, kit.cid, { content: 'Original content here' });
    await kit.forum.ctx.hooks.idle();
    kit.forum.ctx.hooks.unregisterPlugin('test');
    expect(seenInDb).toEqual({ tid: t.tid });
    expect((await kit.forum.client().get(`/api/v3/posts/${t.mainPid}/raw`)).body.response.content).toBe('Original content here (filtered)');
  });

  it('refuses a disabled category', async () => {
    const off = await makeCategory(kit.forum.ctx, 'Disabled');
    await kit.forum.ctx.db.updateTable('categories').set({ disabled: 1 }).where('cid', '=', off).execute();
    const res = await kit.alice.client.post('/api/v3/topics', { cid: off, title: 'A good title', content: 'Good content here' });
    expect(res.status).toBe(403);
    expect(res.body.status.key).toBe('error:category-disabled');
  });
});
