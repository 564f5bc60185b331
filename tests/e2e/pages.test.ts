/**
 * The main pages, as a visitor and a member see them: no serious or critical axe-core
 * violation, and screenshots (desktop 1366×900, phone 390×844) in test-output/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/server/seed/demo.js';
import { DESKTOP, PHONE, SCREENSHOTS, categoryPath, seriousAxeViolations, topicPath, useE2E } from './harness.js';

const e2e = useE2E(async (forum) => {
  await seedDemo(forum.ctx);
  const member = await forum.createUser({ username: 'sam' });
  const recent = (await (await fetch(`${forum.baseUrl}/api/recent`)).json()) as { topics: { tid: number; slug: string; category: { cid: number; slug: string } }[] };
  const topic = recent.topics.find((t) => t.tid === 1) ?? recent.topics[0]!;
  return { member, topic, category: topic.category };
});

/** The main pages, by name, with what each must show. */
function mainPages(): { name: string; path: string; shows: string }[] {
  const { topic, category } = e2e().data;
  return [
    { name: 'categories', path: '/', shows: 'General Discussion' },
    { name: 'category', path: categoryPath(category), shows: 'New' },
    { name: 'topic', path: topicPath(topic), shows: 'Welcome to the community!' },
    { name: 'recent', path: '/recent', shows: 'Recent Topics' },
    { name: 'login', path: '/login', shows: 'Log in' },
    { name: 'register', path: '/register', shows: 'Register' },
    { name: 'users', path: '/users', shows: 'marguerite' },
    { name: 'profile', path: '/user/marguerite', shows: 'Gardener, tinkerer' },
  ];
}

mkdirSync(SCREENSHOTS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled' });

describe('main pages: accessibility and screenshots', () => {
  for (const who of ['visitor', 'member'] as const) {
    it(`has no serious or critical axe-core violation, as a ${who} (desktop)`, async () => {
      const h = e2e();
      const context = await h.context({ viewport: DESKTOP, as: who === 'member' ? h.data.member : undefined });
      const page = await context.newPage();
      const found: string[] = [];
      for (const p of mainPages()) {
        if (who === 'member' && (p.name === 'login' || p.name === 'register')) continue;
        await h.goto(page, p.path);
        await page.getByText(p.shows).first().waitFor();
        // Fonts and images settled, so the screenshot is what a reader sees.
        await page.evaluate(() => document.fonts.ready);
        await shot(page, `${p.name}-${who}-desktop`);
        found.push(...(await seriousAxeViolations(page)).map((v) => `${p.name}: ${v}`));
      }
      expect(found).toEqual([]);
    });
  }

  it('has no serious or critical violation on a phone, and saves phone screenshots', async () => {
    const h = e2e();
    const context = await h.context({ viewport: PHONE, as: h.data.member });
    const page = await context.newPage();
    const found: string[] = [];
    for (const p of mainPages()) {
      if (p.name === 'login' || p.name === 'register') continue;
      await h.goto(page, p.path);
      await page.getByText(p.shows).first().waitFor();
      await page.evaluate(() => document.fonts.ready);
      await shot(page, `${p.name}-member-phone`);
      found.push(...(await seriousAxeViolations(page)).map((v) => `${p.name}: ${v}`));
    }
    const guest = await (await h.context({ viewport: PHONE })).newPage();
    for (const name of ['login', 'register']) {
      await h.goto(guest, `/${name}`);
      await shot(guest, `${name}-visitor-phone`);
      found.push(...(await seriousAxeViolations(guest)).map((v) => `${name}: ${v}`));
    }
    expect(found).toEqual([]);
  });
});
