import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionHooks } from '../../hooks/types.js';
import { startTestForum, type TestForum } from '../../test/harness.js';
import { SYSTEM } from '../../setup.js';
import { makeCategory, postTopic } from '../topics/testing.js';

// Watching (issue 10 item 2): category watch states, tag and member follows, and /unread.
let forum: TestForum;

beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum.close();
});

const tidsOf = (res: { body: { topics: { tid: number }[] } }) => res.body.topics.map((t) => t.tid);

describe('PUT/DELETE /api/v3/categories/:cid/watch', () => {
  it('sets the state of the category and its children, shows it on the category page, and resets to the default', async () => {
    const cid = await makeCategory(forum.ctx, 'Watched parent');
    const child = (await forum.ctx.categories.create(SYSTEM, { name: 'Watched child', parentCid: cid })).cid;
    const { client } = await forum.loginAs();
    expect((await forum.client().get(`/api/category/${cid}`)).body).toMatchObject({ isWatched: false, isNotWatched: true });
    const before = await client.get(`/api/category/${cid}`);
    expect(before.body).toMatchObject({ isWatched: true, isTracked: false, isNotWatched: false, isIgnored: false });
    const put = await client.put(`/api/v3/categories/${cid}/watch`, { state: 'tracking' });
    expect(put.status).toBe(200);
    expect(put.body.response.modified.sort()).toEqual([String(cid), String(child)].sort());
    expect((await client.get(`/api/category/${child}`)).body).toMatchObject({ isWatched: false, isTracked: true });
    await client.put(`/api/v3/categories/${cid}/watch`, { state: 'ignoring' });
    expect((await client.get(`/api/category/${cid}`)).body.isIgnored).toBe(true);
    const del = await client.del(`/api/v3/categories/${cid}/watch`);
    expect(del.status).toBe(200);
    expect((await client.get(`/api/category/${cid}`)).body.isWatched).toBe(true);
  });

  it('refuses bad states (400), guests (401), unknown categories (404), and another member unless admin (403)', async () => {
    const cid = await makeCategory(forum.ctx);
    const { client } = await forum.loginAs();
    const other = await forum.createUser();
    const bad = await client.put(`/api/v3/categories/${cid}/watch`, { state: 'loudly' });
    expect(bad.status).toBe(400);
    expect(bad.body.status.key).toBe('error:invalid-data');
    expect((await forum.client().put(`/api/v3/categories/${cid}/watch`, { state: 'watching' })).status).toBe(401);
    const missing = await client.put('/api/v3/categories/999999/watch', { state: 'watching' });
    expect(missing.status).toBe(404);
    expect(missing.body.status.key).toBe('error:no-category');
    expect((await client.put(`/api/v3/categories/${cid}/watch`, { state: 'ignoring', uid: other.uid })).status).toBe(403);
    const { client: admin } = await forum.loginAs({ admin: true });
    expect((await admin.put(`/api/v3/categories/${cid}/watch`, { state: 'ignoring', uid: other.uid })).status).toBe(200);
    expect((await forum.ctx.categories.watchStates(other.uid, [cid])).get(cid)).toBe('ignoring');
  });
});

