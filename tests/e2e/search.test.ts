/** Search in the browser (issue 15 item 2): instant results while typing, the full page with its filters in the URL. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, useE2E } from './harness.js';

const e2e = useE2E(async (forum) => {
  const data = await seedSmall(forum);
  const { SYSTEM } = await import('../../src/server/setup.js');
  const as = { ...(await forum.ctx.privileges.viewer(data.alice.uid)), master: true };
  void SYSTEM;
  const kiwi = await forum.ctx.topics.create(as, { cid: data.general.cid, title: 'Kiwi fruit harvest', content: 'The kiwi harvest starts in **autumn**; pick them firm.', tags: ['garden'] });
  await forum.ctx.topics.create(as, { cid: data.help.cid, title: 'Kiwi bird sightings', content: 'A kiwi was seen near the river at night.' });
  await forum.ctx.topics.create(as, { cid: data.general.cid, title: '東京の旅行', content: '東京タワーに行ったことがありますか？' });
  return { ...data, kiwi: kiwi.topic };
});

const form = (page: Page) => page.locator('form.search-form');
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });

describe('search', () => {
  for (const [device, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`shows results in the dropdown while typing and opens the full page (${device})`, async () => {
      const h = e2e();
      const page = await h.open('/', { as: h.data.bob, viewport });
      await page.locator('button.nav-btn[aria-label="Search"]:visible').first().click();
      const box = page.locator('.search-menu.show input[type=search]');
      const requests: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/search?')) requests.push(r.url());
      });
      await box.pressSequentially('kiwi', { delay: 30 });
      const quick = page.locator('.search-menu.show .quick-search-results a.dropdown-item');
      await expect.poll(() => quick.count()).toBe(2);
      // Typing fast makes one request, not one per key.
      expect(requests.length).toBe(1);
      expect(await quick.first().locator('mark').first().textContent()).toMatch(/kiwi/i);
      await shot(page, `search-dropdown-${device}`);
      await box.press('Enter');
      await page.waitForURL(/\/search\?term=kiwi/);
      await expect.poll(() => page.locator('.search-results > li').count()).toBe(2);
      await shot(page, `search-page-${device}`);
      expect(await seriousAxeViolations(page)).toEqual([]);
    });
  }

  it('keeps every filter in the URL: a reload and the back button show the same search', async () => {
    const h = e2e();
    const page = await h.open('/search', { as: h.data.bob });
    await form(page).getByRole('searchbox', { name: 'Search' }).fill('kiwi');
    await form(page).getByRole('button', { name: /Advanced search/ }).click();
    await form(page).locator('select[multiple]').selectOption(String(h.data.general.cid));
    await form(page).getByLabel('Has tags').fill('garden');
    await page.locator('form.search-form button[type=submit]').click();
    await page.waitForURL(/categories=/);
    await expect.poll(() => page.locator('.search-results > li').count()).toBe(1);
    expect(await page.locator('.search-results a').first().textContent()).toBe('Kiwi fruit harvest');
    const url = page.url();
    expect(url).toContain('hasTags=garden');
    await page.reload();
    // Typing before the reloaded page hydrates would be lost (the server's markup shows the
    // results before React owns the form): CI's PostgreSQL run once searched the old words.
    await page.waitForSelector('html[data-loaded]', { state: 'attached' });
    await expect.poll(() => page.locator('.search-results > li').count()).toBe(1);
    expect(await form(page).getByLabel('Has tags').inputValue()).toBe('garden');
    // A second search, then back: the first one with its filters.
    await form(page).getByRole('searchbox', { name: 'Search' }).fill('東京');
    await form(page).getByLabel('Has tags').fill('');
    await form(page).locator('select[multiple]').selectOption([]);
    await page.locator('form.search-form button[type=submit]').click();
    await expect.poll(() => page.locator('.search-results a').first().textContent()).toBe('東京の旅行');
    await page.goBack();
    await expect.poll(() => page.url()).toBe(url);
    await expect.poll(() => page.locator('.search-results > li').count()).toBe(1);
    expect(await form(page).getByLabel('Has tags').inputValue()).toBe('garden');
    await shot(page, 'search-filters-desktop');
  });
});

describe('outgoing links', () => {
  for (const [device, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`sends an external link through the interstitial when the forum asks for it (${device})`, async () => {
      const h = e2e();
      await h.forum.ctx.settings.set({ useOutgoingLinksPage: true, outgoingLinksWhitelist: 'trusted.example' });
      try {
        const as = { ...(await h.forum.ctx.privileges.viewer(h.data.alice.uid)), master: true };
        const t = await h.forum.ctx.topics.create(as, { cid: h.data.general.cid, title: `Links ${device}`, content: 'See [the docs](https://docs.example.org/guide?a=1&b=2) and [ours](https://trusted.example/x).' });
        const page = await h.open(`/topic/${t.topic.tid}/${t.topic.slug}`, { as: h.data.bob, viewport });
        // A whitelisted address is left alone: the interstitial is only for the others.
        expect(await page.locator('.content a', { hasText: 'ours' }).getAttribute('href')).toBe('https://trusted.example/x');
        await page.locator('.content a', { hasText: 'the docs' }).click();
        await page.waitForURL(/\/outgoing\?url=/);
        const go = page.getByRole('link', { name: /Continue to docs\.example\.org/ });
        expect(await go.getAttribute('href')).toBe('https://docs.example.org/guide?a=1&b=2');
        expect(await go.getAttribute('rel')).toContain('noopener');
        await shot(page, `outgoing-${device}`);
        expect(await seriousAxeViolations(page)).toEqual([]);
      } finally {
        await h.forum.ctx.settings.set({ useOutgoingLinksPage: false, outgoingLinksWhitelist: '' });
      }
    });
  }
});

describe('the admin search page', () => {
  for (const [device, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`shows the index and queues a rebuild (${device})`, async () => {
      const h = e2e();
      const page = await h.open('/admin/plugins/dbsearch', { as: h.data.alice, viewport });
      await expect.poll(() => page.locator('#dbsearch-index').count()).toBe(1);
      const total = await h.forum.ctx.search.stats();
      expect(await page.getByText(`${total.documents} of ${total.posts} posts are in the search index.`).count()).toBe(1);
      await Promise.all([page.waitForResponse((r) => r.url().includes('/api/v3/admin/search/reindex') && r.status() === 200), page.getByRole('button', { name: 'Rebuild the index' }).click()]);
      await expect.poll(() => page.getByRole('button', { name: /Rebuild queued/ }).isDisabled()).toBe(true);
      await shot(page, `dbsearch-${device}`);
      expect(await seriousAxeViolations(page)).toEqual([]);
    });
  }
});
