import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestForum, TEST_PASSWORD, type TestForum } from '../../test/harness.js';
import { TestSmtp, type ReceivedMail } from '../mail/test-smtp.js';

let forum: TestForum;
let smtp: TestSmtp;
let n = 0;
beforeAll(async () => {
  smtp = await new TestSmtp().start();
  forum = await startTestForum({ settings: { smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecurity: 'none', smtpFrom: 'forum@example.com' } });
});
afterAll(async () => {
  await forum?.close();
  await smtp?.stop();
});
beforeEach(async () => {
  await forum.ctx.hooks.idle();
  await forum.ctx.mail.sendDue();
  smtp.received = [];
});

async function deliver(to: string): Promise<ReceivedMail[]> {
  await forum.ctx.hooks.idle();
  await forum.ctx.mail.sendDue();
  return smtp.received.filter((m) => m.to.includes(to));
}

const whoAmI = async (client: ReturnType<TestForum['client']>) => ((await client.get('/api/config')).body as { uid: number }).uid;

describe('password change', () => {
  it('refuses a wrong current password and a weak or short new one with their keys', async () => {
    const { client, user } = await forum.loginAs();
    const url = `/api/v3/users/${user.uid}/password`;
    expect((await client.put(url, { currentPassword: 'wrong-one', newPassword: 'Another-Horse-77' })).body.status.key).toBe('user:change-password-error-wrong-current');
    expect((await client.put(url, { currentPassword: TEST_PASSWORD, newPassword: 'abc' })).body.status.key).toBe('reset_password:password-too-short');
    await forum.ctx.settings.set({ minimumPasswordStrength: 3 });
    try {
      expect((await client.put(url, { currentPassword: TEST_PASSWORD, newPassword: 'password1' })).body.status.key).toBe('user:weak-password');
    } finally {
      await forum.ctx.settings.set({ minimumPasswordStrength: 1 });
    }
    expect((await client.put(url, { currentPassword: TEST_PASSWORD, newPassword: 'x'.repeat(513) })).body.status.key).toBe('error:password-too-long');
    const page = await client.get(`/api/user/${user.userslug}/edit/password`);
    expect(page.body).toMatchObject({ template: { name: 'account/edit/password' }, isSelf: true, hasPassword: true, minimumPasswordLength: 6 });
  });

  it('ends the other sessions and keeps this one; the new password logs in', async () => {
    const user = await forum.createUser();
    const { client: other } = await forum.loginAs(user);
    const { client } = await forum.loginAs(user);
    expect((await client.put(`/api/v3/users/${user.uid}/password`, { currentPassword: TEST_PASSWORD, newPassword: 'Another-Horse-77' })).status).toBe(200);
    expect(await whoAmI(other)).toBe(0);
    expect(await whoAmI(client)).toBe(user.uid);
    expect((await forum.client().post('/login', { username: user.username, password: 'Another-Horse-77' })).status).toBe(200);
  });

  it("revokes the member's API tokens, as a reset does", async () => {
    const { client, user } = await forum.loginAs();
    const api = forum.client();
    api.bearer = (await client.post(`/api/v3/users/${user.uid}/tokens`, { description: 'bot' })).body.response.token;
    expect((await api.get(`/api/v3/users/${user.uid}/emails`)).status).toBe(200);
    expect((await client.put(`/api/v3/users/${user.uid}/password`, { currentPassword: TEST_PASSWORD, newPassword: 'Another-Horse-77' })).status).toBe(200);
    const after = await api.get(`/api/v3/users/${user.uid}/emails`);
    expect(after.status).toBe(401);
    expect(after.body.status.key).toBe('error:invalid-token');
  });
});