describe('/unread and /recent honour watch states', () => {
  it('not watched and ignored categories leave /unread (followed topics stay); ignored ones leave /recent', async () => {
    const watched = await makeCategory(forum.ctx);
    const tracked = await makeCategory(forum.ctx);
    const unwatched = await makeCategory(forum.ctx);
    const ignored = await makeCategory(forum.ctx);
    const { client: author } = await forum.loginAs();
    const t = {
      watched: await postTopic(author, watched),
      tracked: await postTopic(author, tracked),
      unwatched: await postTopic(author, unwatched),
      followed: await postTopic(author, unwatched),
      ignored: await postTopic(author, ignored),
    };
    const { client } = await forum.loginAs();
    await client.put(`/api/v3/categories/${tracked}/watch`, { state: 'tracking' });
    await client.put(`/api/v3/categories/${unwatched}/watch`, { state: 'notwatching' });
    await client.put(`/api/v3/categories/${ignored}/watch`, { state: 'ignoring' });
    await client.put(`/api/v3/topics/${t.followed.tid}/follow`);
    const unread = await client.get('/api/unread');
    const tids = tidsOf(unread);
    expect(tids).toEqual(expect.arrayContaining([t.watched.tid, t.tracked.tid, t.followed.tid]));
    expect(tids).not.toContain(t.unwatched.tid);
    expect(tids).not.toContain(t.ignored.tid);
    // The count behind the page agrees with the list.
    expect(unread.body.pagination.pageCount).toBe(1);
    const recent = tidsOf(await client.get('/api/recent'));
    expect(recent).toEqual(expect.arrayContaining([t.watched.tid, t.unwatched.tid]));
    expect(recent).not.toContain(t.ignored.tid);
    // Another member, who chose nothing, sees all of them (the default state is watching).
    const { client: fresh } = await forum.loginAs();
    expect(tidsOf(await fresh.get('/api/unread'))).toEqual(expect.arrayContaining(Object.values(t).map((x) => x.tid)));
  });

  it('an ignored topic leaves /unread; the author follows their own topic by default', async () => {
    const cid = await makeCategory(forum.ctx);
    const { client: author, user } = await forum.loginAs();
    const topic = await postTopic(author, cid);
    expect(await forum.ctx.topics.followers(topic.tid)).toContain(user.uid);
    const { client } = await forum.loginAs();
    expect(tidsOf(await client.get('/api/unread'))).toContain(topic.tid);
    await client.put(`/api/v3/topics/${topic.tid}/ignore`);
    expect(tidsOf(await client.get('/api/unread'))).not.toContain(topic.tid);
  });
});

describe('PUT/DELETE /api/v3/tags/:tag/follow', () => {
  it('follows and unfollows a tag; the tag page says so; unknown tags are 404', async () => {
    const cid = await makeCategory(forum.ctx);
    const { client: author } = await forum.loginAs();
    await postTopic(author, cid, { tags: ['followme'] });
    const { client } = await forum.loginAs();
    expect((await client.get('/api/tags/followme')).body.isFollowing).toBe(false);
    expect((await client.put('/api/v3/tags/FollowMe/follow')).status).toBe(200);
    expect((await client.get('/api/tags/followme')).body.isFollowing).toBe(true);
    // Following twice is harmless, as NodeBB's sorted-set add.
    expect((await client.put('/api/v3/tags/followme/follow')).status).toBe(200);
    expect((await client.del('/api/v3/tags/followme/follow')).status).toBe(200);
    expect((await client.get('/api/tags/followme')).body.isFollowing).toBe(false);
    const missing = await client.put('/api/v3/tags/no-such-tag-here/follow');
    expect(missing.status).toBe(404);
    expect(missing.body.status.key).toBe('error:no-tag');
    expect((await forum.client().put('/api/v3/tags/followme/follow')).status).toBe(401);
  });
});

