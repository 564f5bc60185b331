/** NodeBB's /tos (issue 53): the forum's terms of use as a page of their own. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seriousAxeViolations, useE2E } from './harness.js';

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });

const e2e = useE2E(async (forum) => {
  await forum.ctx.settings.set({ termsOfUse: '## Our rules\n\nBe **kind** to each other, and keep to the topic.' });
  return {};
});

describe('terms of use page', () => {
  it('shows the terms as the admin wrote them, on a desktop and a phone', async () => {
    const h = e2e();
    const page = await h.open('/tos', { viewport: DESKTOP });
    await expect.poll(() => page.locator('.tos strong').textContent()).toBe('kind');
    expect(await page.locator('h1').first().textContent()).toBe('Terms of use');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'tos-desktop');
    await page.setViewportSize(PHONE);
    await shot(page, 'tos-phone');
  });
});
