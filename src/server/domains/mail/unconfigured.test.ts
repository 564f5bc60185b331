import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, TEST_PASSWORD, type TestForum } from '../../test/harness.js';
import { TestSmtp } from './test-smtp.js';

// A forum with no SMTP server set (the default): nothing promises a mail it cannot send, and the
// admin is told that mail waits in the outbox. Setting a server turns each answer back.
describe('mail not configured', () => {
  let forum: TestForum;
  let smtp: TestSmtp;
  let n = 0;

  beforeAll(async () => {
    smtp = await new TestSmtp().start();
    forum = await startTestForum();
  });
  afterAll(async () => {
    await forum?.close();
    await smtp?.stop();
  });

  const withSmtp = () => forum.ctx.settings.set({ smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecurity: 'none' });
  const withoutSmtp = () => forum.ctx.settings.set({ smtpHost: '' });

  it('the client config says whether mail can be sent', async () => {
    await withoutSmtp();
    expect((await forum.client().get('/api/config')).body.mailConfigured).toBe(false);
    await withSmtp();
    expect((await forum.client().get('/api/config')).body.mailConfigured).toBe(true);
    await withoutSmtp();
  });

  it('a password reset does not claim a mail was sent; with SMTP it does', async () => {
    await withoutSmtp();
    const user = await forum.createUser({ email: `nomail${++n}@example.com` });
    expect((await forum.client().post('/reset', { email: user.email })).body).toEqual({ sent: false });
    // Known or not, the same answer: it reveals no account.
    expect((await forum.client().post('/reset', { email: 'nobody-at-all@example.com' })).body).toEqual({ sent: false });
    await withSmtp();
    expect((await forum.client().post('/reset', { email: 'nobody-at-all@example.com' })).body).toEqual({ sent: true });
    await withoutSmtp();
  });

  it('a registration waiting for approval is not promised an email', async () => {
    await forum.ctx.settings.set({ registrationApprovalType: 'admin-approval', 'captcha:register': false });
    const body = () => ({ username: `queued${++n}`, email: `queued${n}@example.com`, password: TEST_PASSWORD, 'password-confirm': TEST_PASSWORD });
    await withoutSmtp();
    expect((await forum.client().post('/register', body())).body).toMatchObject({ uid: 0, message: '[[register:registration-added-to-queue-no-mail]]' });
    await withSmtp();
    expect((await forum.client().post('/register', body())).body).toMatchObject({ uid: 0, message: '[[register:registration-added-to-queue]]' });
    await withoutSmtp();
    await forum.ctx.settings.set({ registrationApprovalType: 'normal' });
  });

  it('the dashboard and the email settings page tell the admin, with the mails waiting', async () => {
    await withoutSmtp();
    const admin = await forum.loginAs({ admin: true });
    const user = await forum.createUser({ email: `waiting${++n}@example.com` });
    await forum.ctx.hooks.idle();
    const before = (await admin.client.get('/api/admin')).body.mail;
    expect(before.configured).toBe(false);
    // A reset request queues its mail: it waits, and the count says so.
    await forum.client().post('/reset', { email: user.email });
    await forum.ctx.hooks.idle();
    expect(await forum.ctx.mail.sendDue()).toBe(0);
    const after = (await admin.client.get('/api/admin')).body.mail;
    expect(after.waiting).toBe(before.waiting + 1);
    expect(after.oldest).toBeGreaterThan(0);
    const page = (await admin.client.get('/api/admin/settings/email')).body;
    expect(page.mail).toEqual(after);
    // Other settings pages do not carry it; a member cannot see it.
    expect((await admin.client.get('/api/admin/settings/general')).body.mail).toBeUndefined();
    const member = await forum.loginAs();
    expect((await member.client.get('/api/admin')).status).not.toBe(200);
    // With a server set, the notice goes and the waiting mail is sent.
    await withSmtp();
    expect((await admin.client.get('/api/admin')).body.mail.configured).toBe(true);
    await forum.ctx.mail.sendDue();
    expect(smtp.received.some((m) => m.to.includes(user.email!))).toBe(true);
    expect((await admin.client.get('/api/admin')).body.mail.waiting).toBe(0);
    await withoutSmtp();
  });
});