describe('username change', () => {
  it('changes the name, keeps the old one in the history, and the old profile address is gone', async () => {
    const { client, user } = await forum.loginAs();
    const name = `renamed${++n}`;
    const res = await client.put(`/api/v3/users/${user.uid}`, { username: name });
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ username: name, userslug: name });
    expect((await client.get(`/api/user/${user.userslug}`)).status).toBe(404);
    const page = await client.get(`/api/user/${name}/edit/username`);
    expect(page.body.template.name).toBe('account/edit/username');
    expect(page.body.history.map((h: { username: string }) => h.username)).toEqual([user.username]);
  });

  it('refuses a taken, a reserved, a too long and an invalid name with their keys', async () => {
    const taken = await forum.createUser();
    const { client, user } = await forum.loginAs();
    const put = (username: string) => client.put(`/api/v3/users/${user.uid}`, { username });
    expect((await put(taken.username.toUpperCase())).body.status.key).toBe('error:username-taken');
    expect((await put('Administrators')).body.status.key).toBe('error:username-reserved');
    expect((await put('x'.repeat(40))).body.status.key).toBe('error:username-too-long');
    expect((await put('bad<name>')).body.status.key).toBe('error:invalid-username');
    const { client: stranger } = await forum.loginAs();
    expect((await stranger.put(`/api/v3/users/${user.uid}`, { username: `hijack${++n}` })).status).toBe(403);
  });

  it('two members renaming to one name at once: one gets it, the other the taken error (never a 500)', async () => {
    const pairs = await Promise.all(Array.from({ length: 6 }, async () => [await forum.loginAs(), await forum.loginAs()] as const));
    const results = await Promise.all(
      pairs.map(async ([a, b], i) => {
        const name = `raced${++n}x${i}`;
        const answers = await Promise.all([a, b].map(({ client, user }) => client.put(`/api/v3/users/${user.uid}`, { username: name })));
        return { name, answers, owners: await Promise.all([a, b].map(async ({ user }) => (await forum.ctx.users.get(user.uid))!.username)) };
      }),
    );
    for (const { name, answers, owners } of results) {
      expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
      expect(answers.find((r) => r.status === 400)!.body.status.key).toBe('error:username-taken');
      expect(owners.filter((o) => o === name)).toHaveLength(1);
    }
  });

  it('holds a member to the cool-down between two changes; an admin is not held', async () => {
    await forum.ctx.settings.set({ usernameChangeCooldownDays: 30 });
    try {
      const { client, user } = await forum.loginAs();
      expect((await client.put(`/api/v3/users/${user.uid}`, { username: `first${++n}` })).status).toBe(200);
      const again = await client.put(`/api/v3/users/${user.uid}`, { username: `second${n}` });
      expect(again.status).toBe(400);
      expect(again.body.status.key).toBe('error:username-change-cooldown');
      const { client: admin } = await forum.loginAs({ admin: true });
      expect((await admin.put(`/api/v3/users/${user.uid}`, { username: `third${n}` })).status).toBe(200);
    } finally {
      await forum.ctx.settings.set({ usernameChangeCooldownDays: 0 });
    }
  });
});

