import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('/forum');
});
afterAll(async () => {
  await h?.close();
});

describe('composer (spec §3)', () => {
  it('posts a new topic with its payload and opens it; keeps a draft meanwhile', async () => {
    const { page, context } = await h.open('/category/2/general');
    let payload: unknown = null;
    page.on('request', (r) => r.url().endsWith('/api/v3/topics') && (payload = r.postDataJSON()));
    await page.click('#new_topic');
    await page.fill('.composer input.form-control >> nth=0', 'A brand new topic');
    await page.fill('.composer textarea', 'Hello there, this is the body.');
    await page.fill('.composer .tag-input-field', 'News,');
    await page.waitForTimeout(1200);
    expect(await page.textContent('[data-testid=drafts-count]')).toBe('1');
    await page.click('.composer button[type=submit]');
    await page.waitForURL(`${h.base}/topic/4/show-us-your-setup`);
    expect(payload).toEqual({ cid: 2, title: 'A brand new topic', content: 'Hello there, this is the body.', tags: ['news'] });
    expect(await page.$('[data-testid=drafts-count]')).toBeNull();
    await context.close();
  });

  it('quotes a post with a header line and > lines', async () => {
    const { page, context } = await h.open('/topic/1/welcome-to-palaver');
    await page.click('article[data-index="1"] button[title="Quote"]');
    await page.waitForSelector('.composer textarea');
    await page.waitForFunction(() => (document.querySelector('.composer textarea') as HTMLTextAreaElement).value.length > 0);
    expect(await page.inputValue('.composer textarea')).toBe('@bob said in [Welcome to Palaver!](/forum/post/101):\n> Raw **markdown** of the post\n\n');
    await context.close();
  });
});

describe('layout', () => {
  it('switches skins without third-party requests and saves the choice', async () => {
    const { page, context, external } = await h.open('/');
    const saved: unknown[] = [];
    page.on('request', (r) => r.url().includes('/settings') && saved.push(r.postDataJSON()));
    await page.click('.sidebar [aria-label="Skin"]');
    await page.click('text=Darkly');
    await page.waitForFunction(() => [...document.styleSheets].some((s) => s.href?.includes('darkly')));
    expect(await page.getAttribute('html', 'data-bs-theme')).toBe('dark');
    expect(saved).toEqual([{ settings: { bootswatchSkin: 'darkly' } }]);
    expect(external).toEqual([]);
    await context.close();
  });

  it('toggles the sidebar and saves openSidebars', async () => {
    const { page, context } = await h.open('/');
    const saved: unknown[] = [];
    page.on('request', (r) => r.url().includes('/settings') && saved.push(r.postDataJSON()));
    await page.click('.sidebar-toggle');
    expect(await page.getAttribute('.sidebar', 'class')).toContain('open');
    await page.waitForTimeout(200);
    expect(saved).toEqual([{ settings: { openSidebars: 'on' } }]);
    await context.close();
  });

  it('hides the mobile bottom bar when scrolling down and shows it when scrolling up', async () => {
    const { page, context } = await h.open('/topic/1/welcome-to-palaver', { width: 390 });
    await page.evaluate(() => window.scrollTo(0, 600));
    await page.waitForTimeout(400);
    expect(await page.getAttribute('.bottombar', 'class')).toContain('bottombar-hidden');
    await page.evaluate(() => window.scrollTo(0, 300));
    await page.waitForTimeout(400);
    expect(await page.getAttribute('.bottombar', 'class')).not.toContain('bottombar-hidden');
    await context.close();
  });
});

describe('accessibility', () => {
  it.each(['/', '/topic/1/welcome-to-palaver', '/recent', '/users', '/user/alice', '/login', '/register', '/category/2/general', '/nowhere'])('%s has no axe violations', async (path) => {
    const { page, context, errors } = await h.open(path);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
