import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { startTestForum, TEST_PASSWORD, type TestForum } from '../../test/harness.js';
import { configCommand } from '../settings/cli.js';
import { backoff } from './service.js';
import { TestSmtp, type ReceivedMail } from './test-smtp.js';

const NEW_PASSWORD = 'Brand-New-Horse-77';

// The forum sends to a real SMTP server (smtp-server) on a loopback port; links in the mails
// are followed over real HTTP.
describe('mail', () => {
  let forum: TestForum;
  let smtp: TestSmtp;
  let n = 0;

  beforeAll(async () => {
    smtp = await new TestSmtp().start();
    forum = await startTestForum({ settings: { smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecurity: 'none', smtpUser: 'palaver', smtpPassword: 'smtp-pass-123', smtpFrom: 'forum@example.com' } });
  });
  afterAll(async () => {
    await forum?.close();
    await smtp?.stop();
  });
  beforeEach(async () => {
    // Earlier tests' mails (welcome, confirmations of other members) are out of the way.
    await forum.ctx.hooks.idle();
    await forum.ctx.mail.sendDue();
    smtp.received = [];
    smtp.refuse = false;
  });

  /** Sends what is due and returns the mails the SMTP server got for an address. */
  async function deliver(to: string): Promise<ReceivedMail[]> {
    await forum.ctx.hooks.idle();
    await forum.ctx.mail.sendDue();
    return smtp.received.filter((m) => m.to.includes(to));
  }
  /** The forum path of the first link to `prefix` in a mail's text. */
  function linkPath(mail: ReceivedMail, prefix: string): string {
    const m = new RegExp(`${forum.ctx.config.url}(${prefix}[\\w.-]+)`).exec(mail.text);
    expect(m, mail.text).not.toBeNull();
    return m![1]!;
  }
  const outbox = () => forum.ctx.db.selectFrom('mail_outbox').selectAll().orderBy('id').execute();

  it('sends a confirmation mail on registration whose link confirms the address once', async () => {
    const email = `reg${++n}@example.com`;
    const client = forum.client();
    const res = await client.post('/register', { username: `reg${n}x`, email, password: TEST_PASSWORD, 'password-confirm': TEST_PASSWORD });
    expect(res.status).toBe(200);
    const [mail, ...more] = await deliver(email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Please confirm your email address for Palaver');
    expect(mail!.text).toContain(`Hello reg${n}x,`);
    expect(mail!.text).toContain('expires in 24 hours');
    expect(mail!.html).toContain('<a href="http://127.0.0.1/confirm/');
    expect(mail!.headers).toMatch(/^From: forum@example.com/m);
    // The server's AUTH saw the configured account.
    expect(smtp.logins).toContain('palaver:smtp-pass-123');
    const uid = res.body.uid as number;
    expect((await client.get(`/api/v3/users/${uid}`)).body.response['email:confirmed']).toBe(0);

    const path = linkPath(mail!, '/confirm/');
    // Opening the link (a mail scanner does) only shows the button: nothing is confirmed yet.
    const visitor = forum.client();
    for (const open of [await visitor.get(`/api${path}`), await visitor.get(`/api${path}`)]) {
      expect(open.status).toBe(200);
      expect(open.body).toMatchObject({ template: { name: 'confirm' }, title: 'Email confirmation', code: path.slice('/confirm/'.length) });
      expect(open.body.error).toBeUndefined();
    }
    expect((await visitor.get(path)).text).toContain('Email confirmation');
    expect((await client.get(`/api/v3/users/${uid}`)).body.response['email:confirmed']).toBe(0);
    // The button POSTs the code (with the page's CSRF token, as every form of the site).
    expect((await visitor.post(path, {}, { csrf: false })).status).toBe(403);
    expect((await visitor.post(path, {})).body).toEqual({ confirmed: true });
    expect((await client.get(`/api/v3/users/${uid}`)).body.response['email:confirmed']).toBe(1);
    // Single use.
    expect((await forum.client().post(path, {})).body.status.key).toBe('error:confirm-code-invalid');
    expect((await forum.client().get(`/api${path}`)).body).toMatchObject({ error: 'error:confirm-code-invalid', code: '' });
    // And the welcome mail follows the confirmation.
    const welcome = (await deliver(email)).find((m) => m.subject === 'Welcome to Palaver');
    expect(welcome?.text).toContain('Your email address is confirmed. Welcome to Palaver!');
  });

  it('asks a member who changes their address to confirm the new one; the old link no longer works', async () => {
    const user = await forum.createUser({ email: `old${++n}@example.com` });
    const [first] = await deliver(user.email!);
    const oldPath = linkPath(first!, '/confirm/');
    const { client } = await forum.loginAs(user);
    const email = `new${n}@example.com`;
    // A confirmed address, then a new one: the old one stays, confirmed, until the new one's link is followed.
    await forum.ctx.db.updateTable('users').set({ email_confirmed: 1 }).where('uid', '=', user.uid).execute();
    expect((await client.put(`/api/v3/users/${user.uid}`, { email, password: TEST_PASSWORD })).status).toBe(200);
    expect((await client.get(`/api/v3/users/${user.uid}`)).body.response).toMatchObject({ email: user.email, 'email:confirmed': 1 });
    const [mail] = await deliver(email);
    expect(mail!.subject).toBe('Please confirm your email address for Palaver');
    expect((await forum.client().get(`/api${oldPath}`)).body).toMatchObject({ error: 'error:confirm-code-invalid' });
    expect((await forum.client().post(linkPath(mail!, '/confirm/'), {})).status).toBe(200);
    expect((await client.get(`/api/v3/users/${user.uid}`)).body.response).toMatchObject({ email, 'email:confirmed': 1 });
  });

  it('resets a password end to end: mail, page, new password, other sessions ended, code used once', async () => {
    const user = await forum.createUser({ email: `reset${++n}@example.com` });
    const { client: signedIn } = await forum.loginAs(user);
    expect((await signedIn.get('/api/config')).body.uid).toBe(user.uid);

    const asker = forum.client();
    expect((await asker.post('/reset', { email: user.email })).body).toEqual({ sent: true });
    // An unknown address gets the same answer and no mail.
    expect((await asker.post('/reset', { email: 'nobody-here@example.com' })).body).toEqual({ sent: true });
    const mails = (await deliver(user.email!)).filter((m) => m.subject === 'Reset your password on Palaver');
    expect(mails).toHaveLength(1);
    expect(smtp.received.some((m) => m.to.includes('nobody-here@example.com'))).toBe(false);
    expect(mails[0]!.text).toContain('expires in 120 minutes');
    const path = linkPath(mails[0]!, '/reset/');

    const page = await asker.get(`/api${path}`);
    expect(page.body).toMatchObject({ template: { name: 'reset_code' }, valid: true, error: '', minimumPasswordLength: 6 });
    // A password the rules refuse leaves the code usable.
    expect((await asker.post(path, { password: 'abc', 'password-confirm': 'abc' })).status).toBe(400);
    expect((await asker.post(path, { password: NEW_PASSWORD, 'password-confirm': 'something-else' })).body.status.key).toBe('reset_password:passwords-do-not-match');
    const done = await asker.post(path, { password: NEW_PASSWORD, 'password-confirm': NEW_PASSWORD });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ next: '/login' });

    // The member's other session is over; the new password works, the old one does not.
    expect((await signedIn.get('/api/config')).body.uid).toBe(0);
    expect((await forum.client().post('/login', { username: user.username, password: TEST_PASSWORD })).status).toBe(403);
    expect((await forum.client().post('/login', { username: user.username, password: NEW_PASSWORD })).status).toBe(200);
    // The code worked once.
    const again = await asker.post(path, { password: 'Another-Horse-88', 'password-confirm': 'Another-Horse-88' });
    expect(again.status).toBe(400);
    expect(again.body.status.key).toBe('error:reset-code-invalid');
    expect((await asker.get(`/api${path}`)).body).toMatchObject({ valid: false, error: 'error:reset-code-invalid', code: '' });
    // An unknown code is a 400 with its key, on the page and on the form.
    expect((await asker.post('/reset/not-a-real-code-at-all', { password: NEW_PASSWORD })).body.status.key).toBe('error:reset-code-invalid');
    const unknownPage = await asker.get('/reset/not-a-real-code-at-all');
    expect(unknownPage.status).toBe(200);
    expect(unknownPage.text).toContain('error:reset-code-invalid');
  });

  it('refuses an expired reset code with its own message, and a newer request voids the older link', async () => {
    const user = await forum.createUser({ email: `expire${++n}@example.com` });
    await forum.client().post('/reset', { email: user.email });
    const [first] = (await deliver(user.email!)).filter((m) => m.subject.startsWith('Reset'));
    // Asked again at once: no second mail (one a minute per member).
    await forum.client().post('/reset', { email: user.email });
    expect((await deliver(user.email!)).filter((m) => m.subject.startsWith('Reset'))).toHaveLength(1);
    // A minute later (the first code's time moved back), a new link, and the old one stops working.
    await forum.ctx.db.updateTable('mail_codes').set({ created: Date.now() - 61_000 }).where('uid', '=', user.uid).where('kind', '=', 'reset').execute();
    await forum.client().post('/reset', { email: user.email });
    const second = (await deliver(user.email!)).filter((m) => m.subject.startsWith('Reset'))[1]!;
    const firstPath = linkPath(first!, '/reset/');
    expect((await forum.client().get(`/api${firstPath}`)).body).toMatchObject({ valid: false, error: 'error:reset-code-invalid' });

    // The clock moves past the expiry (the row's time, not a sleep).
    await forum.ctx.db.updateTable('mail_codes').set({ expires: Date.now() - 1 }).where('uid', '=', user.uid).where('kind', '=', 'reset').execute();
    const path = linkPath(second, '/reset/');
    expect((await forum.client().get(`/api${path}`)).body).toMatchObject({ valid: false, error: 'error:reset-code-expired' });
    const res = await forum.client().post(path, { password: NEW_PASSWORD, 'password-confirm': NEW_PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body.status).toMatchObject({ key: 'error:reset-code-expired', message: 'This password-reset link has expired. Ask for a new one.' });
  });

  it('mails a notification with a link and a signed one-click unsubscribe that turns that mail off', async () => {
    const user = await forum.createUser({ email: `notify${++n}@example.com` });
    await deliver(user.email!);
    smtp.received = [];
    expect(await forum.ctx.mail.sendNotification(user, { type: 'new-reply', text: 'alice replied to <Hello>', path: '/topic/12/hello' })).toBeGreaterThan(0);
    const [mail] = await deliver(user.email!);
    expect(mail!.subject).toBe('[Palaver] alice replied to <Hello>');
    expect(mail!.text).toContain('Open it: http://127.0.0.1/topic/12/hello');
    expect(mail!.html).toContain('alice replied to &#60;Hello&#62;');
    expect(mail!.headers).toMatch(/^List-Unsubscribe:\s*<http:\/\/127\.0\.0\.1\/email\/unsubscribe\//m);
    expect(mail!.headers).toMatch(/^List-Unsubscribe-Post:\s*List-Unsubscribe=One-Click/m);
    const path = linkPath(mail!, '/email/unsubscribe/');

    // A token signed for another member or type is refused.
    const forged = path.replace(`/${user.uid}.`, `/${user.uid + 1}.`);
    expect((await forum.client().get(`/api${forged}`)).body).toMatchObject({ unsubscribed: false, error: 'error:unsubscribe-invalid', token: '' });
    expect((await forum.client().get(`/api${path.replace('new-reply', 'new-topic')}`)).body.error).toBe('error:unsubscribe-invalid');
    expect((await forum.client().post(forged, { 'List-Unsubscribe': 'One-Click' }, { csrf: false, form: true })).body.status.key).toBe('error:unsubscribe-invalid');

    // Opening the link (a mail scanner does) only shows the button.
    const page = await forum.client().get(`/api${path}`);
    expect(page.body).toMatchObject({ template: { name: 'unsubscribe' }, unsubscribed: false, error: '', token: path.slice('/email/unsubscribe/'.length), payload: { uid: user.uid, template: 'notification', type: 'new-reply' } });
    expect(await forum.ctx.mail.sendNotification(user, { type: 'new-reply', text: 'still mailed', path: '/topic/12' })).toBeGreaterThan(0);
    // The mail client's one-click POST (RFC 8058: a form, no cookie, no CSRF token) unsubscribes.
    const oneClick = await forum.client().post(path, { 'List-Unsubscribe': 'One-Click' }, { csrf: false, form: true });
    expect(oneClick.status).toBe(200);
    expect(oneClick.body).toEqual({ unsubscribed: true });
    expect(await forum.ctx.mail.sendNotification(user, { type: 'new-reply', text: 'bob replied', path: '/topic/12' })).toBe(0);
    // Other types still come.
    expect(await forum.ctx.mail.sendNotification(user, { type: 'mention', text: 'bob mentioned you', path: '/post/3' })).toBeGreaterThan(0);
  });

  it('keeps a refused mail in the outbox with back-off and sends it on a later run', async () => {
    const user = await forum.createUser({ email: `refused${++n}@example.com` });
    await deliver(user.email!);
    smtp.refuse = true;
    const id = await forum.ctx.mail.sendNotification(user, { type: 'mention', text: 'try me', path: '/post/1' });
    const t0 = Date.now();
    expect(await forum.ctx.mail.sendDue(t0)).toBe(0);
    const row = (await outbox()).find((r) => r.id === id)!;
    expect(row).toMatchObject({ status: 'queued', attempts: 1 });
    expect(row.last_error).toContain('451');
    expect(row.next_attempt).toBe(t0 + backoff(1));
    // Not before its back-off, even once the server is back.
    smtp.refuse = false;
    expect(await forum.ctx.mail.sendDue(t0 + 1000)).toBe(0);
    expect(await forum.ctx.mail.sendDue(row.next_attempt)).toBe(1);
    expect((await outbox()).find((r) => r.id === id)).toMatchObject({ status: 'sent', attempts: 2, last_error: '' });
    expect(smtp.received.filter((m) => m.subject === '[Palaver] try me')).toHaveLength(1);
  });

  it('keeps mail when the SMTP server is down or not configured, and sends it once one answers', async () => {
    const user = await forum.createUser({ email: `down${++n}@example.com` });
    await deliver(user.email!);
    // A port nobody listens on: a server that has disappeared.
    const gone = await new TestSmtp().start();
    await gone.stop();
    await forum.ctx.settings.set({ smtpPort: gone.port });
    const id = await forum.ctx.mail.sendNotification(user, { type: 'mention', text: 'anyone there', path: '/post/1' });
    const t0 = Date.now();
    expect(await forum.ctx.mail.sendDue(t0)).toBe(0);
    const row = (await outbox()).find((r) => r.id === id)!;
    expect(row).toMatchObject({ status: 'queued', attempts: 1 });
    expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);

    // No SMTP at all: nothing is attempted, nothing is lost.
    await forum.ctx.settings.set({ smtpHost: '' });
    expect(await forum.ctx.mail.sendDue(row.next_attempt)).toBe(0);
    expect((await outbox()).find((r) => r.id === id)).toMatchObject({ status: 'queued', attempts: 1 });

    await forum.ctx.settings.set({ smtpHost: '127.0.0.1', smtpPort: smtp.port });
    expect(await forum.ctx.mail.sendDue(row.next_attempt)).toBe(1);
    expect(smtp.received.filter((m) => m.subject === '[Palaver] anyone there')).toHaveLength(1);
  });

  it('the request that causes a mail never fails with it: a reset answers while SMTP is down', async () => {
    await forum.ctx.settings.set({ smtpPort: 1 });
    try {
      const user = await forum.createUser({ email: `answer${++n}@example.com` });
      expect((await forum.client().post('/reset', { email: user.email })).body).toEqual({ sent: true });
      await forum.ctx.hooks.idle();
      expect((await outbox()).filter((r) => r.uid === user.uid && r.template === 'reset' && r.status === 'queued')).toHaveLength(1);
    } finally {
      await forum.ctx.settings.set({ smtpPort: smtp.port });
    }
  });

  it('sends each mail once when two processes run the mail job together', async () => {
    const other: App = await buildApp(forum.ctx.config, { logger: false });
    try {
      const user = await forum.createUser({ email: `twice${++n}@example.com` });
      await deliver(user.email!);
      smtp.received = [];
      for (let i = 0; i < 12; i++) await forum.ctx.mail.sendNotification(user, { type: 'mention', text: `m${i}`, path: '/post/1' });
      const now = Date.now();
      await Promise.all([forum.ctx.mail.sendDue(now), other.ctx.mail.sendDue(now), forum.ctx.mail.sendDue(now), other.ctx.mail.sendDue(now)]);
      const subjects = smtp.received.map((m) => m.subject).sort();
      expect(subjects).toEqual([...Array(12).keys()].map((i) => `[Palaver] m${i}`).sort());

      // Through the job runner's schedule: one run of mail.send across both processes.
      await forum.ctx.mail.sendNotification(user, { type: 'mention', text: 'by the job', path: '/post/1' });
      const t = Date.now();
      await Promise.all([forum.ctx.jobs.schedule(t), other.ctx.jobs.schedule(t)]);
      const runAt = (await forum.ctx.db.selectFrom('jobs').select('run_at').where('key', '=', 'every:mail.send').executeTakeFirstOrThrow()).run_at;
      await Promise.all([forum.ctx.jobs.runDue(runAt + 1), other.ctx.jobs.runDue(runAt + 1)]);
      expect(smtp.received.filter((m) => m.subject === '[Palaver] by the job')).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('never shows or logs the SMTP password', async () => {
    const { client } = await forum.loginAs({ admin: true });
    const admin = await client.get('/api/admin/config');
    expect(admin.status).toBe(200);
    expect(admin.text).not.toContain('smtp-pass-123');
    expect((await client.get('/api/config')).text).not.toContain('smtp-pass-123');
    const adminViewer = { uid: 1, isAdmin: true } as never;
    const set = await configCommand(forum.ctx, adminViewer, ['set', 'smtpPassword', 'other-secret-456']);
    expect(set).toEqual({ out: 'smtpPassword = ********', code: 0 });
    expect((await configCommand(forum.ctx, adminViewer, ['list'])).out).not.toContain('other-secret-456');
    const events = await forum.ctx.db.selectFrom('events').select('data').where('type', '=', 'config-change').execute();
    expect(JSON.stringify(events)).not.toContain('other-secret-456');
    expect((await configCommand(forum.ctx, adminViewer, ['set', 'smtpSecurity', 'ssl'])).code).toBe(1);
    await forum.ctx.settings.set({ smtpPassword: 'smtp-pass-123' });
  });

  it("sends the admin's test mail at once with the saved settings, and says why when it cannot", async () => {
    const { client, user } = await forum.loginAs({ admin: true });
    const res = await client.post('/api/v3/admin/email/test', {});
    expect(res.status).toBe(200);
    expect(res.body.response).toEqual({ to: user.email });
    await expect.poll(() => smtp.received.filter((m) => m.subject === '[Palaver] Test email').map((m) => m.to)).toEqual([[user.email]]);
    // Not through the outbox: nothing queued for it.
    expect((await outbox()).some((r) => r.template === 'test')).toBe(false);
    expect((await (await forum.loginAs()).client.post('/api/v3/admin/email/test', {})).status).toBe(403);
    await forum.ctx.settings.set({ smtpPort: 1 });
    try {
      const down = await client.post('/api/v3/admin/email/test', {});
      expect([down.status, down.body.status.key]).toEqual([502, 'error:test-email-failed']);
      expect(down.body.status.message).toMatch(/could not be sent: .*(ECONNREFUSED|connect)/i);
      await forum.ctx.settings.set({ smtpHost: '' });
      const unset = await client.post('/api/v3/admin/email/test', {});
      expect([unset.status, unset.body.status.key]).toEqual([400, 'error:smtp-not-set']);
    } finally {
      await forum.ctx.settings.set({ smtpHost: '127.0.0.1', smtpPort: smtp.port });
    }
  });
});
