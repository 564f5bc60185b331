/** The compose route (composeRouteEnabled on, issue 52): New topic, Reply, Quote and Edit open /compose, served by the server, and post. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { categoryPath, DESKTOP, PHONE, SCREENSHOTS, seedSmall, useE2E } from './harness.js';

const e2e = useE2E(async (forum) => {
  await forum.ctx.settings.set({ composeRouteEnabled: true });
  return seedSmall(forum);
});

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });
const form = (page: Page) => page.locator('.compose-page');

describe('the compose route', () => {
  it('New topic, Reply, Quote and Edit each open /compose and post (desktop)', async () => {
    const h = e2e();
    const { general, bob, alice } = h.data;
    const page = await h.open(categoryPath(general), { as: bob, viewport: DESKTOP });

    await page.getByRole('button', { name: 'New topic' }).first().click();
    await page.waitForURL(new RegExp(`/compose\\?cid=${general.cid}`));
    await form(page).getByPlaceholder('Enter your topic title here…').fill('Composed on its own page');
    await form(page).locator('textarea').fill('A topic written on the compose page.');
    await shot(page, 'compose-route-new-topic-desktop');
    await form(page).getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/topic\/\d+\/composed-on-its-own-page$/);
    await page.getByRole('heading', { name: 'Composed on its own page' }).waitFor();

    await page.locator('.page-header').getByRole('button', { name: 'Reply' }).click();
    await page.waitForURL(/\/compose\?tid=\d+/);
    await form(page).locator('textarea').fill('A reply from the compose page.');
    await form(page).getByRole('button', { name: 'Submit' }).click();
    await page.locator('article.post', { hasText: 'A reply from the compose page.' }).waitFor();

    // Quote alice's welcome post: the quote header is there, and alice is told.
    await h.goto(page, `/topic/${h.data.welcome.tid}`);
    await page.locator('article.post').first().getByRole('button', { name: 'Quote' }).click();
    await page.waitForURL(/\/compose\?tid=\d+&toPid=\d+&quoted=1&username=alice/);
    await page.waitForFunction(() => (document.querySelector('.compose-page textarea') as HTMLTextAreaElement | null)?.value.includes('said in'));
    const quoted = await form(page).locator('textarea').inputValue();
    await form(page).locator('textarea').fill(`${quoted.trimEnd()}\n\nQuoted from the compose page.`);
    await form(page).getByRole('button', { name: 'Submit' }).click();
    const quotePost = page.locator('article.post', { hasText: 'Quoted from the compose page.' });
    await quotePost.waitFor();
    expect(await quotePost.locator('blockquote').textContent()).toContain('Welcome everyone!');
    await h.forum.ctx.hooks.idle();
    await expect.poll(async () => (await h.forum.ctx.db.selectFrom('notifications').selectAll().where('uid', '=', alice.uid).where('type', '=', 'quote').execute()).length).toBe(1);

    await quotePost.getByRole('button', { name: 'Edit' }).click();
    await page.waitForURL(/\/compose\?pid=\d+/);
    await page.waitForFunction(() => (document.querySelector('.compose-page textarea') as HTMLTextAreaElement | null)?.value.includes('Quoted from'));
    await form(page).locator('textarea').fill('Edited on the compose page.');
    await form(page).getByRole('button', { name: 'Save changes' }).click();
    await page.locator('article.post', { hasText: 'Edited on the compose page.' }).waitFor();
  });

  it('serves the page to a phone, and refuses a reply to a topic the member may not reply to', async () => {
    const h = e2e();
    const { bob, welcome } = h.data;
    const page = await h.open(`/compose?tid=${welcome.tid}`, { as: bob, viewport: PHONE });
    await form(page).locator('textarea').waitFor();
    await shot(page, 'compose-route-reply-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    const res = await page.goto(`${h.base}/compose?tid=999999`);
    expect(res?.status()).toBe(404);
  });
});
