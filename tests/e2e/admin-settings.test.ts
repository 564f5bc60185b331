/** The admin settings pages in the browser (issue 16 §4): save with a field's error shown, the unsaved-changes guard, desktop and phone. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, useE2E } from './harness.js';

const e2e = useE2E(async (forum) => seedSmall(forum));

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });
/** Nothing wider than the screen: the page does not scroll sideways. */
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

describe('admin settings pages', () => {
  it('shows a refused value on its field, keeps what was typed, then saves the page (desktop)', async () => {
    const h = e2e();
    const page = await h.open('/admin/settings/pagination', { as: h.data.alice, viewport: DESKTOP });
    const posts = page.getByLabel('Posts per page');
    const topics = page.getByLabel('Topics per page');
    await expect.poll(() => posts.inputValue()).toBe('20');
    await topics.fill('24');
    await posts.fill('1000');
    await page.getByTestId('settings-save').click();
    const error = page.locator('#setting-postsPerPage-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('Enter a whole number from 1 to 100.');
    expect(await posts.getAttribute('aria-invalid')).toBe('true');
    // Nothing was saved, nothing typed was lost.
    expect((await h.forum.ctx.settings.get()).topicsPerPage).toBe(20);
    expect(await posts.inputValue()).toBe('1000');
    expect(await topics.inputValue()).toBe('24');
    await shot(page, 'admin-settings-error-desktop');
    await posts.fill('30');
    await page.getByTestId('settings-save').click();
    await expect.poll(async () => (await h.forum.ctx.settings.get()).postsPerPage).toBe(30);
    expect((await h.forum.ctx.settings.get()).topicsPerPage).toBe(24);
    await expect.poll(() => page.getByTestId('settings-save').isDisabled()).toBe(true);
    expect(await error.count()).toBe(0);
  });

  it('asks before leaving a page with unsaved changes (desktop)', async () => {
    const h = e2e();
    const page = await h.open('/admin/settings/general', { as: h.data.alice, viewport: DESKTOP });
    const title = page.getByLabel('Site title');
    await title.fill('Palaver Gardens');
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.type());
      void d.dismiss();
    });
    await page.locator('#admin-nav a[href$="/admin/settings/chat"]').first().click();
    await expect.poll(() => asked).toEqual(['confirm']);
    // Stayed, with the edit.
    expect(new URL(page.url()).pathname).toMatch(/\/admin\/settings\/general$/);
    expect(await title.inputValue()).toBe('Palaver Gardens');
    await shot(page, 'admin-settings-general-desktop');
    page.once('dialog', (d) => void d.accept());
    await page.locator('#admin-nav a[href$="/admin/settings/chat"]').first().click();
    await page.waitForURL(/\/admin\/settings\/chat$/);
    await page.getByLabel('Turn off chats').waitFor();
    // Left without saving: nothing changed; and a saved page leaves without asking.
    expect((await h.forum.ctx.settings.get()).siteTitle).toBe('Palaver');
    await page.getByLabel('Turn off chats').check();
    await page.getByTestId('settings-save').click();
    await expect.poll(async () => (await h.forum.ctx.settings.get()).disableChat).toBe(true);
    await h.forum.ctx.settings.set({ disableChat: false });
    let askedAgain = false;
    page.once('dialog', (d) => {
      askedAgain = true;
      void d.dismiss();
    });
    await page.locator('#admin-nav a[href$="/admin/settings/email"]').first().click();
    await page.waitForURL(/\/admin\/settings\/email$/);
    expect(askedAgain).toBe(false);
  });

  it('works on a phone: the email page (password shown only as set) and the users page', async () => {
    const h = e2e();
    await h.forum.ctx.settings.set({ smtpHost: 'mail.example.org', smtpPassword: 'very-secret-pass' });
    const page = await h.open('/admin/settings/email', { as: h.data.alice, viewport: PHONE });
    const password = page.getByLabel('SMTP password');
    expect(await password.inputValue()).toBe('');
    expect(await password.getAttribute('placeholder')).toBe('Set (type to replace)');
    expect(await page.content()).not.toContain('very-secret-pass');
    expect(await noSidewaysScroll(page)).toBe(true);
    await shot(page, 'admin-settings-email-phone');
    await page.getByLabel('Connection security').selectOption('tls');
    await page.getByLabel('SMTP port').fill('465');
    await page.getByTestId('settings-save').click();
    await expect.poll(async () => (await h.forum.ctx.settings.get()).smtpPort).toBe(465);
    const s = await h.forum.ctx.settings.get();
    expect([s.smtpSecurity, s.smtpPassword]).toEqual(['tls', 'very-secret-pass']);
    await h.goto(page, '/admin/settings/user');
    await page.getByLabel('Registration type').waitFor();
    expect(await noSidewaysScroll(page)).toBe(true);
    await shot(page, 'admin-settings-user-phone');
    // The cookies page turns the consent banner on; a visitor sees it (the message as text) until dismissing it.
    await h.goto(page, '/admin/settings/cookies');
    await page.getByLabel('Show a cookie consent banner').check();
    await page.getByLabel('Banner message').fill('We use <b>cookies</b> for logins only.');
    await page.getByLabel('Link address').fill('/tos');
    await page.getByTestId('settings-save').click();
    await expect.poll(async () => (await h.forum.ctx.settings.get()).cookieConsentEnabled).toBe(true);
    await shot(page, 'admin-settings-cookies-phone');
    const visitor = await h.open('/', { viewport: PHONE });
    const banner = visitor.locator('.cookie-consent');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('We use <b>cookies</b> for logins only.');
    expect(await banner.getByRole('link', { name: 'Learn more' }).getAttribute('href')).toBe(`${h.rp}/tos`);
    await shot(visitor, 'cookie-banner-phone');
    await banner.getByRole('button', { name: 'Got it!' }).click();
    await banner.waitFor({ state: 'detached' });
    await h.goto(visitor, '/');
    await visitor.waitForTimeout(300);
    expect(await visitor.locator('.cookie-consent').count()).toBe(0);
  });

  it('the API page creates a master token, shown once, and revokes it (desktop)', async () => {
    const h = e2e();
    const page = await h.open('/admin/settings/api', { as: h.data.alice, viewport: DESKTOP });
    await page.getByLabel('Description').fill('Import bot');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.getByTestId('new-token').textContent())!;
    expect(token.length).toBeGreaterThan(20);
    // The token works as a bearer.
    const res = await fetch(`${h.base}/api/v3/users/${h.data.alice.uid}?_uid=${h.data.alice.uid}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    await shot(page, 'admin-settings-api-desktop');
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('listitem').filter({ hasText: 'Import bot' }).getByRole('button').click();
    await page.getByText('No master tokens.').waitFor();
    expect((await fetch(`${h.base}/api/v3/users/${h.data.alice.uid}?_uid=${h.data.alice.uid}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  it('the navigation editor reorders and hides entries; visitors see the new sidebar (desktop and phone)', async () => {
    const h = e2e();
    const page = await h.open('/admin/settings/navigation', { as: h.data.alice, viewport: DESKTOP });
    await page.getByRole('button', { name: 'Move Popular up' }).click();
    await page.getByRole('button', { name: 'Move Popular up' }).click();
    await page.getByRole('listitem', { name: 'Tags' }).getByLabel('Shown').uncheck();
    await page.getByRole('button', { name: 'Add an entry' }).click();
    const added = page.getByTestId('navigation-items').getByRole('listitem').last();
    await added.getByLabel('Text').fill('Docs');
    await added.getByLabel('Address').fill('https://docs.example.org/');
    await shot(page, 'admin-settings-navigation-desktop');
    await page.getByTestId('navigation-save').click();
    await expect.poll(async () => (await h.forum.ctx.settings.get()).navigation).toContain('docs.example.org');
    const visitor = await h.open('/recent', { viewport: DESKTOP });
    const labels = await visitor.locator('.sidebar .nav-item .nav-label').allTextContents();
    expect(labels).toEqual(['Categories', 'Popular', 'Recent', 'Top', 'Users', 'Groups', 'Docs']);
    expect(await visitor.locator('.sidebar a[href="https://docs.example.org/"]').count()).toBe(1);
    await page.setViewportSize(PHONE);
    await shot(page, 'admin-settings-navigation-phone');
    expect(await noSidewaysScroll(page)).toBe(true);
    await h.forum.ctx.settings.set({ navigation: '' });
  });

  it('the email page sends a test mail with the saved settings, and shows why it cannot without a server (desktop)', async () => {
    const h = e2e();
    await h.forum.ctx.settings.set({ smtpHost: '' });
    const page = await h.open('/admin/settings/email', { as: h.data.alice, viewport: DESKTOP });
    await page.getByTestId('email-test').click();
    await page.getByText('Set an SMTP server (and your own email address) before sending a test email.').first().waitFor();
    // An unsaved edit first needs a save: the button waits for it.
    await page.getByLabel('SMTP server', { exact: true }).fill('smtp.example.org');
    expect(await page.getByTestId('email-test').isDisabled()).toBe(true);
  });
  it('turns federation on with an instance deny list (desktop and phone)', async () => {
    const h = e2e();
    const page = await h.open('/admin/settings/advanced', { as: h.data.alice, viewport: DESKTOP });
    await page.getByRole('heading', { name: 'Federation (ActivityPub)' }).waitFor();
    await page.getByLabel('Federation', { exact: true }).check();
    await page.getByLabel('Blocked instances').fill('spam.example\nbad.example');
    await page.getByTestId('settings-save').click();
    await expect.poll(async () => (await h.forum.ctx.settings.get()).activitypubEnabled).toBe(true);
    expect((await h.forum.ctx.settings.get()).activitypubDenyList).toBe('spam.example\nbad.example');
    // What the server does with it (federation's URLs answer, at the host's root only) is
    // src/server/domains/federation/federation.test.ts's; this forum lives under /forum.
    await shot(page, 'admin-settings-federation-desktop');
    const phone = await h.open('/admin/settings/advanced', { as: h.data.alice, viewport: PHONE });
    await phone.getByLabel('Blocked instances').waitFor();
    expect(await noSidewaysScroll(phone)).toBe(true);
    await shot(phone, 'admin-settings-federation-phone');
  });
});
