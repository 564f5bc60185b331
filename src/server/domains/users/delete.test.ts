import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../../setup.js';
import { startTestForum, TEST_PASSWORD, type TestForum, type TestMember } from '../../test/harness.js';

let forum: TestForum;
let cid: number;

/** A member with a topic, a reply in someone else's topic, an upvote given and a session open. */
async function author(host: TestMember & { tid: number }) {
  const m = await forum.member();
  const own = (await m.client.post('/api/v3/topics', { cid, title: `Topic by ${m.user.username}`, content: 'The first post of a topic to delete.', tags: [] }))
    .body.response;
  await m.client.post(`/api/v3/topics/${host.tid}`, { content: 'A reply from the member who leaves.' });
  const reply = (await m.client.post(`/api/v3/topics/${host.tid}`, { content: 'Another reply from the member who leaves.' })).body.response;
  const hostMain = (await forum.ctx.topics.get(host.tid))!.main_pid;
  expect((await m.client.put(`/api/v3/posts/${hostMain}/vote`, { delta: 1 })).status).toBe(200);
  return { m, tid: own.tid as number, pid: reply.pid as number, hostMain };
}

const category = async () => (await forum.ctx.categories.get(cid))!;

let host: TestMember & { tid: number };
beforeAll(async () => {
  forum = await startTestForum();
  cid = (await forum.ctx.categories.create(SYSTEM, { name: 'Leaving' })).cid;
  const h = await forum.member();
  const t = (await h.client.post('/api/v3/topics', { cid, title: 'The host topic', content: 'A topic others reply to.', tags: [] })).body.response;
  host = { ...h, tid: t.tid };
});
afterAll(async () => forum?.close());

describe('account deletion', () => {
  it('asks the member for their password and refuses a wrong one', async () => {
    const m = await forum.member();
    const none = await m.client.del(`/api/v3/users/${m.user.uid}/account`);
    expect([none.status, none.body.status.key]).toEqual([400, 'error:invalid-password']);
    const wrong = await m.client.del(`/api/v3/users/${m.user.uid}/account`, { password: 'not-my-password' });
    expect([wrong.status, wrong.body.status.key]).toEqual([403, 'error:invalid-password']);
    expect(await forum.ctx.users.get(m.user.uid)).not.toBeNull();
    const other = await forum.member();
    expect((await other.client.del(`/api/v3/users/${m.user.uid}/account`, { password: TEST_PASSWORD })).status).toBe(403);
    expect((await forum.client().del(`/api/v3/users/${m.user.uid}`)).status).toBe(401);
  });

  it('keeps the content under a former member, ends the sessions at once and keeps the counts', async () => {
    const { m, tid, pid } = await author(host);
    const before = await category();
    const second = await forum.loginAs(m.user);
    expect((await m.client.del(`/api/v3/users/${m.user.uid}/account`, { password: TEST_PASSWORD })).status).toBe(200);
    expect(await forum.ctx.users.get(m.user.uid)).toBeNull();
    // Both of the member's sessions ended: the second browser is a guest now.
    expect((await second.client.get('/api/config')).body.uid).toBe(0);
    expect((await m.client.get('/api/config')).body.uid).toBe(0);
    const after = await category();
    expect([after.topic_count, after.post_count]).toEqual([before.topic_count, before.post_count]);
    const page = await forum.client().get(`/api/topic/${host.tid}`);
    const post = (page.body.posts as { pid: number; user: { username: string }; content: string }[]).find((p) => p.pid === pid)!;
    expect(post.user.username).toBe('[[global:former-user]]');
    expect(post.content).toContain('Another reply');
    expect((await forum.client().get(`/api/topic/${tid}`)).status).toBe(200);
  });

  it('purges the content with the account: topics, replies, votes; counts follow', async () => {
    const { m, tid, pid, hostMain } = await author(host);
    const before = await category();
    const hostRep = (await forum.ctx.users.get(host.user.uid))!.reputation;
    const hostTopic = (await forum.ctx.topics.get(host.tid))!;
    const upvotes = (await forum.ctx.posts.get(hostMain))!.upvotes;
    expect((await m.client.del(`/api/v3/users/${m.user.uid}`, { password: TEST_PASSWORD })).status).toBe(200);
    expect(await forum.ctx.users.get(m.user.uid)).toBeNull();
    expect(await forum.ctx.topics.get(tid)).toBeNull();
    expect(await forum.ctx.posts.get(pid)).toBeNull();
    const after = await category();
    // One topic of one post, and two replies in the host topic, are gone.
    expect(after.topic_count).toBe(before.topic_count - 1);
    expect(after.post_count).toBe(before.post_count - 3);
    expect((await forum.ctx.topics.get(host.tid))!.post_count).toBe(hostTopic.post_count - 2);
    expect((await forum.ctx.posts.get(hostMain))!.upvotes).toBe(upvotes - 1);
    expect((await forum.ctx.users.get(host.user.uid))!.reputation).toBe(hostRep - 1);
    expect((await forum.client().get(`/api/topic/${tid}`)).status).toBe(404);
  });

  it('lets an admin delete a member without a password, never another admin', async () => {
    const admin = await forum.member({ admin: true });
    const other = await forum.member({ admin: true });
    const m = await forum.member();
    expect((await admin.client.del(`/api/v3/users/${m.user.uid}/account`)).status).toBe(200);
    expect(await forum.ctx.users.get(m.user.uid)).toBeNull();
    const refused = await admin.client.del(`/api/v3/users/${other.user.uid}`);
    expect([refused.status, refused.body.status.key]).toEqual([403, 'error:cant-delete-admin']);
    expect((await admin.client.del('/api/v3/users/99999999')).status).toBe(404);
  });

  it('refuses a member when the forum turned account deletion off', async () => {
    await forum.ctx.settings.set({ allowAccountDelete: false });
    try {
      const m = await forum.member();
      const res = await m.client.del(`/api/v3/users/${m.user.uid}/account`, { password: TEST_PASSWORD });
      expect([res.status, res.body.status.key]).toEqual([403, 'error:account-deletion-disabled']);
    } finally {
      await forum.ctx.settings.set({ allowAccountDelete: true });
    }
  });
});