describe('PUT/DELETE /api/v3/users/:uid/follow', () => {
  it('keeps both counters, shows isFollowing on the profile, fires action:user.follow, and answers NodeBB keys', async () => {
    const { client, user: fan } = await forum.loginAs();
    const star = await forum.createUser();
    const heard: ActionHooks['action:user.follow'][] = [];
    forum.ctx.hooks.action('action:user.follow', 'test', async (e) => void heard.push(e));
    const put = await client.put(`/api/v3/users/${star.uid}/follow`);
    expect(put.status).toBe(200);
    await forum.ctx.hooks.idle();
    expect(heard).toEqual([{ uid: fan.uid, followee: star.uid }]);
    const profile = await client.get(`/api/user/${star.userslug}`);
    expect(profile.body).toMatchObject({ isFollowing: true, followerCount: 1, followingCount: 0 });
    const obj = await client.get(`/api/v3/users/${star.uid}`);
    expect(obj.body.response).toMatchObject({ followercount: 1, followingcount: 0 });
    expect((await client.get(`/api/v3/users/${fan.uid}`)).body.response.followingcount).toBe(1);
    const again = await client.put(`/api/v3/users/${star.uid}/follow`);
    expect([again.status, again.body.status.key]).toEqual([400, 'error:already-following']);
    const self = await client.put(`/api/v3/users/${fan.uid}/follow`);
    expect([self.status, self.body.status.key]).toEqual([400, 'error:you-cant-follow-yourself']);
    const missing = await client.put('/api/v3/users/999999/follow');
    expect([missing.status, missing.body.status.key]).toEqual([404, 'error:no-user']);
    expect((await forum.client().put(`/api/v3/users/${star.uid}/follow`)).status).toBe(401);
    expect((await client.del(`/api/v3/users/${star.uid}/follow`)).status).toBe(200);
    const gone = await client.del(`/api/v3/users/${star.uid}/follow`);
    expect([gone.status, gone.body.status.key]).toEqual([400, 'error:not-following']);
    expect((await client.get(`/api/user/${star.userslug}`)).body).toMatchObject({ isFollowing: false, followerCount: 0 });
    expect((await forum.ctx.users.get(fan.uid))!.following_count).toBe(0);
  });

  it('counters stay exact under concurrent follows, and when a member is deleted', async () => {
    const star = await forum.createUser();
    const fans = await Promise.all([0, 1, 2, 3, 4].map(() => forum.loginAs()));
    const answers = await Promise.all(fans.flatMap(({ client }) => [client.put(`/api/v3/users/${star.uid}/follow`), client.put(`/api/v3/users/${star.uid}/follow`)]));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    expect((await forum.ctx.users.get(star.uid))!.follower_count).toBe(5);
    const leaving = fans[0]!;
    await leaving.client.put(`/api/v3/users/${fans[1]!.user.uid}/follow`);
    await forum.ctx.users.delete({ ...SYSTEM, isAdmin: true }, leaving.user.uid);
    expect((await forum.ctx.users.get(star.uid))!.follower_count).toBe(4);
    expect((await forum.ctx.users.get(fans[1]!.user.uid))!.follower_count).toBe(0);
    const rows = await forum.ctx.db.selectFrom('user_follows').select('uid').where('followee', '=', star.uid).execute();
    expect(rows).toHaveLength(4);
  });
});

describe('new topics reach watchers (action:topic.watched)', () => {
  it('tells category watchers and tag followers once each, never the author or a member ignoring the category', async () => {
    const cid = await makeCategory(forum.ctx);
    const { client: author, user: writer } = await forum.loginAs();
    const { client: watcher, user: w } = await forum.loginAs();
    const { client: tagFan, user: f } = await forum.loginAs();
    const { client: ignorer, user: i } = await forum.loginAs();
    await watcher.put(`/api/v3/categories/${cid}/watch`, { state: 'watching' });
    await author.put(`/api/v3/categories/${cid}/watch`, { state: 'watching' });
    await postTopic(author, cid, { tags: ['watchtag'] });
    await tagFan.put('/api/v3/tags/watchtag/follow');
    await ignorer.put('/api/v3/tags/watchtag/follow');
    await watcher.put('/api/v3/tags/watchtag/follow');
    await ignorer.put(`/api/v3/categories/${cid}/watch`, { state: 'ignoring' });
    const heard: ActionHooks['action:topic.watched'][] = [];
    forum.ctx.hooks.action('action:topic.watched', 'test', async (e) => void heard.push(e));
    const topic = await postTopic(author, cid, { tags: ['watchtag'] });
    await forum.ctx.hooks.idle();
    const mine = heard.filter((e) => e.topic.tid === topic.tid);
    // The two lookups run side by side: either may be heard first.
    expect(mine.map((e) => [e.via, e.uids]).sort((x, y) => String(x[0]).localeCompare(String(y[0])))).toEqual([
      ['category', [w.uid]],
      ['tag', [f.uid]],
    ]);
    expect(mine.every((e) => e.uid === writer.uid)).toBe(true);
    expect(mine.flatMap((e) => e.uids)).not.toContain(i.uid);
  });
});
