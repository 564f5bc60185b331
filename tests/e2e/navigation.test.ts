/** In-page navigation against the real server (spec §2 navigation behaviour, §4 page load, §6, §8). */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../../src/server/test/harness.js';
import { seedSmall, seenEverything, topicPath, useE2E } from './harness.js';

const e2e = useE2E(async (forum) => {
  const data = await seedSmall(forum);
  // A member's post linking to a topic that no longer exists: the in-page 404.
  const viewer = { ...(await forum.ctx.privileges.viewer(data.carol.uid)), master: true };
  await forum.ctx.posts.reply(viewer, data.welcome.tid, { content: 'The old thread is [over here](/forum/topic/99999/gone) if you need it.' });
  await seenEverything(forum, [data.alice, data.bob, data.carol]);
  return data;
});

/** Puts a marker on window: it survives only if no full page load happens. */
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { __marker: string }).__marker = 'still-here'));
const marker = (page: Page) => page.evaluate(() => (window as unknown as { __marker?: string }).__marker ?? null);

describe('in-page navigation (spec §2)', () => {
  it('moves between pages without reloading, marks the active link, titles the page, and goes back and forward', async () => {
    const h = e2e();
    const page = await h.open('/', { as: h.data.alice });
    await expect(page.title()).resolves.toBe('Palaver');
    await mark(page);

    await page.click('.sidebar a[href="/forum/recent"]');
    await page.waitForURL(`${h.base}/recent`);
    await page.getByRole('heading', { name: 'Recent Topics' }).waitFor();
    expect(await marker(page)).toBe('still-here');
    await expect(page.title()).resolves.toBe('Recent Topics | Palaver');
    expect(await page.getAttribute('.sidebar a[href="/forum/recent"]', 'aria-current')).toBe('page');
    expect(await page.getAttribute('.sidebar a[href="/forum/users"]', 'aria-current')).toBeNull();

    await page.getByRole('link', { name: 'Welcome to Palaver' }).first().click();
    await page.waitForURL(`${h.base}${topicPath(h.data.welcome)}`);
    await page.getByText('Welcome everyone! This forum').waitFor();
    await expect(page.title()).resolves.toBe('Welcome to Palaver | Palaver');
    expect(await marker(page)).toBe('still-here');

    await page.goBack();
    await page.waitForURL(`${h.base}/recent`);
    await page.getByRole('heading', { name: 'Recent Topics' }).waitFor();
    await page.goBack();
    await page.waitForURL(`${h.base}/`);
    await page.getByRole('heading', { name: 'Categories' }).waitFor();
    await page.goForward();
    await page.waitForURL(`${h.base}/recent`);
    await page.getByRole('heading', { name: 'Recent Topics' }).waitFor();
    await page.goForward();
    await page.getByText('Welcome everyone! This forum').waitFor();
    expect(await marker(page)).toBe('still-here');
  });
});

describe('error pages (spec §8)', () => {
  it('shows the 404 page for an unknown address, both loaded and navigated to', async () => {
    const h = e2e();
    const page = await h.open('/no-such-page');
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    await expect(page.title()).resolves.toBe('Not found | Palaver');
    expect(await page.textContent('.error-page')).toContain('does not exist or has moved');

    // A link in a post to a topic that is gone: the 404 renders in place.
    await h.goto(page, topicPath(h.data.welcome));
    await mark(page);
    await page.getByRole('link', { name: 'over here' }).click();
    await page.waitForURL(`${h.base}/topic/99999/gone`);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    expect(await marker(page)).toBe('still-here');
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await page.getByRole('heading', { name: 'Categories' }).waitFor();
  });

  it('sends a visitor from a members-only page (401) to login and back there after logging in (spec §6)', async () => {
    const h = e2e();
    const page = await h.open('/unread');
    await page.waitForURL(`${h.base}/login`);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.locator('.alerts-area', { hasText: "You don't seem to be logged in." }).waitFor();

    await page.getByLabel('Username or email').fill('bob');
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${h.base}/unread`);
    await page.getByRole('heading', { name: 'Unread Topics' }).waitFor();
    await page.waitForSelector('html[data-loaded]', { state: 'attached' });
    await page.locator('.sidebar').getByRole('button', { name: 'Account menu for bob' }).waitFor();
  });

  it('sends a visitor to login when an in-page navigation answers 401', async () => {
    const h = e2e();
    const page = await h.open('/recent');
    await mark(page);
    // The address typed into a link of the page (visitors have no Unread link).
    await page.evaluate((href) => {
      const a = document.createElement('a');
      a.href = href;
      a.textContent = 'Unread for members';
      document.querySelector('main')!.prepend(a);
    }, `${h.rp}/unread`);
    await page.getByRole('link', { name: 'Unread for members' }).click();
    await page.waitForURL(`${h.base}/login`);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.locator('.alerts-area', { hasText: "You don't seem to be logged in." }).waitFor();
    expect(await marker(page)).toBe('still-here');
  });
});
