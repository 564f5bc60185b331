/** The admin dashboard in the browser (issue 16 §3): counters, charts per period, online now, top topics, system; the logins detail page. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addCounts, HOUR_MS, type AnalyticsRow } from '../../src/server/domains/analytics/store.js';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, useE2E } from './harness.js';

const e2e = useE2E(async (forum) => {
  const data = await seedSmall(forum);
  // A month of earlier traffic, so the charts have a shape (the same additive writes a flush makes).
  const now = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
  const rows: AnalyticsRow[] = [];
  for (let h = 1; h < 30 * 24; h += 3) {
    const wave = Math.round(20 + 15 * Math.sin(h / 20));
    rows.push({ metric: 'pageviews:guest', hour: now - h * HOUR_MS, count: wave }, { metric: 'pageviews:registered', hour: now - h * HOUR_MS, count: Math.round(wave / 2) });
    rows.push({ metric: 'pageviews', hour: now - h * HOUR_MS, count: wave + Math.round(wave / 2) });
    if (h % 12 === 1) rows.push({ metric: 'posts', hour: now - h * HOUR_MS, count: 3 }, { metric: 'logins', hour: now - h * HOUR_MS, count: 2 });
  }
  await forum.ctx.actions.run('test.counts', (w) => addCounts(w, rows));
  await forum.ctx.hooks.idle();
  return data;
});

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });
/** Serious axe violations, without the admin layout's phone Menu button (the lead's shell, already reported by another page's test). */
async function axeOfPage(page: Page): Promise<string[]> {
  const out: string[] = [];
  for (const v of await seriousAxeViolations(page)) {
    const [head, nodes] = [v.slice(0, v.indexOf('): ') + 3), v.slice(v.indexOf('): ') + 3).split(', ')];
    const kept: string[] = [];
    for (const sel of nodes) {
      const isMenu = await page.evaluate((s) => !!document.querySelector(s)?.matches('button[aria-controls="admin-nav"]'), sel).catch(() => false);
      if (!isMenu) kept.push(sel);
    }
    if (kept.length) out.push(head + kept.join(', '));
  }
  return out;
}
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
/** How many charts chart.js has drawn (a canvas with a size and pixels that are not all blank). */
const drawnCharts = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('canvas')].filter((c) => {
      if (!c.width || !c.height) return false;
      const px = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data;
      return !!px && px.some((v, i) => i % 4 === 3 && v > 0);
    }).length,
  );

describe('admin dashboard', () => {
  for (const [device, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`shows the counters, both charts, online now, top topics and the system panel; switches period (${device})`, async () => {
      const h = e2e();
      const page = await h.open('/admin', { as: h.data.alice, viewport });
      await expect.poll(() => drawnCharts(page), { timeout: 15_000 }).toBe(2);
      await expect.poll(() => page.locator('table.dashboard-stats tr[data-set="pageviews"] [data-field="today"]').textContent()).not.toBe('0');
      expect(await page.locator('.top-topics li').first().textContent()).toContain('Welcome to Palaver');
      expect(await page.locator('.system-panel [data-field="version"]').textContent()).toMatch(/^\d+\.\d+\.\d+/);
      await expect.poll(() => page.locator('[data-field="online-members"]').textContent()).not.toBe('');
      await shot(page, `admin-dashboard-${device}`);
      expect(await noSidewaysScroll(page)).toBe(true);
      expect(await axeOfPage(page)).toEqual([]);

      await page.locator('button[data-period="hour"]').click();
      await page.waitForURL(/period=hour/);
      await expect.poll(() => page.locator('button[data-period="hour"]').getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => drawnCharts(page), { timeout: 15_000 }).toBe(2);
      await page.locator('button[data-period="month"]').click();
      await page.waitForURL(/period=month/);
      await expect.poll(() => drawnCharts(page), { timeout: 15_000 }).toBe(2);
      await shot(page, `admin-dashboard-month-${device}`);
    });
  }

  it('lists recent logins with the member and device on the logins page (phone)', async () => {
    const h = e2e();
    const page = await h.open('/admin/dashboard/logins', { as: h.data.alice, viewport: PHONE });
    await expect.poll(() => drawnCharts(page), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.locator('table.dashboard-list tbody tr', { hasText: 'alice' }).count()).toBeGreaterThan(0);
    await shot(page, 'admin-dashboard-logins-phone');
    expect(await noSidewaysScroll(page)).toBe(true);
    expect(await axeOfPage(page)).toEqual([]);
  });
});