describe('email change', () => {
  it('mails the new address; the old one keeps working until the link is followed', async () => {
    const oldEmail = `old${++n}@example.com`;
    const user = await forum.createUser({ email: oldEmail });
    const { client } = await forum.loginAs(user);
    const newEmail = `new${n}@example.com`;
    expect((await client.post(`/api/v3/users/${user.uid}/emails`, { email: newEmail, password: 'wrong' })).body.status.key).toBe('user:change-password-error-wrong-current');
    const res = await client.post(`/api/v3/users/${user.uid}/emails`, { email: newEmail, password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.response).toEqual({ emails: [oldEmail] });

    // Until confirmed: the account is still the old address's (login by it works, the new one does not).
    expect((await forum.client().post('/login', { username: oldEmail, password: TEST_PASSWORD })).status).toBe(200);
    expect((await forum.client().post('/login', { username: newEmail, password: TEST_PASSWORD })).status).toBe(403);
    const page = await client.get(`/api/user/${user.userslug}/edit/email`);
    expect(page.body).toMatchObject({ template: { name: 'account/edit/email' }, email: oldEmail, pendingEmail: newEmail });

    const [mail] = await deliver(newEmail);
    expect(mail!.subject).toBe('Please confirm your email address for Palaver');
    const path = new RegExp(`${forum.ctx.config.url}(/confirm/[\\w-]+)`).exec(mail!.text)![1]!;
    expect((await forum.client().post(path, {})).status).toBe(200);
    const after = (await client.get(`/api/v3/users/${user.uid}/emails`)).body.response;
    expect(after).toEqual({ emails: [newEmail] });
    expect((await forum.client().post('/login', { username: newEmail, password: TEST_PASSWORD })).status).toBe(200);
    expect((await forum.client().post('/login', { username: oldEmail, password: TEST_PASSWORD })).status).toBe(403);
    // No welcome mail: the member is not new.
    expect((await deliver(newEmail)).map((m) => m.subject)).not.toContain('Welcome to Palaver');
  });

  it('refuses a taken, an invalid or the same address; a change lost to another member leaves the old one', async () => {
    const other = await forum.createUser({ email: `taken${++n}@example.com` });
    const user = await forum.createUser({ email: `mine${n}@example.com` });
    const { client } = await forum.loginAs(user);
    const post = (email: string) => client.post(`/api/v3/users/${user.uid}/emails`, { email, password: TEST_PASSWORD });
    expect((await post(other.email!)).body.status.key).toBe('error:email-taken');
    expect((await post('not-an-address')).body.status.key).toBe('error:invalid-email');
    expect((await post(user.email!)).body.status.key).toBe('error:email-same');
    const wanted = `wanted${n}@example.com`;
    expect((await post(wanted)).status).toBe(200);
    const [mail] = await deliver(wanted);
    // Someone else takes the address before the link is followed.
    const { client: admin } = await forum.loginAs({ admin: true });
    expect((await admin.post(`/api/v3/users/${other.uid}/emails`, { email: wanted, skipConfirmation: true })).status).toBe(200);
    const path = new RegExp(`${forum.ctx.config.url}(/confirm/[\\w-]+)`).exec(mail!.text)![1]!;
    expect((await forum.client().post(path, {})).body.status.key).toBe('error:email-taken');
    expect((await forum.ctx.users.get(user.uid))!.email).toBe(user.email);
  });

  it('PUT /api/v3/users/:uid {email} needs the password and changes nothing until the new address is confirmed; the old one is told', async () => {
    const oldEmail = `put-old${++n}@example.com`;
    const user = await forum.createUser({ email: oldEmail });
    const { client } = await forum.loginAs(user);
    const newEmail = `put-new${n}@example.com`;
    for (const body of [{ email: newEmail }, { email: newEmail, password: 'not-my-password' }]) {
      const refused = await client.put(`/api/v3/users/${user.uid}`, body);
      expect(refused.status).toBe(400);
      expect(refused.body.status.key).toBe('user:change-password-error-wrong-current');
    }
    expect((await forum.ctx.users.get(user.uid))!.email).toBe(oldEmail);
    expect(await deliver(newEmail)).toEqual([]);

    const res = await client.put(`/api/v3/users/${user.uid}`, { email: newEmail, password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.response.email).toBe(oldEmail);
    expect((await forum.ctx.users.get(user.uid))!.email).toBe(oldEmail);
    // A reset asked for now goes to the old address: the account is still its.
    expect((await forum.client().post('/login', { username: newEmail, password: TEST_PASSWORD })).status).toBe(403);
    const notice = (await deliver(oldEmail)).find((m) => m.subject === 'A change of your email address on Palaver');
    expect(notice?.text).toContain(newEmail);
    expect(notice?.text).toContain(`/user/${user.userslug}/edit/password`);
    const [mail] = await deliver(newEmail);
    const path = new RegExp(`${forum.ctx.config.url}(/confirm/[\\w-]+)`).exec(mail!.text)![1]!;
    expect((await forum.client().post(path, {})).status).toBe(200);
    expect((await forum.ctx.users.get(user.uid))!.email).toBe(newEmail);
  });

  it('removing the address needs the password too; the removed address is told', async () => {
    const email = `clear${++n}@example.com`;
    const user = await forum.createUser({ email });
    const { client } = await forum.loginAs(user);
    expect((await client.put(`/api/v3/users/${user.uid}`, { email: '' })).body.status.key).toBe('user:change-password-error-wrong-current');
    expect((await forum.ctx.users.get(user.uid))!.email).toBe(email);
    expect((await client.put(`/api/v3/users/${user.uid}`, { email: '', password: TEST_PASSWORD })).status).toBe(200);
    expect((await forum.ctx.users.get(user.uid))!.email).toBeNull();
    expect((await deliver(email)).map((m) => m.subject)).toContain('Your email address was removed on Palaver');
  });

  it("an admin changes another member's address without a password (confirmed by the new address), but gives their own for their own", async () => {
    const { client: admin, user: me } = await forum.loginAs({ admin: true });
    const member = await forum.createUser({ email: `member${++n}@example.com` });
    const wanted = `by-admin${n}@example.com`;
    expect((await admin.put(`/api/v3/users/${member.uid}`, { email: wanted })).status).toBe(200);
    expect((await forum.ctx.users.get(member.uid))!.email).toBe(member.email);
    expect((await deliver(wanted)).map((m) => m.subject)).toContain('Please confirm your email address for Palaver');
    const own = `admin-own${n}@example.com`;
    expect((await admin.put(`/api/v3/users/${me.uid}`, { email: own })).body.status.key).toBe('user:change-password-error-wrong-current');
    expect((await admin.post(`/api/v3/users/${me.uid}/emails`, { email: own })).body.status.key).toBe('user:change-password-error-wrong-current');
    expect((await admin.post(`/api/v3/users/${me.uid}/emails`, { email: own, password: TEST_PASSWORD })).status).toBe(200);
  });

  it('sends at most one confirmation mail every few minutes per member, with a translated error', async () => {
    const user = await forum.createUser({ email: `throttle${++n}@example.com` });
    const { client } = await forum.loginAs(user);
    expect((await client.post(`/api/v3/users/${user.uid}/emails`, { email: `throttle-a${n}@example.com`, password: TEST_PASSWORD })).status).toBe(200);
    for (const again of [
      await client.post(`/api/v3/users/${user.uid}/emails`, { email: `throttle-b${n}@example.com`, password: TEST_PASSWORD }),
      await client.put(`/api/v3/users/${user.uid}`, { email: `throttle-c${n}@example.com`, password: TEST_PASSWORD }),
    ]) {
      expect(again.status).toBe(429);
      expect(again.body.status.key).toBe('error:confirm-email-already-sent');
      expect(again.body.status.message).toBe('A confirmation email was sent a short while ago: please wait 10 minute(s) before asking for another one.');
    }
    expect(await deliver(`throttle-b${n}@example.com`)).toEqual([]);
    expect(await deliver(`throttle-c${n}@example.com`)).toEqual([]);
    // Another member is not held back.
    const { client: other, user: otherUser } = await forum.loginAs();
    expect((await other.post(`/api/v3/users/${otherUser.uid}/emails`, { email: `throttle-d${n}@example.com`, password: TEST_PASSWORD })).status).toBe(200);
  });
});
