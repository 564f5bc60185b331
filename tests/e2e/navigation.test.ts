import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLink, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('/forum');
});
afterAll(async () => {
  await h?.close();
});

describe('in-page navigation (spec §2, §4)', () => {
  it('loads pages in place, marks the active link, titles the page, and goes back', async () => {
    const { page, context, errors, external } = await h.open('/');
    const requests: string[] = [];
    page.on('request', (r) => r.url().includes('/api/') && requests.push(`${r.url()} ${r.headers()['x-return-to'] ?? ''}`));
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await page.click('.sidebar a[href="/forum/recent"]');
    await page.waitForSelector('h1:has-text("Recent Topics")');
    expect(await page.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(1);
    expect(await page.title()).toBe('Recent Topics | Palaver');
    expect(await page.getAttribute('.sidebar a[href="/forum/recent"]', 'aria-current')).toBe('page');
    expect(requests[0]).toBe(`${h.base}/api/recent ${h.base}/`);
    expect(await page.getAttribute('link[rel=canonical]', 'href')).toBe('/forum/recent');
    await page.click('text=How do I change my avatar?');
    await page.waitForSelector('article.post');
    await page.goBack();
    await page.waitForSelector('h1:has-text("Recent Topics")');
    expect(page.url()).toBe(`${h.base}/recent`);
    expect(errors).toEqual([]);
    expect(external).toEqual([]);
    await context.close();
  });

  it('follows X-Redirect, retries 502 once then shows 500, and ignores hash-only and duplicate clicks', async () => {
    const { page, context } = await h.open('/recent');
    const calls: string[] = [];
    page.on('request', (r) => r.url().includes('/api/') && calls.push(new URL(r.url()).pathname));
    await addLink(page, 'redirect', '/forum/redirect-me');
    await page.click('#redirect');
    await page.waitForTimeout(500);
    expect(page.url()).toBe(`${h.base}/recent`);
    await addLink(page, 'broken', '/forum/broken');
    await page.click('#broken');
    await page.waitForSelector('.error-page');
    expect(calls.filter((c) => c.endsWith('/broken'))).toHaveLength(2);
    expect(await page.textContent('.error-page h1')).toContain('Internal error');
    const before = calls.length;
    await addLink(page, 'hash', '#top');
    await page.click('#hash');
    expect(calls.length).toBe(before);
    await addLink(page, 'popular', '/forum/popular');
    await page.click('#popular');
    await page.click('#popular');
    await page.waitForTimeout(600);
    expect(calls.filter((c) => c.endsWith('/popular'))).toHaveLength(1);
    await context.close();
  });

  it('sends visitors to login on a 401 and remembers the page', async () => {
    const { page, context } = await h.open('/recent', { guest: true });
    await addLink(page, 'unread', '/forum/unread');
    await page.click('#unread');
    await page.waitForSelector('h1:has-text("Log in")');
    expect(page.url()).toBe(`${h.base}/login`);
    expect(await page.textContent('.alerts-area')).toContain("You don't seem to be logged in.");
    expect(await page.evaluate(() => sessionStorage.getItem('palaver:returnTo'))).toBe(`${h.base}/unread`);
    await context.close();
  });

  it('renders 404 and 403 pages', async () => {
    const { page, context } = await h.open('/');
    await addLink(page, 'missing', '/forum/no-such-page');
    await page.click('#missing');
    await page.waitForSelector('.error-page');
    expect(await page.title()).toBe('Not found | Palaver');
    await addLink(page, 'private', '/forum/private');
    await page.click('#private');
    await page.waitForSelector('.error-page:has-text("Access denied")');
    expect(await page.textContent('.error-page')).toContain('You do not have enough privileges');
    await context.close();
  });

  it('asks before leaving unsaved text', async () => {
    const { page, context } = await h.open('/recent');
    await page.click('#new_topic');
    await page.fill('.composer textarea', 'Some unsaved words');
    let message = '';
    page.once('dialog', (d) => {
      message = d.message();
      void d.dismiss();
    });
    await page.click('.sidebar a[href="/forum/users"]');
    await page.waitForTimeout(300);
    expect(message).toContain('unsaved changes');
    expect(page.url()).toBe(`${h.base}/recent`);
    await context.close();
  });
});
