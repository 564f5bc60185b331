import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HttpClient } from '../../test/http-client.js';
import { startTestForum, TEST_PASSWORD, type TestForum } from '../../test/harness.js';
import { TestSmtp, type ReceivedMail } from '../mail/test-smtp.js';

const PASSWORD = 'Quite-Long-Horse-81';
let forum: TestForum;
let smtp: TestSmtp;
let n = 0;

beforeAll(async () => {
  smtp = await new TestSmtp().start();
  forum = await startTestForum({ env: { PALAVER_TRUST_PROXY: 'true' }, settings: { smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecurity: 'none', smtpUser: 'palaver', smtpPassword: 'smtp-pass-123', smtpFrom: 'forum@example.com' } });
});
afterAll(async () => {
  await forum?.close();
  await smtp?.stop();
});
beforeEach(async () => {
  // Each test states the settings it needs; the rest are the defaults a forum starts with.
  await forum.ctx.settings.set({ registrationType: 'normal', registrationApprovalType: 'normal', termsOfUse: '', gdpr_enabled: false, 'captcha:register': false, 'captcha:loginFailures': 0, maximumInvites: 0, inviteExpiration: 7 });
  await forum.ctx.hooks.idle();
  await forum.ctx.mail.sendDue();
  smtp.received = [];
});

describe('username availability as typed (HEAD /api/v3/users/bySlug/:name)', () => {
  it("answers 200 for a member's name in any case or spelling of its slug, 404 for a free one", async () => {
    const member = await forum.createUser({ username: `Held Nm${process.pid % 1000}` });
    const head = async (name: string) => (await forum.client().request('HEAD', `/api/v3/users/bySlug/${encodeURIComponent(name)}`)).status;
    expect(await head(member.username)).toBe(200);
    expect(await head(member.username.toLowerCase())).toBe(200);
    // Its slug ("held-nm…") is the same name to registration.
    expect(await head(member.userslug)).toBe(200);
    expect(await head(`${member.username}x`)).toBe(404);
    // What the check says free, registration takes; what it says taken, registration refuses.
    const name = `${member.username}x`;
    expect((await forum.client().post('/register', { ...fresh(), username: member.username })).body.status.key).toBe('error:username-taken');
    expect((await forum.client().post('/register', { ...fresh(), username: name })).status).toBe(200);
    expect(await head(name)).toBe(200);
  });
});

const fresh = () => {
  n += 1;
  return { username: `newbie${process.pid % 1000}n${n}`, email: `newbie${process.pid % 1000}n${n}@example.com`, password: PASSWORD, 'password-confirm': PASSWORD };
};

/** Solves the forum's challenge as the ALTCHA widget does: SHA-256(salt + n) until it matches. */
async function solve(client: HttpClient): Promise<string> {
  const res = await client.get<{ algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string }>('/api/captcha/challenge');
  expect(res.status).toBe(200);
  const c = res.body;
  for (let i = 0; i <= c.maxnumber; i++) {
    if (createHash('sha256').update(c.salt + i).digest('hex') === c.challenge) {
      return Buffer.from(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: i, salt: c.salt, signature: c.signature })).toString('base64');
    }
  }
  throw new Error('challenge not solved');
}

async function deliver(to: string): Promise<ReceivedMail[]> {
  await forum.ctx.hooks.idle();
  await forum.ctx.mail.sendDue();
  return smtp.received.filter((m) => m.to.includes(to));
}

