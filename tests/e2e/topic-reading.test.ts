/**
 * A member's topic tools in the browser (issue 52 item 7): stop watching from the watched page,
 * mark read and unread from /unread (selected topics) and from the topic page, topic thumbnails
 * in the lists, and a post's share menu (copy link; each network only a link).
 */
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { TestForum } from '../../src/server/test/harness.js';
import { DESKTOP, PHONE, SCREENSHOTS, categoryPath, seedSmall, seenEverything, seriousAxeViolations, topicPath, useE2E } from './harness.js';

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });

async function seed(forum: TestForum) {
  const s = await seedSmall(forum);
  const ctx = forum.ctx;
  const as = async (uid: number) => ({ ...(await ctx.privileges.viewer(uid)), master: true });
  const garden = (await ctx.topics.create(await as(s.bob.uid), { cid: s.general.cid, title: 'Our garden in spring', content: 'Tulips everywhere.' })).topic;
  const bikes = (await ctx.topics.create(await as(s.bob.uid), { cid: s.general.cid, title: 'Bicycles for the city', content: 'Which one rides best?' })).topic;
  // carol watches both (she replied to neither; she follows them).
  for (const t of [garden, bikes]) await ctx.topics.follow(await ctx.privileges.viewer(s.carol.uid), t.tid, 'follow');
  // The garden topic has a thumbnail, uploaded by its author as a browser would.
  await ctx.settings.set({ allowTopicsThumbnail: true });
  const { client } = await forum.loginAs(s.bob);
  const form = new FormData();
  const png = await sharp({ create: { width: 80, height: 80, channels: 3, background: { r: 40, g: 160, b: 60 } } }).png().toBuffer();
  form.append('files[]', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'tulips.png');
  const res = await fetch(`${client.baseUrl}/api/v3/topics/${garden.tid}/thumbs`, {
    method: 'POST',
    body: form,
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': client.csrf ?? (await client.refreshCsrf()) },
  });
  if (res.status !== 200) throw new Error(`thumbnail upload: ${res.status}`);
  await seenEverything(forum, [s.alice, s.bob, s.carol]);
  return { ...s, garden, bikes };
}

const e2e = useE2E(seed);

