import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, TEST_PASSWORD, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import type { UserRow } from './store.js';
import { makeCategory, postTopic } from '../topics/testing.js';

// NodeBB's DELETE /users, GET /users/{uid}/emails/{email}, GET /users/{uid}/invites/groups
// and POST /users/reauth/verify.
let forum: TestForum;
let admin: { client: HttpClient; user: UserRow };
let alice: { client: HttpClient; user: UserRow };

beforeAll(async () => {
  forum = await startTestForum();
  admin = await forum.loginAs({ admin: true });
  alice = await forum.loginAs();
});
afterAll(async () => {
  await forum.close();
});

describe('DELETE /api/v3/users', () => {
  it('deletes several members and their topics (admins only)', async () => {
    const cid = await makeCategory(forum.ctx, 'Deleted with their authors');
    const a = await forum.loginAs();
    const b = await forum.loginAs();
    const { tid } = await postTopic(a.client, cid);
    expect((await alice.client.del('/api/v3/users', { uids: [a.user.uid] })).status).toBe(403);
    const res = await admin.client.del('/api/v3/users', { uids: [a.user.uid, b.user.uid] });
    expect(res.status).toBe(200);
    expect(await forum.ctx.users.get(a.user.uid)).toBeFalsy();
    expect(await forum.ctx.users.get(b.user.uid)).toBeFalsy();
    expect((await admin.client.get(`/api/v3/topics/${tid}`)).status).toBe(404);
  });

  it('deletes none when one is missing or an administrator', async () => {
    const c = await forum.loginAs();
    expect((await admin.client.del('/api/v3/users', { uids: [c.user.uid, 999999] })).status).toBe(404);
    const refused = await admin.client.del('/api/v3/users', { uids: [c.user.uid, admin.user.uid] });
    expect(refused.status).toBe(403);
    expect(refused.body.status.key).toBe('error:cant-delete-admin');
    expect(await forum.ctx.users.get(c.user.uid)).toBeTruthy();
    expect((await admin.client.del('/api/v3/users', { uids: [] })).status).toBe(400);
  });
});

describe('GET /api/v3/users/{uid}/emails/{email}', () => {
  it("answers 204 for the member's own address (any case), 404 for another, 403 for someone else asking", async () => {
    const email = alice.user.email!;
    const own = await alice.client.get(`/api/v3/users/${alice.user.uid}/emails/${encodeURIComponent(email.toUpperCase())}`);
    expect(own.status).toBe(204);
    expect((await admin.client.get(`/api/v3/users/${alice.user.uid}/emails/${encodeURIComponent(email)}`)).status).toBe(204);
    const other = await alice.client.get(`/api/v3/users/${alice.user.uid}/emails/${encodeURIComponent('someone@example.org')}`);
    expect(other.status).toBe(404);
    expect(other.body.status.key).toBe('error:no-email');
    const bob = await forum.loginAs();
    expect((await bob.client.get(`/api/v3/users/${alice.user.uid}/emails/${encodeURIComponent(email)}`)).status).toBe(403);
  });
});

describe('GET /api/v3/users/{uid}/invites/groups', () => {
  it("lists the groups an administrator may invite into (not the system ones); a member's are none", async () => {
    await admin.client.post('/api/v3/groups', { name: 'Invited Crew' });
    const res = await admin.client.get(`/api/v3/users/${admin.user.uid}/invites/groups`);
    expect(res.status).toBe(200);
    expect(res.body.response).toContain('Invited Crew');
    expect(res.body.response).not.toContain('administrators');
    expect((await alice.client.get(`/api/v3/users/${alice.user.uid}/invites/groups`)).body.response).toEqual([]);
    expect((await alice.client.get(`/api/v3/users/${admin.user.uid}/invites/groups`)).status).toBe(403);
    expect((await forum.client().get(`/api/v3/users/${admin.user.uid}/invites/groups`)).status).toBe(401);
  });
});

describe('POST /api/v3/users/reauth/verify', () => {
  it("answers NodeBB's bare { verified: true } for a session that logged in lately, 401 after two minutes or for a token", async () => {
    const fresh = await alice.client.post('/api/v3/users/reauth/verify');
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual({ verified: true });
    // The session's login is three minutes old: no longer a re-authentication.
    await forum.ctx.db.updateTable('sessions').set({ created: Date.now() - 3 * 60_000 }).where('uid', '=', alice.user.uid).execute();
    expect((await alice.client.post('/api/v3/users/reauth/verify')).status).toBe(401);
    const bearer = forum.client();
    bearer.bearer = await forum.ctx.auth.createToken(alice.user.uid, 'reauth');
    expect((await bearer.post('/api/v3/users/reauth/verify')).status).toBe(401);
  });

  it("verifies the member's own password; a wrong one is refused", async () => {
    const right = await alice.client.post('/api/v3/users/reauth/verify', { password: TEST_PASSWORD });
    expect(right.status).toBe(200);
    expect(right.body).toEqual({ verified: true });
    const wrong = await alice.client.post('/api/v3/users/reauth/verify', { password: 'not-the-password' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.status.key).toBe('error:invalid-password');
    expect((await forum.client().post('/api/v3/users/reauth/verify', { password: TEST_PASSWORD })).status).toBe(401);
  });
});
