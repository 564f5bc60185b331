/** Layout choices and responsive behaviour (spec §2 layout, §4 sidebar and bottom bar, §9). */
import { describe, expect, it } from 'vitest';
import { PHONE, seedSmall, topicPath, useE2E } from './harness.js';

const e2e = useE2E(async (forum) => {
  const data = await seedSmall(forum);
  // A long topic, so that a phone can scroll.
  const viewer = { ...(await forum.ctx.privileges.viewer(data.carol.uid)), master: true };
  for (let i = 1; i <= 12; i++) await forum.ctx.posts.reply(viewer, data.avatar.tid, { content: `Reply number ${i}: try the profile page, then the picture tab.` });
  return data;
});

describe('skin and sidebar (spec §2, §3 openSidebars)', () => {
  it("keeps a member's skin and sidebar choices after a reload", async () => {
    const h = e2e();
    const page = await h.open('/recent', { as: h.data.carol });
    expect(await page.getAttribute('html', 'data-bs-theme')).toBe('light');
    await page.locator('.sidebar').getByRole('button', { name: 'Skin' }).click();
    await page.getByRole('button', { name: 'Darkly' }).click();
    // Darkly's page background (#222) shows once its stylesheet has loaded.
    const darkly = 'rgb(34, 34, 34)';
    await page.waitForFunction((bg) => getComputedStyle(document.body).backgroundColor === bg, darkly);
    const toggle = page.locator('.sidebar-toggle');
    expect(await toggle.getAttribute('aria-label')).toBe('Expand sidebar');
    const saved = page.waitForResponse((r) => r.url().includes('/settings') && r.request().postData()?.includes('openSidebars') === true);
    await toggle.click();
    await saved;
    await page.locator('.sidebar').getByText('Recent', { exact: true }).waitFor();

    await page.reload();
    await page.waitForSelector('html[data-loaded]', { state: 'attached' });
    expect(await page.getAttribute('html', 'data-bs-theme')).toBe('dark');
    await page.waitForFunction((bg) => getComputedStyle(document.body).backgroundColor === bg, darkly, { timeout: 10_000 });
    expect(await page.locator('.sidebar-toggle').getAttribute('aria-label')).toBe('Collapse sidebar');
    expect(await page.locator('.sidebar').getByText('Recent', { exact: true }).isVisible()).toBe(true);
  });

  it("keeps a visitor's choices in the browser after a reload", async () => {
    const h = e2e();
    const page = await h.open('/');
    await page.locator('.sidebar').getByRole('button', { name: 'Skin' }).click();
    await page.getByRole('button', { name: 'Flatly' }).click();
    await page.locator('.sidebar-toggle').click();
    await page.locator('.sidebar').getByText('Categories', { exact: true }).waitFor();
    await page.reload();
    await page.waitForSelector('html[data-loaded]', { state: 'attached' });
    await page.waitForFunction(() => [...document.styleSheets].some((s) => s.href?.includes('flatly')));
    expect(await page.locator('.sidebar-toggle').getAttribute('aria-label')).toBe('Collapse sidebar');
    expect(await page.locator('.sidebar').getByText('Categories', { exact: true }).isVisible()).toBe(true);
  });
});

describe('phone layout (spec §4 bottom bar, §9 10 px threshold)', () => {
  it('shows the bottom bar, hides it on scrolling down and shows it on scrolling up', async () => {
    const h = e2e();
    const page = await h.open(topicPath(h.data.avatar), { as: h.data.bob, viewport: PHONE });
    const bar = page.getByRole('navigation', { name: 'Quick navigation' });
    expect(await bar.isVisible()).toBe(true);
    expect(await page.locator('.sidebar').isVisible()).toBe(false);
    const inView = () => bar.evaluate((el) => el.getBoundingClientRect().top < window.innerHeight);
    expect(await inView()).toBe(true);

    await page.mouse.move(195, 400);
    await page.mouse.wheel(0, 800);
    await page.waitForFunction(() => document.querySelector('.bottombar')!.getBoundingClientRect().top >= window.innerHeight, undefined, { timeout: 3000 });
    await page.mouse.wheel(0, -300);
    await page.waitForFunction(() => document.querySelector('.bottombar')!.getBoundingClientRect().bottom <= window.innerHeight + 1, undefined, { timeout: 3000 });
    // Its links work: Recent from the bar.
    await bar.getByRole('link', { name: 'Recent' }).click();
    await page.getByRole('heading', { name: 'Recent Topics' }).waitFor();
  });
});

describe('without JavaScript (server render)', () => {
  it("shows the first page's content with JavaScript disabled", async () => {
    const h = e2e();
    const page = await h.open(topicPath(h.data.welcome), { javaScript: false });
    expect(await page.getByRole('heading', { name: 'Welcome to Palaver' }).isVisible()).toBe(true);
    expect(await page.getByText('Welcome everyone! This forum').isVisible()).toBe(true);
    expect(await page.getByText('Agreed! Happy to be here.').isVisible()).toBe(true);
    expect(await page.title()).toBe('Welcome to Palaver | Palaver');

    await page.goto(`${h.base}/`);
    expect(await page.getByRole('link', { name: 'General Discussion' }).first().isVisible()).toBe(true);
    // Links are plain links: following one loads the next page from the server.
    await page.getByRole('link', { name: 'Help & Support' }).first().click();
    await page.waitForURL(/\/category\/\d+\/help-support/);
    expect(await page.getByText('How do I change my avatar?').first().isVisible()).toBe(true);
  });
});
