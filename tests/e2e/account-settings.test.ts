/** Account pages in the browser (issue 10): settings saves a notification preference, categories changes a watch state. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, useE2E } from './harness.js';

const e2e = useE2E(seedSmall);
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });

describe('account settings and watching pages', () => {
  it('settings: turning off email for replies and choosing a weekly digest is saved and shown again', async () => {
    const h = e2e();
    const { carol } = h.data;
    const page = await h.open(`/user/${carol.userslug}/settings`, { as: carol, viewport: DESKTOP });
    const email = page.locator('tr[data-type="new-reply"] input[data-channel="email"]');
    expect(await email.isChecked()).toBe(true);
    await email.uncheck();
    await page.locator('#dailyDigestFreq').selectOption('week');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'account-settings-desktop');
    await Promise.all([page.waitForResponse((r) => r.url().includes(`/users/${carol.uid}/settings`) && r.status() === 200), page.getByTestId('settings-save').click()]);
    const stored = JSON.parse((await h.forum.ctx.users.get(carol.uid))!.settings) as Record<string, unknown>;
    expect(stored).toMatchObject({ 'notificationType_new-reply': 'notification', dailyDigestFreq: 'week' });
    await h.goto(page, `/user/${carol.userslug}/settings`);
    expect(await page.locator('tr[data-type="new-reply"] input[data-channel="email"]').isChecked()).toBe(false);
    expect(await page.locator('tr[data-type="new-reply"] input[data-channel="inApp"]').isChecked()).toBe(true);
    expect(await page.locator('#dailyDigestFreq').inputValue()).toBe('week');
  });

  it('settings: one topic a page and no pagination loads the next topics as the list ends; a time zone shows dates in it', async () => {
    const h = e2e();
    const { alice } = h.data;
    const page = await h.open(`/user/${alice.userslug}/settings`, { as: alice, viewport: DESKTOP });
    await page.locator('#topicsPerPage').fill('1');
    await page.getByLabel('Paginate topics and posts instead of loading more as you scroll').uncheck();
    await page.locator('#timezone').selectOption('Asia/Tokyo');
    // No language chosen: the member follows the forum's default, named in the first option.
    expect(await page.locator('#userLang').inputValue()).toBe('');
    expect(await page.locator('#userLang option[value=""]').textContent()).toBe('Default (English (United Kingdom))');
    // A change of time zone reloads the page (dates are set as a page loads).
    await Promise.all([page.waitForEvent('load'), page.getByTestId('settings-save').click()]);
    expect(await page.locator('#timezone').inputValue()).toBe('Asia/Tokyo');
    await h.goto(page, '/recent');
    // Two topics, one a page: the second loads on its own, and no page links show.
    await expect.poll(() => page.locator('.topic-row').count()).toBe(2);
    expect(await page.locator('.pagination').count()).toBe(0);
    // A date's absolute form (its title) is in the chosen zone: 9 hours ahead of UTC.
    const [title, tokyo, utc] = await page.locator('.topic-row time').first().evaluate((el) => {
      const at = new Date(el.getAttribute('datetime')!);
      const format = (timeZone: string) => new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', timeZone }).format(at);
      return [el.getAttribute('title'), format('Asia/Tokyo'), format('UTC')];
    });
    expect(title).toBe(tokyo);
    expect(tokyo).not.toBe(utc);
  });

  it('settings on a phone', async () => {
    const h = e2e();
    const { bob } = h.data;
    const page = await h.open(`/user/${bob.userslug}/settings`, { as: bob, viewport: PHONE });
    await page.getByTestId('account-settings').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'account-settings-phone');
  });

  it('categories: a member sets a category to ignoring; the state is stored and shown again', async () => {
    const h = e2e();
    const { bob, help } = h.data;
    const page = await h.open(`/user/${bob.userslug}/categories`, { as: bob, viewport: DESKTOP });
    const menu = page.locator(`li[data-cid="${help.cid}"] select`);
    expect(await menu.inputValue()).toBe('watching');
    await Promise.all([page.waitForResponse((r) => r.url().includes(`/categories/${help.cid}/watch`) && r.status() === 200), menu.selectOption('ignoring')]);
    expect((await h.forum.ctx.categories.watchStates(bob.uid, [help.cid])).get(help.cid)).toBe('ignoring');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'account-categories-desktop');
    await h.goto(page, `/user/${bob.userslug}/categories`);
    expect(await page.locator(`li[data-cid="${help.cid}"] select`).inputValue()).toBe('ignoring');
    await page.setViewportSize(PHONE);
    await shot(page, 'account-categories-phone');
  });

  it('watched and tags pages render for the member', async () => {
    const h = e2e();
    const { bob, avatar } = h.data;
    const page = await h.open(`/user/${bob.userslug}/watched`, { as: bob, viewport: PHONE });
    await expect.poll(() => page.getByTestId('watched-topics').textContent()).toContain(avatar.title);
    await shot(page, 'account-watched-phone');
    await h.goto(page, `/user/${bob.userslug}/tags`);
    await page.getByText('You do not follow any tags.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'account-tags-phone');
  });
});
