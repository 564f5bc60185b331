/** The admin's appearance pages in the browser (issue 16 §6): skin preview and choice, customise save, plugins page. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, useE2E } from './harness.js';

const e2e = useE2E(async (forum) => seedSmall(forum));
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });

describe('admin appearance', () => {
  for (const [device, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`previews a skin and makes it the forum's default (${device})`, async () => {
      const h = e2e();
      const skin = device === 'desktop' ? 'darkly' : 'flatly';
      const name = skin.charAt(0).toUpperCase() + skin.slice(1);
      const page = await h.open('/admin/appearance/skins', { as: h.data.alice, viewport });
      await page.getByRole('button', { name: `Preview ${name}` }).click();
      const frame = page.frameLocator('iframe[title="Preview: ' + name + '"]');
      await expect.poll(() => frame.locator('h5').textContent()).toBe(name);
      // The preview really uses the skin's stylesheet.
      await expect.poll(() => frame.locator('link[href*="/assets/skins/' + skin + '.css"]').count()).toBe(1);
      await page.getByRole('button', { name: `Make default: ${name}` }).click();
      await expect.poll(async () => (await h.forum.ctx.settings.get()).bootswatchSkin).toBe(skin);
      await expect.poll(() => page.locator(`[data-skin="${skin}"] .badge.text-bg-primary`).count()).toBe(1);
      await shot(page, `admin-appearance-skins-${device}`);
      const guest = await h.open('/', { viewport });
      expect(await guest.locator('link#skin-css').getAttribute('href')).toContain(`/skins/${skin}.css`);
      await h.forum.ctx.settings.set({ bootswatchSkin: '' });
      // The admin area itself wears the default skin; checked in plain Bootstrap, as the other admin pages are.
      await page.reload();
      await page.waitForSelector('html[data-loaded]', { state: 'attached' });
      expect(await seriousAxeViolations(page)).toEqual([]);
    });

    it(`saves custom CSS and a header that public pages then show (${device})`, async () => {
      const h = e2e();
      await h.forum.ctx.settings.set({ bootswatchSkin: '' });
      const page = await h.open('/admin/appearance/customise', { as: h.data.alice, viewport });
      await page.locator('#customCSS').fill('.custom-header { outline: 3px solid rgb(255, 0, 0); }\n</style><script>window.pwned = 1</script>');
      await page.getByLabel('Use the custom CSS').check();
      await page.getByRole('tab', { name: 'Custom header' }).click();
      await page.locator('#customHTML').fill('<p><strong>Maintenance</strong> on Sunday <script>window.pwned = 2</script></p>');
      await page.getByLabel('Show the custom header').check();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(async () => (await h.forum.ctx.settings.get()).useCustomHTML).toBe(true);
      expect((await h.forum.ctx.settings.get()).useCustomCSS).toBe(true);
      await page.getByRole('tab', { name: 'Custom JavaScript' }).click();
      await expect.poll(() => page.getByRole('note').textContent()).toContain('runs in every visitor');
      await shot(page, `admin-appearance-customise-${device}`);
      expect(await seriousAxeViolations(page)).toEqual([]);

      const pub = await h.open('/', { viewport });
      const header = pub.locator('.custom-header');
      await expect.poll(() => header.textContent()).toBe('Maintenance on Sunday ');
      await expect.poll(() => header.evaluate((el) => getComputedStyle(el).outlineColor)).toBe('rgb(255, 0, 0)');
      expect(await pub.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
      await shot(pub, `admin-appearance-public-${device}`);
      await h.forum.ctx.settings.set({ useCustomCSS: false, useCustomHTML: false });
    });
  }

  it('turns the emoji plugin off and on from the plugins page; markdown stays on', async () => {
    const h = e2e();
    const page = await h.open('/admin/extend/plugins', { as: h.data.alice });
    await expect.poll(() => page.getByLabel('Markdown on').isDisabled()).toBe(true);
    await page.getByLabel('Emoji on').uncheck();
    await expect.poll(async () => (await h.forum.ctx.settings.get())['plugins:disabled']).toBe('emoji');
    await shot(page, 'admin-extend-plugins-desktop');
    await page.getByLabel('Emoji on').check();
    await expect.poll(async () => (await h.forum.ctx.settings.get())['plugins:disabled']).toBe('');
  });
});
