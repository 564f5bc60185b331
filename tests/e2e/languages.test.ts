/** Languages in the browser (issue 56): a member who reads German or Arabic, a guest who picks from the footer's menu; screenshots of Arabic pages. */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { languageFixture } from '../../src/server/test/languages.js';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, useE2E } from './harness.js';

// A few texts of the shell in German and Arabic (once the translated files ship, the fixture
// lays these over them); every other key falls back to en-GB.
const fixture = languageFixture({
  de: { global: { 'header.recent': 'Neueste', 'header.categories': 'Kategorien', language: 'Sprache' } },
  ar: { global: { 'header.recent': 'الأحدث', 'header.categories': 'الفئات', language: 'اللغة' } },
});
afterAll(() => fixture.restore());

const e2e = useE2E(seedSmall);
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });
const htmlAttr = (page: Page, name: string) => page.evaluate((n) => document.documentElement.getAttribute(n), name);

describe('languages in the browser', () => {
  it('a member who reads German sees the shell in German, left to right', async () => {
    const h = e2e();
    const { bob } = h.data;
    await h.forum.ctx.users.saveSettings(await h.forum.ctx.privileges.viewer(bob.uid), bob.uid, { userLang: 'de' });
    const page = await h.open('/recent', { as: bob, viewport: DESKTOP });
    expect(await htmlAttr(page, 'lang')).toBe('de');
    expect(await htmlAttr(page, 'dir')).toBe('ltr');
    await expect.poll(() => page.getByText('Neueste').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('language-menu').inputValue()).toBe('de');
  });

  it('a member who reads Arabic gets a right-to-left page; screenshots of home and topic, desktop and phone', async () => {
    const h = e2e();
    const { carol, welcome } = h.data;
    await h.forum.ctx.users.saveSettings(await h.forum.ctx.privileges.viewer(carol.uid), carol.uid, { userLang: 'ar' });
    const page = await h.open('/', { as: carol, viewport: DESKTOP });
    expect(await htmlAttr(page, 'lang')).toBe('ar');
    expect(await htmlAttr(page, 'dir')).toBe('rtl');
    await expect.poll(() => page.getByText('الأحدث').count()).toBeGreaterThan(0);
    await shot(page, 'ar-home-desktop');
    await h.goto(page, `/topic/${welcome.tid}/${welcome.slug}`);
    // An English post on an Arabic page keeps its own direction.
    expect(await page.locator('.post-content').first().getAttribute('dir')).toBe('auto');
    await shot(page, 'ar-topic-desktop');
    await page.setViewportSize(PHONE);
    await shot(page, 'ar-topic-phone');
    await h.goto(page, '/');
    await shot(page, 'ar-home-phone');
  });

  it("a guest picks German in the footer's menu; the page reloads in German and stays so", async () => {
    const h = e2e();
    const page = await h.open('/recent', { viewport: DESKTOP });
    expect(await htmlAttr(page, 'lang')).toBe('en-GB');
    await Promise.all([page.waitForEvent('load'), page.getByTestId('language-menu').selectOption('de')]);
    expect(await htmlAttr(page, 'lang')).toBe('de');
    await h.goto(page, '/categories');
    expect(await htmlAttr(page, 'lang')).toBe('de');
  });
});
