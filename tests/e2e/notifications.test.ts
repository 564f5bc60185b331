/**
 * Notifications in the browser (issue 10 item 3; spec §2 notifications page and sidebar list,
 * §3 draft badge): a reply by B in a topic A watches reaches every tab of A live, raises the
 * badge and the "(n)" in the title, and the notification opens the post.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestForum } from '../../src/server/test/harness.js';
import { PHONE, SCREENSHOTS, seedSmall, topicPath, useE2E } from './harness.js';

async function seed(forum: TestForum) {
  const data = await seedSmall(forum);
  const alice = { ...(await forum.ctx.privileges.viewer(data.alice.uid)), master: true };
  await forum.ctx.topics.follow(alice, data.welcome.tid, 'follow');
  // The seed's replies may have notified Alice already: she starts with none unread.
  await forum.ctx.hooks.idle();
  await forum.ctx.notifications.markAllRead(alice);
  return data;
}

const e2e = useE2E(seed);

const connected = (page: Page) => page.waitForSelector('html[data-socket=connected]', { state: 'attached', timeout: 10_000 });
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled' });
const badge = (page: Page, scope = '.sidebar') => page.locator(`${scope} [data-testid=notifications-count]`);

/** A reply by `uid` through the service, as POST /api/v3/topics/:tid would make it. */
async function replyAs(uid: number, tid: number, content: string) {
  const { forum } = e2e();
  const post = await forum.ctx.posts.reply({ ...(await forum.ctx.privileges.viewer(uid)), master: true }, tid, { content });
  await forum.ctx.hooks.idle();
  return post;
}

describe('notifications (issue 10)', () => {
  it("B's reply raises A's badge live in every tab, and the notification opens the post", async () => {
    const h = e2e();
    const { alice, bob, welcome } = h.data;
    const ctx = await h.context({ as: alice });
    const tab1 = await ctx.newPage();
    const tab2 = await ctx.newPage();
    await h.goto(tab1, '/recent');
    await h.goto(tab2, '/categories');
    await Promise.all([connected(tab1), connected(tab2)]);
    // Nothing unread: no badge (hidden at zero), no drafts badge either, no "(n)" in the title.
    expect(await badge(tab1).count()).toBe(0);
    expect(await tab1.locator('[data-testid=drafts-count]').count()).toBe(0);
    expect(await tab1.title()).not.toMatch(/^\(\d+\) /);

    await replyAs(bob.uid, welcome.tid, 'Bob answers in a topic Alice watches.');
    for (const tab of [tab1, tab2]) {
      await badge(tab).waitFor({ timeout: 5000 });
      expect(await badge(tab).textContent()).toBe('1');
      await expect.poll(() => tab.title(), { timeout: 5000 }).toMatch(/^\(1\) /);
    }

    await shot(tab1, 'notifications-badge-desktop');
    // The badge sits on the bell, inside its button.
    const bell = (await tab1.locator('.sidebar .notifications-toggle').boundingBox())!;
    const b = (await badge(tab1).boundingBox())!;
    expect(b.x + b.width / 2).toBeGreaterThan(bell.x);
    expect(b.x + b.width / 2).toBeLessThan(bell.x + bell.width);
    // The dropdown lists it; clicking it opens the post and marks it read.
    await tab1.locator('.sidebar .notifications-toggle').click();
    const menu = tab1.locator('.sidebar [data-testid=notifications-menu]');
    const row = menu.locator('[data-testid=notification]').first();
    await row.waitFor();
    expect(await row.textContent()).toContain('bob');
    expect(await row.getAttribute('class')).toContain('unread');
    await shot(tab1, 'notifications-dropdown-desktop');
    await row.locator('a').click();
    await tab1.waitForURL(/\/topic\//);
    await tab1.locator('article.post', { hasText: 'Bob answers in a topic Alice watches.' }).waitFor();
    // The dropdown closed with the click: it does not stay open over the page.
    await expect.poll(() => menu.isVisible()).toBe(false);
    await badge(tab1).waitFor({ state: 'detached', timeout: 5000 });
    await expect.poll(() => tab1.title()).not.toMatch(/^\(\d+\) /);
    // The other tab hears the new count from the server.
    await badge(tab2).waitFor({ state: 'detached', timeout: 5000 });
    expect((await h.forum.ctx.notifications.unreadCount({ ...(await h.forum.ctx.privileges.viewer(alice.uid)) })) ?? 0).toBe(0);
  });

  it('lists notifications on /notifications, adds a live one at the top and marks all read', async () => {
    const h = e2e();
    const { alice, carol, welcome } = h.data;
    const page = await h.open('/notifications', { as: alice });
    await connected(page);
    await page.locator('[data-testid=notifications-list], [data-testid=notifications-empty]').first().waitFor();
    await replyAs(carol.uid, welcome.tid, 'Carol chimes in too.');
    const first = page.locator('[data-testid=notifications-list] [data-testid=notification]').first();
    await expect.poll(async () => (await first.getAttribute('class')) ?? '', { timeout: 5000 }).toContain('unread');
    expect(await first.textContent()).toContain('carol');
    await shot(page, 'notifications-page-desktop');

    await page.getByTestId('mark-all-read').click();
    await badge(page).waitFor({ state: 'detached', timeout: 5000 });
    // The count's live event may land before the answer that marks the list read.
    await expect.poll(() => page.locator('[data-testid=notification].unread').count(), { timeout: 5000 }).toBe(0);

    // Filters: the replies filter keeps the reply; the mentions filter has none.
    await page.locator('.nav-pills').getByRole('link', { name: /Mentions/ }).click();
    await page.getByTestId('notifications-empty').waitFor();
    expect(await page.getByTestId('notifications-empty').textContent()).toBe('You have no notifications');
  });

  it('shows the bell in the bottom bar on a phone, with its dropdown', async () => {
    const h = e2e();
    const { alice, bob, avatar } = h.data;
    const me = { ...(await h.forum.ctx.privileges.viewer(alice.uid)), master: true };
    await h.forum.ctx.topics.follow(me, avatar.tid, 'follow');
    const page = await h.open(topicPath(avatar), { as: alice, viewport: PHONE });
    await connected(page);
    await replyAs(bob.uid, avatar.tid, 'A reply Alice reads on her phone.');
    await badge(page, '.bottombar').waitFor({ timeout: 5000 });
    await page.locator('.bottombar .notifications-toggle').click();
    await page.locator('.bottombar [data-testid=notifications-menu] [data-testid=notification]').first().waitFor();
    await shot(page, 'notifications-dropdown-phone');
    await page.keyboard.press('Escape');
    await h.goto(page, '/notifications');
    await page.locator('[data-testid=notifications-list]').waitFor();
    await shot(page, 'notifications-page-phone');
  });
});