describe('captcha on registration (ALTCHA)', () => {
  it('refuses a registration without a solution, accepts a solved one once, and refuses a replay or a wrong number', async () => {
    await forum.ctx.settings.set({ 'captcha:register': true });
    const client = forum.client();
    const none = await client.post('/register', fresh());
    expect(none.status).toBe(400);
    expect(none.body.status.key).toBe('error:captcha-required');

    const payload = await solve(client);
    const wrong = JSON.parse(Buffer.from(payload, 'base64').toString()) as { number: number };
    wrong.number += 1;
    const bad = await client.post('/register', { ...fresh(), altcha: Buffer.from(JSON.stringify(wrong)).toString('base64') });
    expect(bad.status).toBe(400);
    expect(bad.body.status.key).toBe('error:invalid-captcha');

    const first = fresh();
    const ok = await client.post('/register', { ...first, altcha: payload });
    expect(ok.status).toBe(200);
    expect(ok.body.uid).toBeGreaterThan(0);
    expect((await forum.ctx.users.byUsername(first.username))?.uid).toBe(ok.body.uid);

    const replay = await forum.client().post('/register', { ...fresh(), altcha: payload });
    expect(replay.status).toBe(400);
    expect(replay.body.status.key).toBe('error:invalid-captcha');
  });

  it('sends the captcha arguments in the client config', async () => {
    const res = await forum.client().get('/api/config');
    expect(res.body.captcha).toMatchObject({ provider: 'altcha', targetId: 'altcha-captcha', publicKey: '', options: { hl: 'en-GB' }, addLoginRecaptcha: false });
  });

  it('asks for the captcha on login after N failures, and then accepts a solved one', async () => {
    await forum.ctx.settings.set({ 'captcha:loginFailures': 2 });
    const user = await forum.createUser();
    const client = forum.client();
    for (let i = 0; i < 2; i++) expect((await client.post('/login', { username: user.username, password: 'not-the-password' })).status).toBe(403);
    const asked = await client.post('/login', { username: user.username, password: TEST_PASSWORD });
    expect(asked.status).toBe(400);
    expect(asked.body.status.key).toBe('error:captcha-required');
    const ok = await client.post('/login', { username: user.username, password: TEST_PASSWORD, altcha: await solve(client) });
    expect(ok.status).toBe(200);
    expect(ok.body.uid).toBe(user.uid);
  });
});

