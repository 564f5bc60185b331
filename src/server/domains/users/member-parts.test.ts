import { describe, expect, it } from 'vitest';
import { postReply, postTopic } from '../topics/testing.js';
import { useForum } from '../../test/forum-kit.js';

/*
 * The shared parts of member pages (member-parts.ts): a profile, a member's post list and the
 * members list are built once for every reader alike and kept for a few seconds. Each test
 * reads a page (so its parts are cached), changes something, and reads it again at once.
 */

const kit = useForum({ category: 'Member parts' });

describe('a profile read again after a change', () => {
  it('shows a new post, a new name and field values, and a new badge at once', async () => {
    const author = await kit.forum.member();
    const reader = await kit.forum.member();
    const profile = async () => (await reader.client.get(`/api/user/${author.user.userslug}`)).body;
    const t = await postTopic(author.client, kit.cid, { title: 'The first topic of the author' });
    expect((await profile()).posts.map((p: { pid: number }) => p.pid)).toEqual([t.mainPid]);
    const reply = await postReply(author.client, t.tid, 'A second post, shown at once on the profile.');
    const after = await profile();
    expect(after.posts.map((p: { pid: number }) => p.pid)).toEqual([reply.pid, t.mainPid]);
    expect(after.postcount).toBe(2);
    expect(after.posts[0].topic).toEqual({ tid: t.tid, title: 'The first topic of the author', slug: `${t.tid}/${t.slug.split('/').pop()}` });

    expect((await author.client.put(`/api/v3/users/${author.user.uid}`, { location: 'Lisbon', aboutme: 'Now with **words**' })).status).toBe(200);
    const changed = await profile();
    expect(changed.location).toBe('Lisbon');
    expect(changed.aboutHTML).toContain('<strong>words</strong>');

    await kit.forum.ctx.settings.set({ customUserFields: JSON.stringify([{ key: 'team', name: 'Team', type: 'text' }]) });
    try {
      await profile();
      expect((await author.client.put(`/api/v3/users/${author.user.uid}`, { team: 'blue' })).status).toBe(200);
      expect((await profile()).customUserFields.map((f: { key: string; value: string }) => `${f.key}=${f.value}`)).toEqual(['team=blue']);
    } finally {
      await kit.forum.ctx.settings.set({ customUserFields: '[]' });
    }

    const admin = await kit.forum.member({ admin: true });
    const group = await admin.client.post('/api/v3/groups/', { name: `Profile badge ${Date.now() % 100000}`, userTitle: 'Shown', private: 0 });
    expect(group.status).toBe(200);
    expect(await kit.forum.ctx.groups.award(group.body.response.name, author.user.uid)).toBe(true);
    const withBadge = await profile();
    expect(withBadge.selectedGroups.map((g: { userTitle: string }) => g.userTitle)).toEqual(['Shown']);
    expect(withBadge.groups.map((g: { name: string }) => g.name)).toContain(group.body.response.name);
  });

  it('gives each reader their own votes and follow, and hidden groups only to the member and admins', async () => {
    const author = await kit.forum.member();
    const voter = await kit.forum.member();
    const other = await kit.forum.member();
    const admin = await kit.forum.member({ admin: true });
    const t = await postTopic(author.client, kit.cid, { title: 'A topic to vote on here' });
    const read = async (c: typeof voter) => (await c.client.get(`/api/user/${author.user.userslug}`)).body;
    expect((await read(voter)).posts[0].upvoted).toBe(false);
    expect((await voter.client.put(`/api/v3/posts/${t.mainPid}/vote`, { delta: 1 })).status).toBe(200);
    expect((await voter.client.put(`/api/v3/users/${author.user.uid}/follow`)).status).toBe(200);
    const voted = await read(voter);
    expect([voted.posts[0].upvoted, voted.posts[0].votes, voted.isFollowing]).toEqual([true, 1, true]);
    expect(voted.bestPosts.map((p: { pid: number; upvoted: boolean }) => [p.pid, p.upvoted])).toEqual([[t.mainPid, true]]);
    const seen = await read(other);
    expect([seen.posts[0].upvoted, seen.posts[0].votes, seen.isFollowing, seen.isSelf, seen.canEdit]).toEqual([false, 1, false, false, false]);
    expect(seen.bestPosts.map((p: { upvoted: boolean }) => p.upvoted)).toEqual([false]);

    const hidden = await admin.client.post('/api/v3/groups/', { name: `Hidden circle ${Date.now() % 100000}`, hidden: 1 });
    expect(hidden.status).toBe(200);
    await kit.forum.ctx.groups.join(hidden.body.response.name, author.user.uid);
    const names = async (c: typeof voter) => (await read(c)).groups.map((g: { name: string }) => g.name);
    expect(await names(other)).not.toContain(hidden.body.response.name);
    expect(await names(author)).toContain(hidden.body.response.name);
    expect(await names(admin)).toContain(hidden.body.response.name);
    const self = await read(author);
    expect([self.isSelf, self.canEdit, self.email]).toEqual([true, true, author.user.email]);
    expect((await read(other)).email).toBe('');
  });
});

describe("a member's post list read again after a change", () => {
  it('shows a new post and drops a deleted one at once, with the reader’s own marks', async () => {
    const author = await kit.forum.member();
    const reader = await kit.forum.member();
    const list = async () => (await reader.client.get(`/api/user/${author.user.userslug}/posts`)).body;
    const t = await postTopic(author.client, kit.cid, { title: 'A topic for the post list' });
    expect((await list()).posts.map((p: { pid: number; isMainPost: boolean }) => [p.pid, p.isMainPost])).toEqual([[t.mainPid, true]]);
    const reply = await postReply(author.client, t.tid, 'A reply that joins the list at once.');
    const after = await list();
    expect(after.posts.map((p: { pid: number; index: number; isMainPost: boolean }) => [p.pid, p.index, p.isMainPost])).toEqual([
      [reply.pid, 1, false],
      [t.mainPid, 0, true],
    ]);
    expect(after.posts[0].category.cid).toBe(kit.cid);
    expect((await reader.client.put(`/api/v3/posts/${reply.pid}/bookmark`)).status).toBe(200);
    expect((await list()).posts[0].bookmarked).toBe(true);
    expect((await (await kit.forum.member()).client.get(`/api/user/${author.user.userslug}/posts`)).body.posts[0].bookmarked).toBe(false);
    expect((await author.client.del(`/api/v3/posts/${reply.pid}/state`)).status).toBe(200);
    expect((await list()).posts.map((p: { pid: number }) => p.pid)).toEqual([t.mainPid]);
  });
});

describe('the members list read again after a change', () => {
  it('shows a new member and a new name at once', async () => {
    const reader = await kit.forum.member();
    const first = async () => (await reader.client.get('/api/users')).body.users[0] as { uid: number; username: string; joindateISO: string };
    await first();
    const joined = await kit.forum.member();
    expect((await first()).uid).toBe(joined.user.uid);
    const count = (await reader.client.get('/api/users')).body.userCount;
    const name = `renamed${Date.now() % 100000}`;
    expect((await joined.client.put(`/api/v3/users/${joined.user.uid}`, { username: name })).status).toBe(200);
    expect((await first()).username).toBe(name);
    expect((await reader.client.get('/api/users')).body.userCount).toBe(count);
  });
});
