import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../../test/harness.js';
import { makeCategory, postTopic } from '../topics/testing.js';
import { useForum } from '../../test/forum-kit.js';

// NodeBB's DELETE /users, GET /users/{uid}/emails/{email}, GET /users/{uid}/invites/groups
// and POST /users/reauth/verify.

const kit = useForum({ members: ['alice'] });

describe('DELETE /api/v3/users', () => {
  it('deletes several members and their topics (admins only)', async () => {
    const cid = await makeCategory(kit.forum.ctx, 'Deleted with their authors');
    const a = await kit.forum.loginAs();
    const b = await kit.forum.loginAs();
    const { tid } = await postTopic(a.client, cid);
    expect((await kit.alice.client.del('/api/v3/users', { uids: [a.user.uid] })).status).toBe(403);
    const res = await kit.admin.client.del('/api/v3/users', { uids: [a.user.uid, b.user.uid] });
    expect(res.status).toBe(200);
    expect(await kit.forum.ctx.users.get(a.user.uid)).toBeFalsy();
    expect(await kit.forum.ctx.users.get(b.user.uid)).toBeFalsy();
    expect((await kit.admin.client.get(`/api/v3/topics/${tid}`)).status).toBe(404);
  });

  it('deletes none when one is missing or an administrator', async () => {
    const c = await kit.forum.loginAs();
    expect((await kit.admin.client.del('/api/v3/users', { uids: [c.user.uid, 999999] })).status).toBe(404);
    const refused = await kit.admin.client.del('/api/v3/users', { uids: [c.user.uid, kit.admin.user.uid] });
    expect(refused.status).toBe(403);
    expect(refused.body.status.key).toBe('error:cant-delete-admin');
    expect(await kit.forum.ctx.users.get(c.user.uid)).toBeTruthy();
    expect((await kit.admin.client.del('/api/v3/users', { uids: [] })).status).toBe(400);
  });
});

describe('GET /api/v3/users/{uid}/emails/{email}', () => {
  it("answers 204 for the member's own address (any case), 404 for another, 403 for someone else asking", async () => {
    const email = kit.alice.user.email!;
    const own = await kit.alice.client.get(`/api/v3/users/${kit.alice.user.uid}/emails/${encodeURIComponent(email.toUpperCase())}`);
    expect(own.status).toBe(204);
    expect((await kit.admin.client.get(`/api/v3/users/${kit.alice.user.uid}/emails/${encodeURIComponent(email)}`)).status).toBe(204);
    const other = await kit.alice.client.get(`/api/v3/users/${kit.alice.user.uid}/emails/${encodeURIComponent('someone@example.org')}`);
    expect(other.status).toBe(404);
    expect(other.body.status.key).toBe('error:no-email');
    const bob = await kit.forum.loginAs();
    expect((await bob.client.get(`/api/v3/users/${kit.alice.user.uid}/emails/${encodeURIComponent(email)}`)).status).toBe(403);
  });
});

describe('GET /api/v3/users/{uid}/invites/groups', () => {
  it("lists the groups an administrator may invite into (not the system ones); a member's are none", async () => {
    await kit.admin.client.post('/api/v3/groups', { name: 'Invited Crew' });
    const res = await kit.admin.client.get(`/api/v3/users/${kit.admin.user.uid}/invites/groups`);
    expect(res.status).toBe(200);
    expect(res.body.response).toContain('Invited Crew');
    expect(res.body.response).not.toContain('administrators');
    expect((await kit.alice.client.get(`/api/v3/users/${kit.alice.user.uid}/invites/groups`)).body.response).toEqual([]);
    expect((await kit.alice.client.get(`/api/v3/users/${kit.admin.user.uid}/invites/groups`)).status).toBe(403);
    expect((await kit.forum.client().get(`/api/v3/users/${kit.admin.user.uid}/invites/groups`)).status).toBe(401);
  });
});

describe('POST /api/v3/users/reauth/verify', () => {
  it("answers NodeBB's bare { verified: true } for a session that logged in lately, 401 after two minutes or for a token", async () => {
    const fresh = await kit.alice.client.post('/api/v3/users/reauth/verify');
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual({ verified: true });
    // The session's login is three minutes old: no longer a re-authentication.
    await kit.forum.ctx.db
      .updateTable('sessions')
      .set({ created: Date.now() - 3 * 60_000 })
      .where('uid', '=', kit.alice.user.uid)
      .execute();
    expect((await kit.alice.client.post('/api/v3/users/reauth/verify')).status).toBe(401);
    const bearer = kit.forum.client();
    bearer.bearer = await kit.forum.ctx.auth.createToken(kit.alice.user.uid, 'reauth');
    expect((await bearer.post('/api/v3/users/reauth/verify')).status).toBe(401);
  });

  it("verifies the member's own password; a wrong one is refused", async () => {
    const right = await kit.alice.client.post('/api/v3/users/reauth/verify', { password: TEST_PASSWORD });
    expect(right.status).toBe(200);
    expect(right.body).toEqual({ verified: true });
    const wrong = await kit.alice.client.post('/api/v3/users/reauth/verify', { password: 'not-the-password' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.status.key).toBe('error:invalid-password');
    expect((await kit.forum.client().post('/api/v3/users/reauth/verify', { password: TEST_PASSWORD })).status).toBe(401);
  });
});