describe('registration types', () => {
  it('refuses every registration when disabled', async () => {
    await forum.ctx.settings.set({ registrationType: 'disabled' });
    const res = await forum.client().post('/register', fresh());
    expect(res.status).toBe(403);
    expect(res.body.status.key).toBe('error:registration-disabled');
    expect((await forum.client().get('/api/register')).status).toBe(403);
  });

  it.each([
    ['invite-only', 'register:invite.error-invite-only'],
    ['admin-invite-only', 'register:invite.error-admin-only'],
  ])('%s: refuses a registration without an invitation', async (type, key) => {
    await forum.ctx.settings.set({ registrationType: type });
    const res = await forum.client().post('/register', fresh());
    expect(res.status).toBe(403);
    expect(res.body.status.key).toBe(key);
    const page = await forum.client().get('/api/register');
    expect(page.body).toMatchObject({ canRegister: false, reason: key, registrationType: type });
  });

  it('admin approval: the registration waits; an admin accepts it (account made, mail sent) or rejects it', async () => {
    await forum.ctx.settings.set({ registrationApprovalType: 'admin-approval' });
    const a = fresh();
    const b = fresh();
    for (const body of [a, b]) {
      const res = await forum.client().post('/register', body);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ uid: 0, message: '[[register:registration-added-to-queue]]' });
      expect(await forum.ctx.users.byUsername(body.username)).toBeNull();
    }
    // The name is held while it waits.
    expect((await forum.client().post('/register', { ...fresh(), username: a.username })).body.status.key).toBe('error:username-taken');
    // And the form's availability check, as the name is typed, says so too.
    expect((await forum.client().request('HEAD', `/api/v3/users/bySlug/${encodeURIComponent(a.username.toUpperCase())}`)).status).toBe(200);

    const admin = await forum.member({ admin: true });
    const member = await forum.member();
    expect((await member.client.get('/api/admin/manage/registration')).status).toBe(403);
    expect((await member.client.put(`/api/v3/admin/registration-queue/${a.username}`, {})).status).toBe(403);
    const page = await admin.client.get('/api/registration-queue');
    expect(page.status).toBe(200);
    expect(page.body.registrationQueueCount).toBe(2);
    expect(page.body.users.map((u: { username: string }) => u.username)).toEqual([a.username, b.username]);
    expect(page.body.users[0]).toMatchObject({ email: a.email, customActions: [] });

    const accepted = await admin.client.put(`/api/v3/admin/registration-queue/${a.username}`, {});
    expect(accepted.status).toBe(200);
    const row = await forum.ctx.users.byUsername(a.username);
    expect(row?.uid).toBe(accepted.body.response.uid);
    // The password chosen at registration works.
    expect((await forum.client().post('/login', { username: a.username, password: PASSWORD })).status).toBe(200);
    const mails = await deliver(a.email);
    expect(mails.map((m) => m.subject)).toContain('Your registration on Palaver was accepted');

    expect((await admin.client.del(`/api/v3/admin/registration-queue/${b.username}`)).status).toBe(200);
    expect(await forum.ctx.users.byUsername(b.username)).toBeNull();
    expect((await admin.client.del(`/api/v3/admin/registration-queue/${b.username}`)).status).toBe(404);
    expect((await admin.client.get('/api/admin/manage/registration')).body.registrationQueueCount).toBe(0);
  });

  it('admin-approval-ip: only an address a member registered from waits', async () => {
    await forum.ctx.settings.set({ registrationApprovalType: 'admin-approval-ip' });
    const from = { headers: { 'x-forwarded-for': '10.77.0.9' } };
    const first = await forum.client().post('/register', fresh(), from);
    expect(first.body.uid).toBeGreaterThan(0);
    expect((await forum.client().post('/register', fresh(), { headers: { 'x-forwarded-for': '10.77.0.10' } })).body.uid).toBeGreaterThan(0);
    const second = await forum.client().post('/register', fresh(), from);
    expect(second.body).toMatchObject({ uid: 0, message: '[[register:registration-added-to-queue]]' });
    const admin = await forum.member({ admin: true });
    const page = await admin.client.get('/api/registration-queue');
    expect(page.body.users.at(-1).ipMatch.map((u: { uid: number }) => u.uid)).toContain(first.body.uid);
  });

  it('reports a queued registration as spam (admins only), recorded in the event log', async () => {
    await forum.ctx.settings.set({ registrationApprovalType: 'admin-approval' });
    const body = fresh();
    await forum.client().post('/register', body);
    const member = await forum.member();
    expect((await member.client.post(`/api/user/${body.username}/spam-be-gone/report/queue`, {})).status).toBe(403);
    const admin = await forum.member({ admin: true });
    expect((await admin.client.post(`/api/user/${body.username}/spam-be-gone/report/queue`, {})).status).toBe(200);
    expect((await admin.client.post('/api/user/nobody-queued/spam-be-gone/report/queue', {})).status).toBe(404);
    const events = await forum.ctx.events.recent(10, 'spam-report-queue');
    expect(events.some((e) => JSON.stringify(e).includes(body.username))).toBe(true);
  });

  it('a spam report rejects the registration and blocks its address and email, as the admin chooses; both then refuse registration', async () => {
    await forum.ctx.settings.set({ registrationApprovalType: 'admin-approval' });
    const admin = await forum.member({ admin: true });
    const spam = { ...fresh(), email: `spammer${++n}@example.com` };
    await forum.client().post('/register', spam, { headers: { 'x-forwarded-for': '10.66.0.1' } });
    expect((await admin.client.post(`/api/user/${spam.username}/spam-be-gone/report/queue`, {})).status).toBe(200);
    // Rejected: gone from the queue, no account.
    expect((await admin.client.get('/api/admin/manage/registration')).body.users.map((u: { username: string }) => u.username)).not.toContain(spam.username);
    expect(await forum.ctx.users.byUsername(spam.username)).toBeNull();
    expect((await forum.ctx.moderation.blacklist.view()).rules.split('\n')).toContain('10.66.0.1');
    expect((await forum.ctx.settings.get()).registrationEmailBlacklist.split('\n')).toContain(spam.email);
    // The address is refused, whatever the IP; the IP is refused, whatever the address.
    const again = await forum.client().post('/register', { ...fresh(), email: spam.email.toUpperCase() }, { headers: { 'x-forwarded-for': '10.66.0.2' } });
    expect(again.status).toBe(403);
    expect(again.body.status?.key ?? again.body.error).toMatch(/blacklisted-email|may not be used/);
    const fromIp = await forum.client().post('/register', fresh(), { headers: { 'x-forwarded-for': '10.66.0.1' } });
    expect(fromIp.status).toBe(403);

    // The admin may block only the email: the address stays open.
    const second = { ...fresh(), email: `spammer${++n}@example.com` };
    await forum.client().post('/register', second, { headers: { 'x-forwarded-for': '10.66.0.3' } });
    expect((await admin.client.post(`/api/user/${second.username}/spam-be-gone/report/queue`, { blockIp: false, blockEmail: true })).status).toBe(200);
    expect((await forum.ctx.moderation.blacklist.view()).rules.split('\n')).not.toContain('10.66.0.3');
    expect((await forum.ctx.settings.get()).registrationEmailBlacklist.split('\n')).toContain(second.email);
    await forum.ctx.moderation.blacklist.save(admin.user.uid, '', '127.0.0.1');
    await forum.ctx.settings.set({ registrationEmailBlacklist: '' });
  });
});