describe("a member's topic tools", () => {
  it('stops watching a topic from the watched page (desktop, then phone)', async () => {
    const h = e2e();
    const { carol, garden, bikes } = h.data;
    const page = await h.open(`/user/${carol.userslug}/watched`, { as: carol, viewport: DESKTOP });
    const list = page.getByTestId('watched-topics');
    await list.getByText('Bicycles for the city').waitFor();
    await shot(page, 'watched-unwatch-desktop');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/v3/topics/${bikes.tid}/follow`) && r.request().method() === 'DELETE' && r.status() === 200),
      list.getByRole('button', { name: 'Stop watching Bicycles for the city' }).click(),
    ]);
    await page.getByText('You no longer watch this topic.').waitFor();
    await expect.poll(() => list.getByText('Bicycles for the city').count()).toBe(0);
    expect(await h.forum.ctx.topics.followers(bikes.tid)).not.toContain(carol.uid);
    expect(await h.forum.ctx.topics.followers(garden.tid)).toContain(carol.uid);
    // Stored: a reload shows the one left.
    const phone = await h.open(`/user/${carol.userslug}/watched`, { as: carol, viewport: PHONE });
    await phone.getByTestId('watched-topics').getByText('Our garden in spring').waitFor();
    expect(await phone.getByText('Bicycles for the city').count()).toBe(0);
    await shot(phone, 'watched-unwatch-phone');
  });

  it('marks selected topics read on /unread, and a topic unread from its page', async () => {
    const h = e2e();
    const { alice, garden, bikes, welcome } = h.data;
    // alice has read none of bob's two new topics.
    const page = await h.open('/unread', { as: alice, viewport: DESKTOP });
    const rows = page.locator('.topic-row');
    await page.getByText('Bicycles for the city').waitFor();
    await page.getByTestId('select-topics').click();
    await page.getByRole('checkbox', { name: 'Select Bicycles for the city' }).check();
    await page.getByTestId('topic-bulk-bar').getByText('1 topic selected').waitFor();
    await shot(page, 'unread-mark-read-desktop');
    await page.getByTestId('bulk-mark-read').click();
    await expect.poll(() => rows.filter({ hasText: 'Bicycles for the city' }).count()).toBe(0);
    expect(await rows.filter({ hasText: 'Our garden in spring' }).count()).toBe(1);
    // Stored: alice's unread list (the API) has the garden topic and not the bicycles one.
    const unreadTids = async () => ((await (await h.forum.loginAs(alice)).client.get('/api/unread')).body.topics as { tid: number }[]).map((t) => t.tid);
    const before = await unreadTids();
    expect(before).toContain(garden.tid);
    expect(before).not.toContain(bikes.tid);

    // The bicycles topic, read now, is marked unread from its page and comes back to /unread.
    await h.goto(page, topicPath(bikes));
    const toggle = page.getByTestId('topic-read-toggle');
    await expect.poll(() => toggle.textContent()).toBe('Mark unread');
    await toggle.click();
    await page.getByText('Topic marked as unread.').waitFor();
    await expect.poll(() => toggle.textContent()).toBe('Mark read');
    await h.goto(page, '/unread');
    await page.locator('.topic-row').filter({ hasText: 'Bicycles for the city' }).waitFor();
    expect(await rows.filter({ hasText: garden.title }).count()).toBe(1);
    expect((await unreadTids()).sort()).toEqual([...before, bikes.tid].sort());

    // On a phone: the topic page's toggle.
    const phone = await h.open(topicPath(welcome), { as: alice, viewport: PHONE });
    await phone.getByTestId('topic-read-toggle').waitFor();
    await shot(phone, 'topic-mark-unread-phone');
  });

  it('shows a topic thumbnail in the category, recent and unread lists (desktop, then phone)', async () => {
    const h = e2e();
    const { carol, general, garden } = h.data;
    for (const path of [categoryPath(general), '/recent', '/unread']) {
      const page = await h.open(path, { as: carol, viewport: DESKTOP });
      const row = page.locator(`.topic-row[data-tid="${garden.tid}"]`);
      await row.waitFor();
      const img = row.locator('.topic-thumb img');
      expect(await img.getAttribute('src')).toMatch(/\/assets\/uploads\/.*\.(png|webp)$/);
      // The image loaded (served by the forum), 64 px wide in the row.
      await expect.poll(() => img.evaluate((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0)).toBe(true);
      // A topic without one has none.
      expect(await page.locator('.topic-row', { hasText: 'Bicycles for the city' }).locator('.topic-thumb').count()).toBe(0);
      if (path === '/recent') await shot(page, 'topic-thumbs-desktop');
    }
    const phone = await h.open('/recent', { as: carol, viewport: PHONE });
    await phone.locator(`.topic-row[data-tid="${garden.tid}"] .topic-thumb img`).waitFor();
    await shot(phone, 'topic-thumbs-phone');
  });

  it("copies a post's link from its share menu; the networks are links that request nothing until clicked", async () => {
    const h = e2e();
    const { carol, welcome } = h.data;
    const context = await h.context({ as: carol, viewport: DESKTOP });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    await h.goto(page, topicPath(welcome));
    const first = page.locator('article.post').first();
    const pid = await first.getAttribute('data-pid');
    await first.getByRole('button', { name: 'Share' }).click();
    const menu = first.locator('.dropdown-menu');
    await menu.getByText('Copy link').waitFor();
    const link = `${h.base}/post/${pid}`;
    const twitter = await menu.locator('[data-share="twitter"]').getAttribute('href');
    expect(twitter).toBe(`https://twitter.com/intent/tweet?text=${encodeURIComponent('Welcome to Palaver')}&url=${encodeURIComponent(link)}`);
    expect(await menu.locator('[data-share="facebook"]').getAttribute('href')).toBe(`https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(link)}`);
    expect(await menu.locator('[data-share]').count()).toBe(5);
    expect(await menu.locator('[data-share="telegram"]').getAttribute('target')).toBe('_blank');
    await shot(page, 'post-share-desktop');
    await menu.getByText('Copy link').click();
    await page.getByText('Link copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    // The copied link opens the post.
    await h.goto(page, `/post/${pid}`);
    await page.getByRole('heading', { name: 'Welcome to Palaver' }).waitFor();

    const phone = await h.open(topicPath(welcome), { as: carol, viewport: PHONE });
    await phone.locator('article.post').first().getByRole('button', { name: 'Share' }).click();
    await phone.locator('article.post').first().getByText('Copy link').waitFor();
    await shot(phone, 'post-share-phone');
  });
});
