import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, TEST_PASSWORD, type TestForum } from '../../test/harness.js';

let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum.close();
});

describe('GET /api/v3/users/:uid', () => {
  it('shows a member, with the email only to themself and admins', async () => {
    const { client, user } = await forum.loginAs();
    const self = await client.get(`/api/v3/users/${user.uid}`);
    expect(self.status).toBe(200);
    expect(self.body.response.username).toBe(user.username);
    expect(self.body.response.email).toBe(user.email);
    const other = await forum.client().get(`/api/v3/users/${user.uid}`);
    // NodeBB's UserObj always has the field: hidden emails are empty.
    expect(other.body.response.email).toBe('');
    expect(other.body.response).not.toHaveProperty('password_hash');
  });

  it('answers 404 for an unknown member and 400 for a bad uid', async () => {
    expect((await forum.client().get('/api/v3/users/999999')).status).toBe(404);
    const bad = await forum.client().get('/api/v3/users/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.status.key).toBe('error:invalid-data');
  });
});

describe('PUT /api/v3/users/:uid', () => {
  it('lets a member change their profile', async () => {
    const { client, user } = await forum.loginAs();
    const res = await client.put(`/api/v3/users/${user.uid}`, { fullname: 'Ada Lovelace', about: 'Engines' });
    expect(res.status).toBe(200);
    expect(res.body.response.fullname).toBe('Ada Lovelace');
    expect((await forum.ctx.users.get(user.uid))?.about).toBe('Engines');
  });

  it("takes NodeBB's aboutme field as the about-me", async () => {
    const { client, user } = await forum.loginAs();
    const res = await client.put(`/api/v3/users/${user.uid}`, { aboutme: 'From a NodeBB client' });
    expect(res.status).toBe(200);
    expect(res.body.response.aboutme).toBe('From a NodeBB client');
    expect((await forum.ctx.users.get(user.uid))?.about).toBe('From a NodeBB client');
  });

  it('shows the about-me rendered when it was written, not on each view', async () => {
    const { client, user } = await forum.loginAs();
    await client.put(`/api/v3/users/${user.uid}`, { about: 'Loves **engines**' });
    const first = await forum.client().get(`/api/user/${user.userslug}`);
    expect(first.body.aboutHTML).toContain('<strong>engines</strong>');
    // The profile shows what is stored: a page view renders nothing.
    await forum.ctx.db.updateTable('users').set({ about_html: '<p>stored</p>' }).where('uid', '=', user.uid).execute();
    const second = await forum.client().get(`/api/user/${user.userslug}`);
    expect(second.body.aboutHTML).toBe('<p>stored</p>');
  });

  it('refuses another member (403), a guest (401) and bad fields (400 with keys)', async () => {
    const { client } = await forum.loginAs();
    const victim = await forum.createUser();
    expect((await client.put(`/api/v3/users/${victim.uid}`, { fullname: 'x' })).status).toBe(403);
    expect((await forum.client().put(`/api/v3/users/${victim.uid}`, { fullname: 'x' })).status).toBe(401);
    const me = await forum.loginAs();
    const email = await me.client.put(`/api/v3/users/${me.user.uid}`, { email: 'not-an-email' });
    expect(email.body.status.key).toBe('error:invalid-email');
    const name = await me.client.put(`/api/v3/users/${me.user.uid}`, { username: victim.username });
    expect(name.body.status.key).toBe('error:username-taken');
    const pic = await me.client.put(`/api/v3/users/${me.user.uid}`, { picture: 'javascript:alert(1)' });
    expect(pic.status).toBe(400);
  });

  it('lets an admin change anyone', async () => {
    const { client } = await forum.loginAs({ admin: true });
    const member = await forum.createUser();
    expect((await client.put(`/api/v3/users/${member.uid}`, { fullname: 'Set by admin' })).status).toBe(200);
  });
});

describe('settings', () => {
  it('saves openSidebars and the skin, and refuses bad values', async () => {
    const { client, user } = await forum.loginAs();
    const res = await client.put(`/api/v3/users/${user.uid}/settings`, { settings: { openSidebars: 'on', bootswatchSkin: 'darkly' } });
    expect(res.status).toBe(200);
    const config = await client.get('/api/config');
    expect(config.body.openSidebars).toBe('on');
    expect(config.body.bootswatchSkin).toBe('darkly');
    const bad = await client.put(`/api/v3/users/${user.uid}/settings`, { settings: { openSidebars: 'sideways' } });
    expect(bad.status).toBe(400);
  });
});

describe('password', () => {
  it('needs the current password, checks the rules and ends other sessions', async () => {
    const user = await forum.createUser();
    const a = await forum.loginAs(user);
    const b = await forum.loginAs(user);
    const wrong = await a.client.put(`/api/v3/users/${user.uid}/password`, { currentPassword: 'nope', newPassword: 'Another-Horse-77' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.status.key).toBe('user:change-password-error-wrong-current');
    const weak = await a.client.put(`/api/v3/users/${user.uid}/password`, { currentPassword: TEST_PASSWORD, newPassword: 'x' });
    expect(weak.body.status.key).toBe('reset_password:password-too-short');
    const ok = await a.client.put(`/api/v3/users/${user.uid}/password`, { currentPassword: TEST_PASSWORD, newPassword: 'Another-Horse-77' });
    expect(ok.status).toBe(200);
    expect((await a.client.get('/api/config')).body.uid).toBe(user.uid);
    expect((await b.client.get('/api/config')).body.uid).toBe(0);
    expect((await forum.client().post('/login', { username: user.username, password: 'Another-Horse-77' })).status).toBe(200);
  });
});

describe('ban and delete', () => {
  it('an admin bans (sessions end) and unbans; a member may not ban', async () => {
    const admin = await forum.loginAs({ admin: true });
    const target = await forum.loginAs();
    const member = await forum.loginAs();
    expect((await member.client.put(`/api/v3/users/${target.user.uid}/ban`, { reason: 'x' })).status).toBe(403);
    expect((await admin.client.put(`/api/v3/users/${target.user.uid}/ban`, { reason: 'spam', until: Date.now() + 3600_000 })).status).toBe(200);
    expect((await target.client.get('/api/config')).body.uid).toBe(0);
    const login = await forum.client().post('/login', { username: target.user.username, password: TEST_PASSWORD });
    expect(login.body.status.key).toBe('error:user-banned-reason-until');
    expect((await admin.client.del(`/api/v3/users/${target.user.uid}/ban`)).status).toBe(200);
    expect((await forum.client().post('/login', { username: target.user.username, password: TEST_PASSWORD })).status).toBe(200);
  });

  it('a banned member who logs in is told why and until when, the end as a date in their language', async () => {
    const admin = await forum.loginAs({ admin: true });
    const target = await forum.createUser();
    const until = Date.UTC(2031, 2, 14, 9, 30);
    expect((await admin.client.put(`/api/v3/users/${target.uid}/ban`, { reason: 'flooding', until })).status).toBe(200);
    const fr = await forum.client().request('POST', '/login', { username: target.username, password: TEST_PASSWORD }, { headers: { 'accept-language': 'fr' } });
    expect(fr.status).toBe(403);
    // The end stays a time for the client, which shows it in its reader's locale and zone.
    expect(fr.body.status.params).toEqual([until, 'flooding']);
    expect(fr.body.status.dates).toEqual([0]);
    // The message itself is in the reader's language, the date written the French way.
    expect(fr.body.status.message).toContain('flooding');
    expect(fr.body.status.message).toContain('14 mars 2031');
    const en = await forum.client().post('/login', { username: target.username, password: TEST_PASSWORD });
    expect(en.body.status.message).toContain('14 March 2031');
    expect(en.body.status.message).not.toContain('GMT');
  });

  it('a member deletes their own account', async () => {
    const { client, user } = await forum.loginAs();
    expect((await client.del(`/api/v3/users/${user.uid}`, { password: TEST_PASSWORD })).status).toBe(200);
    expect(await forum.ctx.users.get(user.uid)).toBeNull();
    expect((await client.get('/api/config')).body.uid).toBe(0);
  });

  it('only admins create members through the API', async () => {
    const member = await forum.loginAs();
    expect((await member.client.post('/api/v3/users', { username: 'madeby', password: TEST_PASSWORD })).status).toBe(403);
    const admin = await forum.loginAs({ admin: true });
    const res = await admin.client.post('/api/v3/users', { username: 'madeby', email: 'madeby@example.com', password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.response.username).toBe('madeby');
  });

  it('creates an API token for oneself', async () => {
    const { client, user } = await forum.loginAs();
    const res = await client.post(`/api/v3/users/${user.uid}/tokens`, { description: 'bot' });
    expect(res.status).toBe(200);
    const bot = forum.client();
    bot.bearer = res.body.response.token;
    expect((await bot.post('/api/v3/ping')).body.response.uid).toBe(user.uid);
  });
});

describe('spam report and password reset requests', () => {
  it('lets only admins report a member, and records it', async () => {
    const target = await forum.createUser();
    const member = await forum.loginAs();
    expect((await member.client.post(`/api/user/${target.userslug}/spam-be-gone/report`)).status).toBe(403);
    const admin = await forum.loginAs({ admin: true });
    expect((await admin.client.post(`/api/user/${target.userslug}/spam-be-gone/report`)).status).toBe(200);
    expect((await admin.client.post('/api/user/nobody-here/spam-be-gone/report')).status).toBe(404);
    const events = await forum.ctx.events.recent(10, 'spam-report');
    expect(events[0]?.data.targetUid).toBe(target.uid);
  });

  it('answers a reset request alike for known and unknown addresses', async () => {
    const user = await forum.createUser();
    const known = await forum.client().post('/reset', { email: user.email });
    const unknown = await forum.client().post('/reset', { email: 'nobody@nowhere.example' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    const bad = await forum.client().post('/reset', { email: 'no-at-sign' });
    expect(bad.body.status.key).toBe('error:invalid-email');
    const events = await forum.ctx.events.recent(10, 'password-reset-requested');
    expect(events.map((e) => e.uid)).toContain(user.uid);
  });
});
