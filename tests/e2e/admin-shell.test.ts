/** The admin shell in the browser (issue 16): first-run setup, the admin layout on desktop and phone, admins & mods, crossings into and out of the admin area. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seriousAxeViolations, useE2E } from './harness.js';

const PASSWORD = 'Setup-Horse-Battery-77';

const e2e = useE2E(async (forum) => {
  const { startFirstRun } = await import('../../src/server/domains/admin/setup-routes.js');
  // As `palaver start` does on an empty database.
  const firstRun = await startFirstRun(forum.ctx);
  return { firstRun };
});

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });
/** Marks the window: a full page load forgets the mark, an in-page navigation keeps it. */
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { __mark?: number }).__mark = 1));
const marked = (page: Page) => page.evaluate(() => (window as unknown as { __mark?: number }).__mark === 1);

describe('admin shell', () => {
  it('first run: any page leads to /setup (phone and desktop), bad input is explained, the new administrator lands in the admin area', async () => {
    const h = e2e();
    expect(h.data.firstRun).toBe(true);
    const phone = await h.open('/recent', { viewport: PHONE });
    expect(new URL(phone.url()).pathname).toBe(`${h.rp}/setup`);
    await shot(phone, 'admin-setup-phone');
    expect(await seriousAxeViolations(phone)).toEqual([]);

    const page = await h.open('/', { viewport: DESKTOP });
    expect(new URL(page.url()).pathname).toBe(`${h.rp}/setup`);
    // The forum will speak the page's language (an English browser keeps the en-GB default).
    expect(await page.getByTestId('setup-language').textContent()).toBe('The forum will speak English (United Kingdom), the language of this page. You can change it later in the admin area (Settings › General › Language).');
    const form = page.locator('#setup-form');
    await form.getByLabel('Forum title').fill('Shell Test Forum');
    await form.getByLabel('Username').fill('founder');
    await form.getByLabel('Email address').fill('founder@example.com');
    await form.getByLabel('Password', { exact: true }).fill('abc');
    await form.getByLabel('Confirm password').fill('abc');
    await form.getByRole('button', { name: 'Create the forum' }).click();
    // Checked in the page first: the field says what is wrong, nothing is sent.
    await expect.poll(() => form.locator('.invalid-feedback').first().textContent()).toMatch(/short/i);
    await shot(page, 'admin-setup-desktop-error');
    // The server's rules: a weak password is refused with its message, the form keeps its values.
    await form.getByLabel('Password', { exact: true }).fill('password');
    await form.getByLabel('Confirm password').fill('password');
    await form.getByRole('button', { name: 'Create the forum' }).click();
    await expect.poll(() => page.locator('.alert-danger').textContent()).toBeTruthy();
    expect(await form.getByLabel('Username').inputValue()).toBe('founder');
    await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await form.getByLabel('Confirm password').fill(PASSWORD);
    await shot(page, 'admin-setup-desktop');
    await form.getByRole('button', { name: 'Create the forum' }).click();
    await page.waitForURL(new RegExp(`${h.rp}/admin$`));
    await page.waitForSelector('html[data-loaded]', { state: 'attached' });
    expect(await page.locator('.admin-layout').count()).toBe(1);
    expect(await page.locator('.admin-layout .navbar-brand').textContent()).toContain('Shell Test Forum');
    // The setup page is gone for good.
    const gone = await page.goto(`${h.base}/setup`);
    expect(gone?.status()).toBe(404);
  });

  for (const [device, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`admins & mods: the layout, its active entry, adding a global moderator from a member search (${device})`, async () => {
      const h = e2e();
      const admin = (await h.forum.ctx.users.byUsername('founder'))!;
      const name = `helper${device}`;
      await h.forum.createUser({ username: name });
      const page = await h.open('/admin/manage/admins-mods', { as: admin, viewport });
      // No public sidebar, no widget area in the admin area.
      expect(await page.locator('.sidebar, .bottombar, [data-widget-area]').count()).toBe(0);
      if (device === 'phone') {
        expect(await page.locator('#admin-nav').isVisible()).toBe(false);
        await page.getByRole('button', { name: 'Menu' }).click();
        await expect.poll(() => page.locator('#admin-nav').isVisible()).toBe(true);
        await shot(page, 'admin-shell-nav-phone');
        await page.getByRole('button', { name: 'Menu' }).click();
      }
      const active = page.locator('#admin-nav a[aria-current="page"]');
      expect(await active.textContent()).toBe('Admins & moderators');
      const section = page.getByTestId('global-mods');
      await section.getByRole('button', { name: 'Add' }).click();
      await section.getByTestId('chat-user-search').fill(name);
      await section.getByTestId('chat-user-result').filter({ hasText: name }).click();
      await expect.poll(() => page.getByTestId('global-mods').locator('li').filter({ hasText: name }).count()).toBe(1);
      const mods = await h.forum.ctx.groups.members('Global Moderators');
      expect(mods).toContain((await h.forum.ctx.users.byUsername(name))!.uid);
      await shot(page, `admin-admins-mods-${device}`);
      const axe = await seriousAxeViolations(page);
      expect(axe, axe.join('\n')).toEqual([]);
      // Keyboard: on a fresh load the first Tab reaches the skip link.
      await h.goto(page, '/admin/manage/admins-mods');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    });
  }

  it('crossing between the forum and the admin area is a full page load; a global moderator sees only their entries', async () => {
    const h = e2e();
    const admin = (await h.forum.ctx.users.byUsername('founder'))!;
    const page = await h.open('/recent', { as: admin });
    await mark(page);
    await page.locator('.sidebar button[aria-label^="Account menu"]').last().click();
    await page.locator('#user-menu-admin').click();
    await page.waitForURL(new RegExp(`${h.rp}/admin$`));
    await page.waitForSelector('html[data-loaded]', { state: 'attached' });
    expect(await marked(page)).toBe(false);
    // Inside the admin area: in-page navigation.
    await mark(page);
    await page.locator('#admin-nav a', { hasText: 'Admins & moderators' }).click();
    await page.waitForURL(/admins-mods$/);
    await expect.poll(() => page.getByTestId('admins').count()).toBe(1);
    expect(await marked(page)).toBe(true);
    // Back to the forum: a full load again.
    await page.locator('#admin-view-forum').click();
    await page.waitForURL(new RegExp(`${h.rp}/$`));
    await page.waitForSelector('html[data-loaded]', { state: 'attached' });
    expect(await marked(page)).toBe(false);

    const mod = (await h.forum.ctx.users.byUsername('helperdesktop'))!;
    const modPage = await h.open('/admin/manage/users', { as: mod });
    const entries = await modPage.locator('#admin-nav a').allTextContents();
    expect(entries.sort()).toEqual(['Tags', 'Users']);
    const denied = await modPage.goto(`${h.base}/admin/manage/admins-mods`);
    expect(denied?.status()).toBe(403);
  });
});
