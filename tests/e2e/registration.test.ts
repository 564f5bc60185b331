/** Registration in the browser: the ALTCHA proof of work, terms and consent, the admins' queue, an invitation link, the consent page (spec §1 captcha, §2 register, consent, admin/manage/registration). */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, useE2E } from './harness.js';

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });
const PASSWORD = 'Sturdy-Lantern-93';

const e2e = useE2E(seedSmall);

beforeEach(async () => {
  await e2e().forum.ctx.settings.set({ registrationType: 'normal', registrationApprovalType: 'normal', termsOfUse: '', gdpr_enabled: false, 'captcha:register': false });
});

async function fillForm(page: Page, name: string, email?: string) {
  await page.getByLabel('Username').fill(name);
  if (email) await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
}

describe('registration (spec §1 captcha, §2 register)', () => {
  for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`registers through the captcha widget, with the terms and consent (${label})`, async () => {
      const h = e2e();
      await h.forum.ctx.settings.set({ 'captcha:register': true, termsOfUse: 'Be **kind** to each other.', gdpr_enabled: true });
      const page = await h.open('/register', { viewport });
      const name = `pow${label}`;
      await fillForm(page, name, `${name}@example.com`);
      // The widget solves the forum's challenge in the page (real SHA-256 proof of work).
      await page.locator('#altcha-captcha[data-state="done"]').waitFor({ timeout: 20_000 });
      await expect.poll(() => page.locator('.tos strong').textContent()).toBe('kind');
      // Without the boxes ticked the form says why and sends nothing.
      await page.getByRole('button', { name: 'Register now' }).click();
      await page.getByText('You must accept the terms of use to register.').waitFor();
      await page.getByLabel('I have read and accept the terms of use').check();
      await page.getByLabel(/I agree that this forum stores/).check();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `register-${label}`);
      await page.getByRole('button', { name: 'Register now' }).click();
      await page.waitForURL(`${h.base}/`);
      await page.waitForSelector('html[data-loaded]', { state: 'attached' });
      const row = await h.forum.ctx.users.byUsername(name);
      expect(row).toMatchObject({ email: `${name}@example.com` });
      expect(await h.forum.ctx.registration.consentOf(row!.uid)).toMatchObject({ gdpr_consent: true });
    });
  }

  for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`says as the name is typed whether it is taken: no green check for a member's name (${label})`, async () => {
      const h = e2e();
      const page = await h.open('/register', { viewport });
      const input = page.getByLabel('Username');
      await input.fill('Bob');
      await page.getByText('Username taken').waitFor();
      expect(await input.getAttribute('class')).toContain('is-invalid');
      expect(await input.getAttribute('class')).not.toContain('is-valid');
      await shot(page, `register-name-taken-${label}`);
      await input.fill(`free${label}`);
      await page.getByText('This username is available.').waitFor();
      expect(await input.getAttribute('class')).toContain('is-valid');
      expect(await page.getByText('Username taken').count()).toBe(0);
      await shot(page, `register-name-free-${label}`);
      // A taken name is not sent: the form stops at it.
      await fillForm(page, 'bob', `bob-again-${label}@example.com`);
      await page.getByText('Username taken').waitFor();
      await page.getByRole('button', { name: 'Register now' }).click();
      await page.getByText('Username taken').waitFor();
      expect(page.url()).toBe(`${h.base}/register`);
    });
  }

  it("shows the error a captcha callback brings back in the URL's error parameter (spec §8)", async () => {
    const h = e2e();
    const page = await h.open('/register?error=error:invalid-captcha');
    await page.getByRole('alert').filter({ hasText: 'The captcha was not solved correctly' }).waitFor();
  });

  it('puts a registration in the queue; an admin accepts one and reports another from the queue page', async () => {
    const h = e2e();
    await h.forum.ctx.settings.set({ registrationApprovalType: 'admin-approval' });
    const page = await h.open('/register');
    await fillForm(page, 'waiting1', 'waiting1@example.com');
    await page.getByRole('button', { name: 'Register now' }).click();
    await page.getByRole('status').filter({ hasText: 'awaiting approval' }).waitFor();
    expect(await h.forum.ctx.users.byUsername('waiting1')).toBeNull();
    await h.forum.client().post('/register', { username: 'waiting2', email: 'waiting2@example.com', password: PASSWORD });

    for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      const admin = await h.open('/admin/manage/registration', { as: h.data.alice, viewport });
      await admin.locator('tr[data-username="waiting2"]').waitFor();
      expect(await seriousAxeViolations(admin)).toEqual([]);
      await shot(admin, `registration-queue-${label}`);
    }
    await h.forum.client().post('/register', { username: 'waiting3', email: 'waiting3@example.com', password: PASSWORD });
    // The spam report asks what to block: the address and the email, both offered.
    for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      const admin = await h.open('/admin/manage/registration', { as: h.data.alice, viewport });
      await admin.locator('tr[data-username="waiting2"]').getByRole('button', { name: 'Report spam' }).click();
      await admin.getByRole('dialog', { name: 'Report waiting2 as spam' }).waitFor();
      expect(await admin.getByLabel('The email address waiting2@example.com').isChecked()).toBe(true);
      expect(await admin.getByLabel(/^The IP address /).isChecked()).toBe(true);
      await shot(admin, `registration-spam-dialog-${label}`);
    }
    const admin = await h.open('/admin/manage/registration', { as: h.data.alice });
    await admin.locator('tr[data-username="waiting2"]').getByRole('button', { name: 'Report spam' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Report' }).click();
    await admin.getByText('User reported!').waitFor();
    await admin.locator('tr[data-username="waiting2"]').waitFor({ state: 'detached' });
    expect((await h.forum.ctx.settings.get()).registrationEmailBlacklist).toContain('waiting2@example.com');
    // Unticked, the email stays allowed; the registration still leaves the queue.
    await admin.locator('tr[data-username="waiting3"]').getByRole('button', { name: 'Report spam' }).click();
    await admin.getByLabel('The email address waiting3@example.com').uncheck();
    await admin.getByRole('dialog').getByRole('button', { name: 'Report' }).click();
    await admin.locator('tr[data-username="waiting3"]').waitFor({ state: 'detached' });
    expect((await h.forum.ctx.settings.get()).registrationEmailBlacklist).not.toContain('waiting3@example.com');
    await admin.locator('tr[data-username="waiting1"]').getByRole('button', { name: 'Accept' }).click();
    await admin.getByText('Registration of waiting1 accepted.').waitFor();
    await admin.locator('tr[data-username="waiting1"]').waitFor({ state: 'detached' });
    expect(await h.forum.ctx.users.byUsername('waiting1')).toMatchObject({ email: 'waiting1@example.com' });
    // A member is not let in.
    const bob = await h.open('/admin/manage/registration', { as: h.data.bob });
    await bob.getByText('You do not have enough privileges for this action.').first().waitFor();
    expect(await bob.locator('tr[data-username="waiting2"]').count()).toBe(0);
  });

  it('accepts an invitation from its mail link on an invite-only forum', async () => {
    const h = e2e();
    const ctx = h.forum.ctx;
    await ctx.settings.set({ registrationType: 'invite-only' });
    const closed = await h.open('/register');
    await closed.getByText('Registration is by invitation only').waitFor();
    await ctx.registration.invite(await ctx.privileges.viewer(h.data.alice.uid), h.data.alice.uid, 'friend@example.com');
    const mail = await ctx.db.selectFrom('mail_outbox').select('text').where('to_address', '=', 'friend@example.com').executeTakeFirstOrThrow();
    const link = /(\/register\?token=[\w-]+)/.exec(mail.text)![1]!;
    const page = await h.open(link);
    await page.getByText('You were invited to join').waitFor();
    expect(await page.getByLabel('Email address').inputValue()).toBe('friend@example.com');
    await fillForm(page, 'friend');
    await page.getByText('Strength: strong').waitFor();
    await shot(page, 'register-invited-desktop');
    await page.getByRole('button', { name: 'Register now' }).click();
    await page.waitForURL(`${h.base}/`);
    expect(await ctx.users.byUsername('friend')).toMatchObject({ email: 'friend@example.com' });
  });

  it('a member with the invite privilege invites from the users page (phone)', async () => {
    const h = e2e();
    const ctx = h.forum.ctx;
    await ctx.privileges.give(0, ['invite'], 'registered-users');
    try {
      const page = await h.open('/users', { as: h.data.bob, viewport: PHONE });
      await page.getByRole('button', { name: 'Invite' }).click();
      await page.getByLabel('Email addresses (separated by commas)').fill('pal@example.com, buddy@example.com');
      await shot(page, 'users-invite-phone');
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Send invitations' }).click();
      // No SMTP here: the invitations are saved and the toast says they wait for mail.
      await page.getByText('Invitations saved: they go out once an administrator sets up mail.').first().waitFor();
      const sent = await ctx.db.selectFrom('invitations').select(['email', 'inviter']).where('inviter', '=', h.data.bob.uid).orderBy('email').execute();
      expect(sent).toEqual([
        { email: 'buddy@example.com', inviter: h.data.bob.uid },
        { email: 'pal@example.com', inviter: h.data.bob.uid },
      ]);
    } finally {
      await ctx.privileges.take(0, ['invite'], 'registered-users');
    }
  });

  for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`shows the consent page and records consent given there (${label})`, async () => {
      const h = e2e();
      const carol = h.data.carol;
      const page = await h.open(`/user/${carol.userslug}/consent`, { as: carol, viewport });
      await page.getByTestId('consent-state').filter({ hasText: 'not given your consent' }).waitFor();
      if (label === 'desktop') {
        await page.getByRole('button', { name: 'Give consent' }).click();
        await page.getByTestId('consent-state').filter({ hasText: 'You gave your consent' }).waitFor();
        expect((await h.forum.ctx.registration.consentOf(carol.uid)).gdpr_consent).toBe(true);
      }
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `consent-${label}`);
      await h.forum.ctx.db.deleteFrom('user_consents').where('uid', '=', carol.uid).execute();
    });
  }
});
