/**
 * What a member and an admin are told (issue 52, part A): a banned member at login, "remember
 * me", pages that would promise a mail when none can be sent, the account menus on a phone, a
 * title change in the edit history, the forum's icon on a system notification, toasts clear of a
 * page's buttons, excerpts in a profile's post list.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/server/http/auth.js';
import { TEST_PASSWORD } from '../../src/server/test/harness.js';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, topicPath, useE2E } from './harness.js';

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });
const SIZES = [['desktop', DESKTOP], ['phone', PHONE]] as const;
const ADMIN = { uid: 0, groups: ['administrators'], isAdmin: true, isGlobalMod: true };

const e2e = useE2E(seedSmall);

describe('login', () => {
  for (const [label, viewport] of SIZES) {
    it(`tells a banned member why and until when, the date in their locale (${label})`, async () => {
      const h = e2e();
      const user = await h.forum.createUser({ username: `banned${label}` });
      const until = Date.UTC(2031, 2, 14, 9, 30);
      await h.forum.ctx.users.ban(ADMIN, user.uid, until, 'posting spam links');
      const page = await h.open('/login', { viewport, locale: 'fr-FR' });
      await page.getByLabel(/Username|Nom d'utilisateur/).fill(user.username);
      await page.locator('input[type="password"]').fill(TEST_PASSWORD);
      await page.locator('form button[type="submit"]').click();
      const error = page.getByRole('alert').filter({ hasText: 'posting spam links' });
      await error.waitFor();
      const text = (await error.textContent())!;
      // The browser's own locale writes the date: French, not the server's UTC string.
      expect(text).toContain('14 mars 2031');
      expect(text).not.toContain('GMT');
      expect(page.url()).toContain('/login');
      await shot(page, `login-banned-${label}`);
    });
  }

  it('"remember me" decides whether the session cookie outlives the browser', async () => {
    const h = e2e();
    const user = await h.forum.createUser({ username: 'rememberer' });
    const sid = async (page: Page) => (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE)!;
    const login = async (remember: boolean) => {
      const page = await h.open('/login');
      const box = page.getByLabel('Remember me');
      expect(await box.isChecked()).toBe(true);
      if (!remember) await box.uncheck();
      await page.getByLabel('Username or email').fill(user.username);
      await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(`${h.base}/`);
      return page;
    };
    const remembered = await login(true);
    await shot(remembered, 'login-remember-me');
    const days = (await h.forum.ctx.settings.get()).sessionDays;
    const kept = await sid(remembered);
    expect(kept.expires).toBeGreaterThan(Date.now() / 1000 + (days - 1) * 86400);
    // Unticked: a browser-session cookie (expires -1), gone when the browser closes.
    expect((await sid(await login(false))).expires).toBe(-1);
  });
});

describe('mail not configured', () => {
  for (const [label, viewport] of SIZES) {
    it(`the reset page, invitations and digest settings tell the truth; the admin is told (${label})`, async () => {
      const h = e2e();
      const { alice, bob } = h.data;
      await h.forum.ctx.settings.set({ smtpHost: '' });
      const reset = await h.open('/reset', { viewport });
      await reset.getByTestId('mail-not-configured').waitFor();
      expect(await reset.getByTestId('mail-not-configured').textContent()).toContain('cannot send email yet');
      expect(await reset.getByRole('button', { name: 'Send reset email' }).count()).toBe(0);
      expect(await seriousAxeViolations(reset)).toEqual([]);
      await shot(reset, `reset-no-mail-${label}`);

      const settings = await h.open(`/user/${bob.userslug}/settings`, { as: bob, viewport });
      expect(await settings.getByTestId('mail-not-configured').textContent()).toContain('no digest or email notification reaches you');

      // Inviting: the form says the invitations wait, and the toast says so once they are saved.
      const users = await h.open('/users', { as: alice, viewport });
      await users.getByRole('button', { name: 'Invite' }).click();
      expect(await users.getByTestId('mail-not-configured').textContent()).toContain('invitations wait until an administrator sets up mail');
      await users.getByLabel('Email addresses (separated by commas)').fill(`friend-${label}@example.com`);
      await users.getByRole('button', { name: 'Send invitations' }).click();
      await users.locator('.alerts-area', { hasText: 'Invitations saved: they go out once an administrator sets up mail.' }).waitFor();
      await shot(users, `invite-no-mail-${label}`);

      const dashboard = await h.open('/admin', { as: alice, viewport });
      const notice = dashboard.getByTestId('mail-not-configured');
      await notice.waitFor();
      expect(await notice.textContent()).toContain('Mail is not set up');
      expect(await notice.textContent()).toMatch(/Waiting in the outbox: \d+/);
      await shot(dashboard, `admin-dashboard-no-mail-${label}`);
      await notice.getByRole('link', { name: 'Set up mail' }).click();
      await dashboard.waitForURL(/\/admin\/settings\/email$/);
      await dashboard.getByTestId('mail-not-configured').waitFor();
      expect(await dashboard.getByTestId('mail-not-configured').textContent()).toContain('No SMTP server is set');
      await shot(dashboard, `admin-email-no-mail-${label}`);

      // With a server set, the notices go and the reset form is back.
      await h.forum.ctx.settings.set({ smtpHost: '127.0.0.1', smtpPort: 2525 });
      try {
        await h.goto(reset, '/reset');
        await reset.getByRole('button', { name: 'Send reset email' }).waitFor();
        expect(await reset.getByTestId('mail-not-configured').count()).toBe(0);
        await h.goto(dashboard, '/admin');
        expect(await dashboard.getByTestId('mail-not-configured').count()).toBe(0);
      } finally {
        await h.forum.ctx.settings.set({ smtpHost: '' });
      }
    });
  }

  it('an email change says the link waits instead of "check your inbox"', async () => {
    const h = e2e();
    const user = await h.forum.createUser({ username: 'mover', email: 'mover@example.com' });
    await h.forum.ctx.settings.set({ smtpHost: '' });
    const page = await h.open(`/user/${user.userslug}/edit/email`, { as: user, viewport: PHONE });
    await page.getByLabel('New email address').fill('moved@example.com');
    const password = page.getByLabel('Current password');
    if (await password.count()) await password.fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Change email' }).click();
    await page.locator('.alerts-area', { hasText: 'the confirmation link waits until an administrator sets up mail' }).waitFor();
    expect(await page.getByTestId('pending-email').textContent()).toContain('this forum cannot send email yet');
    expect(await page.locator('.alerts-area', { hasText: 'Check your new address' }).count()).toBe(0);
    await shot(page, 'edit-email-no-mail-phone');
  });
});

describe('account menus', () => {
  for (const [label, viewport] of SIZES) {
    it(`groups the account pages into a few menus that fit the screen (${label})`, async () => {
      const h = e2e();
      const { bob } = h.data;
      const page = await h.open(`/user/${bob.userslug}/settings`, { as: bob, viewport });
      const nav = page.locator('.account-nav');
      // Profile and three menus (no moderation for a member), on screen without sideways scrolling.
      expect(await nav.locator('.nav-item').count()).toBe(4);
      const width = await nav.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(width.scroll).toBeLessThanOrEqual(width.client);
      // The menu holding the current page is marked and names it.
      const current = nav.locator('[aria-current="page"][data-current="settings"]');
      expect((await current.textContent())!.trim()).toBe('Settings: Settings');
      await nav.locator('[data-group="activity"] button').click();
      const menu = nav.locator('[data-group="activity"] .dropdown-menu.show');
      await menu.getByRole('link', { name: 'Bookmarks' }).waitFor();
      const box = (await menu.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `account-menus-${label}`);
      await menu.getByRole('link', { name: 'Bookmarks' }).click();
      await page.waitForURL(/\/bookmarks$/);
      await nav.locator('[aria-current="page"][data-current="bookmarks"]').waitFor();
    });
  }

  it('an admin sees the moderation menu on a member\'s account', async () => {
    const h = e2e();
    const { alice, bob } = h.data;
    const page = await h.open(`/user/${bob.userslug}`, { as: alice, viewport: PHONE });
    await page.locator('.account-nav [data-group="moderation"] button').click();
    await page.locator('.account-nav .dropdown-menu.show').getByRole('link', { name: 'Account Info' }).click();
    await page.waitForURL(/\/info$/);
    await page.locator('.account-nav [data-current="info"]').waitFor();
    await shot(page, 'account-menus-moderation-phone');
    // A member sees no moderation menu on another's account.
    const other = await h.open(`/user/${alice.userslug}`, { as: bob, viewport: PHONE });
    expect(await other.locator('.account-nav [data-group="moderation"]').count()).toBe(0);
  });
});

describe('smaller things', () => {
  it('the edit history shows a change of the topic title', async () => {
    const h = e2e();
    const { bob, help } = h.data;
    const viewer = { ...(await h.forum.ctx.privileges.viewer(bob.uid)), master: true };
    const made = await h.forum.ctx.topics.create(viewer, { cid: help.cid, title: 'Printer will not print', content: 'It just blinks at me.' });
    await new Promise((r) => setTimeout(r, 5));
    await h.forum.ctx.posts.edit(viewer, made.topic.main_pid, { content: 'It just blinks at me, twice.', title: 'Printer will not print at all' });
    const page = await h.open(topicPath(made.topic), { as: bob, viewport: DESKTOP });
    await page.locator('article.post').first().getByRole('button', { name: 'History' }).click();
    const dialog = page.getByTestId('diffs-dialog');
    await dialog.waitFor();
    const title = page.getByTestId('diffs-title');
    await title.waitFor();
    expect(await title.locator('ins').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('at all')]));
    expect(await dialog.getByText('Title changed').count()).toBeGreaterThan(0);
    await shot(page, 'diffs-title-desktop');
  });

  for (const [label, viewport] of SIZES) {
    it(`a system notification shows the forum's icon (${label})`, async () => {
      const h = e2e();
      const { carol } = h.data;
      await h.forum.ctx.notifications.notify({
        type: 'data-export',
        mergeKey: `data-export:profile:${label}`,
        subject: { type: 'user', id: carol.uid },
        from: 0,
        path: `/user/${carol.userslug}/data`,
        bodyKey: 'notifications:data-export-ready',
        params: ['profile'],
        uids: [carol.uid],
      });
      await h.forum.ctx.hooks.idle();
      const page = await h.open('/notifications', { as: carol, viewport });
      const row = page.getByTestId('notification').first();
      await row.waitFor();
      const avatar = row.locator('.avatar').first();
      expect(await avatar.evaluate((el) => el.tagName)).toBe('IMG');
      expect(await avatar.getAttribute('src')).toMatch(/favicon\.svg$/);
      expect(await avatar.evaluate((el) => (el as HTMLImageElement).naturalWidth > 0 || !(el as HTMLImageElement).complete)).toBe(true);
      await shot(page, `notification-system-${label}`);
    });
  }

  it('on a phone a toast does not cover the settings save button', async () => {
    const h = e2e();
    const { carol } = h.data;
    const page = await h.open(`/user/${carol.userslug}/settings`, { as: carol, viewport: PHONE });
    const save = page.getByTestId('settings-save');
    await save.scrollIntoViewIfNeeded();
    await save.click();
    const toast = page.locator('.alerts-area .toast').first();
    await toast.waitFor();
    const a = (await toast.boundingBox())!;
    const b = (await save.boundingBox())!;
    const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlap).toBe(false);
    // The button still takes a click while the toast shows.
    await save.click({ trial: true, timeout: 2000 });
    await shot(page, 'toast-clear-phone');
  });

  for (const [label, viewport] of SIZES) {
    it(`a profile's post list shows excerpts (${label})`, async () => {
      const h = e2e();
      const { carol, welcome } = h.data;
      const viewer = { ...(await h.forum.ctx.privileges.viewer(carol.uid)), master: true };
      const long = `${'A long and winding answer with **bold** words. '.repeat(12)}THE-HIDDEN-TAIL`;
      await h.forum.ctx.posts.reply(viewer, welcome.tid, { content: long });
      const page = await h.open(`/user/${carol.userslug}/posts`, { viewport });
      const excerpt = page.getByTestId('post-excerpt').first();
      await excerpt.waitFor();
      const text = (await excerpt.textContent())!;
      expect(text.startsWith('A long and winding answer with bold words.')).toBe(true);
      expect(text.endsWith('…')).toBe(true);
      expect(text).not.toContain('THE-HIDDEN-TAIL');
      await shot(page, `profile-posts-excerpts-${label}`);
    });
  }
});
