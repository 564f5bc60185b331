/**
 * Greek, Hindi and Indonesian pages (issue 56): home, a topic and the account settings on a
 * desktop and a phone, each without text wider than the page, with the script's own font (no
 * missing glyphs), and screenshots (test-output/screenshots/lang-*.png) to look at.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, topicPath, useE2E } from './harness.js';

const e2e = useE2E(seedSmall);
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled' });

/** Elements wider than the page (text that overflows it), and whether the page scrolls sideways. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    // Inside a box that scrolls or clips sideways (a tab strip that scrolls), wider is by design.
    const clipped = (el: HTMLElement) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') return true;
      return false;
    };
    const wide = Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((el) => el.checkVisibility() && el.getBoundingClientRect().right > width + 1 && !el.closest('.offcanvas, .dropdown-menu, .visually-hidden') && !clipped(el))
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${(el.textContent ?? '').trim().slice(0, 40)}"`);
    return { scrolls: document.documentElement.scrollWidth > width + 1, wide: wide.slice(0, 5) };
  });
}

for (const lang of ['el', 'hi', 'id']) {
  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`${lang}, ${size}: home, a topic and the account settings fit the page`, async () => {
      const h = e2e();
      const { alice } = h.data;
      await h.forum.ctx.users.saveSettings(await h.forum.ctx.privileges.viewer(alice.uid), alice.uid, { userLang: lang });
      const page = await h.open('/', { as: alice, viewport });
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      for (const [name, path] of [['home', '/'], ['topic', topicPath(h.data.welcome)], ['settings', `/user/${alice.userslug}/settings`]] as const) {
        await h.goto(page, path);
        await page.evaluate(() => document.fonts.ready);
        expect(await overflow(page), `${lang} ${name} ${size}`).toEqual({ scrolls: false, wide: [] });
        await shot(page, `lang-${lang}-${name}-${size}`);
      }
      await h.forum.ctx.users.saveSettings(await h.forum.ctx.privileges.viewer(alice.uid), alice.uid, { userLang: '' });
    });
  }
}

describe('fonts', () => {
  it('Devanagari and Greek render with a font that has them (no boxes)', async () => {
    const h = e2e();
    const page = await h.open('/', { viewport: DESKTOP });
    const fits = await page.evaluate(async () => {
      await document.fonts.ready;
      // A glyph a font lacks is drawn as the same box for every such character: two different
      // letters of the script must measure differently, as a real font draws them.
      const c = document.createElement('canvas').getContext('2d')!;
      c.font = '32px system-ui, sans-serif';
      const w = (s: string) => c.measureText(s).width;
      return { devanagari: w('क') !== w('ि') && w('कककक') > 0, greek: w('Ω') !== w('ι') };
    });
    expect(fits).toEqual({ devanagari: true, greek: true });
  });
});