describe('invitations', () => {
  const tokenOf = (mail: ReceivedMail) => /\/register\?token=([\w-]+)/.exec(mail.text)![1]!;

  beforeAll(async () => {
    // As in NodeBB, members invite only with the global privilege an admin gives them.
    await forum.ctx.privileges.give(0, ['invite'], 'registered-users');
  });

  it('invite-only: the mail links to a registration that works once; an expired link is refused', async () => {
    await forum.ctx.settings.set({ registrationType: 'invite-only' });
    const inviter = await forum.member();
    const email = `invited${process.pid % 1000}x${++n}@example.com`;
    const res = await inviter.client.post(`/api/v3/users/${inviter.user.uid}/invites`, { emails: email });
    expect(res.status).toBe(200);
    const [mail] = await deliver(email);
    expect(mail!.subject).toBe(`${inviter.user.username} invites you to join Palaver`);
    const token = tokenOf(mail!);

    const page = await forum.client().get(`/api/register?token=${token}`);
    expect(page.body).toMatchObject({ canRegister: true, token, invitedEmail: email });
    const body = { ...fresh(), email, token };
    const ok = await forum.client().post('/register', body);
    expect(ok.status).toBe(200);
    expect(ok.body.uid).toBeGreaterThan(0);
    const reused = await forum.client().post('/register', { ...fresh(), token });
    expect(reused.status).toBe(400);
    expect(reused.body.status.key).toBe('register:invite.error-invalid-data');

    const late = `late${++n}@example.com`;
    await inviter.client.post(`/api/v3/users/${inviter.user.uid}/invites`, { emails: late });
    const lateToken = tokenOf((await deliver(late))[0]!);
    await forum.ctx.db.updateTable('invitations').set({ expires: Date.now() - 1 }).where('email', '=', late).execute();
    expect((await forum.client().post('/register', { ...fresh(), token: lateToken })).body.status.key).toBe('register:invite.error-invalid-data');
  });

  it('admin-invite-only: members may not invite, admins may; members are held to maximumInvites', async () => {
    await forum.ctx.settings.set({ registrationType: 'admin-invite-only' });
    const member = await forum.member();
    expect((await member.client.post(`/api/v3/users/${member.user.uid}/invites`, { emails: 'x1@example.com' })).status).toBe(403);
    // The users page offers the invite form to whoever may invite (NodeBB's showInviteButton).
    expect((await member.client.get('/api/users')).body.showInviteButton).toBe(false);
    expect((await forum.client().get('/api/users')).body.showInviteButton).toBe(false);
    const admin = await forum.member({ admin: true });
    expect((await admin.client.post(`/api/v3/users/${admin.user.uid}/invites`, { emails: 'x2@example.com, x3@example.com' })).status).toBe(200);
    expect((await admin.client.post(`/api/v3/users/${member.user.uid}/invites`, { emails: 'x4@example.com' })).status).toBe(403);
    expect((await admin.client.post(`/api/v3/users/${admin.user.uid}/invites`, { emails: 'not-an-address' })).body.status.key).toBe('error:invalid-email');

    expect((await admin.client.get('/api/users')).body.showInviteButton).toBe(true);

    await forum.ctx.settings.set({ registrationType: 'normal', maximumInvites: 1 });
    expect((await member.client.get('/api/users')).body.showInviteButton).toBe(true);
    expect((await member.client.post(`/api/v3/users/${member.user.uid}/invites`, { emails: 'y1@example.com' })).status).toBe(200);
    const over = await member.client.post(`/api/v3/users/${member.user.uid}/invites`, { emails: 'y2@example.com' });
    expect(over.status).toBe(403);
    expect(over.body.status.key).toBe('error:invite-limit-reached');
  });
});

describe('terms, consent and the honeypot', () => {
  it('requires accepting the terms and consent when set, and records both with their time', async () => {
    await forum.ctx.settings.set({ termsOfUse: '# Rules\n\nBe **kind**.', gdpr_enabled: true });
    const page = await forum.client().get('/api/register');
    expect(page.body.termsOfUse).toContain('<strong>kind</strong>');
    expect((await forum.client().post('/register', fresh())).body.status.key).toBe('register:terms_of_use_error');
    expect((await forum.client().post('/register', { ...fresh(), 'agree-terms': true })).body.status.key).toBe('register:gdpr-consent-denied');
    const before = Date.now();
    const body = { ...fresh(), 'agree-terms': true, gdpr_consent: true };
    const client = forum.client();
    const res = await client.post('/register', body);
    expect(res.status).toBe(200);
    const consent = await client.get(`/api/user/${body.username}/consent`);
    expect(consent.status).toBe(200);
    expect(consent.body).toMatchObject({ gdpr_consent: true, digest: { frequency: 'off', enabled: false } });
    expect(consent.body.gdpr_at).toBeGreaterThanOrEqual(before);
    expect(consent.body.tos_at).toBeGreaterThanOrEqual(before);
    // Another member sees nothing of it.
    const other = await forum.member();
    expect((await other.client.get(`/api/user/${body.username}/consent`)).status).toBe(403);
  });

  it('lets a member without consent give it from the consent page', async () => {
    const m = await forum.member();
    expect((await m.client.get(`/api/user/${m.user.userslug}/consent`)).body.gdpr_consent).toBe(false);
    expect((await m.client.put(`/api/v3/users/${m.user.uid}/consent`, {})).status).toBe(200);
    expect((await m.client.get(`/api/user/${m.user.userslug}/consent`)).body.gdpr_consent).toBe(true);
    const other = await forum.member();
    expect((await other.client.put(`/api/v3/users/${m.user.uid}/consent`, {})).status).toBe(403);
  });

  it('refuses a filled honeypot with a neutral error and logs the event', async () => {
    const body = { ...fresh(), website: 'http://spam.example' };
    const res = await forum.client().post('/register', body);
    expect(res.status).toBe(400);
    expect(res.body.status.key).toBe('error:registration-failed');
    expect(await forum.ctx.users.byUsername(body.username)).toBeNull();
    const events = await forum.ctx.events.recent(10, 'registration-honeypot');
    expect(events.some((e) => JSON.stringify(e).includes(body.username))).toBe(true);
  });
});

describe('the language a newcomer read the forum in', () => {
  it("is kept as the new member's setting, and not when it is the forum's", async () => {
    const german = forum.client();
    const a = fresh();
    expect((await german.request('POST', '/register', a, { headers: { 'accept-language': 'de-DE,de;q=0.9' } })).status).toBe(200);
    expect(JSON.parse((await forum.ctx.users.byUsername(a.username))!.settings)).toMatchObject({ userLang: 'de' });
    const english = forum.client();
    const c = fresh();
    expect((await english.request('POST', '/register', c, { headers: { 'accept-language': 'en-GB' } })).status).toBe(200);
    expect(JSON.parse((await forum.ctx.users.byUsername(c.username))!.settings)).toEqual({});
  });
});
