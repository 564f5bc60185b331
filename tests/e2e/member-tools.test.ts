/**
 * Member tools in the browser (issue 52, fakes 6–8): the order of replies, links in a new tab
 * and who may chat chosen on the settings page; the topic's watch menu; a moderator's post
 * selection deleted in one request; the chat list's later rooms and its search; Quote's caret.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, topicPath, useE2E } from './harness.js';

const e2e = useE2E(async (forum) => {
  const data = await seedSmall(forum);
  // Dave has 25 direct chats (one more page than the list's first 20).
  const dave = await forum.createUser({ username: 'dave' });
  const as = async (uid: number) => ({ ...(await forum.ctx.privileges.viewer(uid)), master: true });
  const partners = [];
  for (let i = 0; i < 25; i++) partners.push(await forum.createUser({ username: `pal${String(i).padStart(2, '0')}` }));
  for (const p of partners) {
    const room = await forum.ctx.chats.create(await as(dave.uid), { uids: [p.uid] });
    await forum.ctx.chats.send(await as(p.uid), room.roomId, `Hello from ${p.username}`);
  }
  await forum.ctx.hooks.idle();
  await forum.ctx.notifications.markAllRead(await forum.ctx.privileges.viewer(dave.uid));
  return { ...data, dave };
});
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });

describe('member tools (issue 52)', () => {
  it('settings: newest replies first, links in a new tab and chats only from those followed are saved and used', async () => {
    const h = e2e();
    const { carol, welcome } = h.data;
    const page = await h.open(`/user/${carol.userslug}/settings`, { as: carol, viewport: DESKTOP });
    await page.locator('#topicPostSort').selectOption('newest_to_oldest');
    await page.getByLabel('Open links to other sites in a new tab').check();
    await page.getByLabel('Only members I follow may start a chat with me').check();
    await shot(page, 'member-settings-desktop');
    await Promise.all([page.waitForResponse((r) => r.url().includes(`/users/${carol.uid}/settings`) && r.status() === 200), page.getByTestId('settings-save').click()]);
    const stored = JSON.parse((await h.forum.ctx.users.get(carol.uid))!.settings) as Record<string, unknown>;
    expect(stored).toMatchObject({ topicPostSort: 'newest_to_oldest', openOutgoingLinksInNewTab: true, disableIncomingChats: true });
    await h.goto(page, `/user/${carol.userslug}/settings`);
    expect(await page.locator('#topicPostSort').inputValue()).toBe('newest_to_oldest');
    expect(await page.getByLabel('Open links to other sites in a new tab').isChecked()).toBe(true);
    expect(await page.getByLabel('Only members I follow may start a chat with me').isChecked()).toBe(true);

    // The welcome topic: main post, then carol's reply (the newest) before bob's.
    await h.goto(page, topicPath(welcome));
    const texts = await page.locator('.posts [data-pid]').evaluateAll((els) => els.map((el) => el.textContent ?? ''));
    expect(texts[0]).toContain('Welcome everyone');
    expect(texts[1]).toContain('Happy to be here');
    expect(texts[2]).toContain('Looks great');
    await shot(page, 'topic-newest-first-desktop');
  });

  it("the avatar menu leads to the member's main pages", async () => {
    const h = e2e();
    const { bob } = h.data;
    const page = await h.open('/', { as: bob, viewport: DESKTOP });
    await page.locator('.sidebar').getByRole('button', { name: 'Account menu for bob' }).click();
    const menu = page.locator('.sidebar .dropdown-menu.show');
    const links = await menu.locator('a.dropdown-item').evaluateAll((els) => els.map((el) => el.getAttribute('href')));
    expect(links).toEqual(expect.arrayContaining(['/forum/user/bob', '/forum/user/bob/edit', '/forum/user/bob/settings', '/forum/user/bob/bookmarks', '/forum/user/bob/watched', '/forum/user/bob/chats', '/forum/notifications']));
    // Placed beside the sidebar, not clipped inside it (browser finding 2: the drafts menu showed 7 px).
    const bar = (await page.locator('.sidebar').first().boundingBox())!;
    // Most of it beside the sidebar, and on top there: a point right of the sidebar hits the menu.
    const visible = async (m: typeof menu) => {
      const box = (await m.boundingBox())!;
      if (box.x + box.width < bar.x + bar.width + 100) return false;
      const x = Math.max(box.x, bar.x + bar.width) + 40;
      return m.evaluate((el, [px, py]) => el.contains(document.elementFromPoint(px!, py!)), [x, box.y + box.height / 2]);
    };
    expect(await visible(menu)).toBe(true);
    await shot(page, 'avatar-menu-desktop');
    await page.keyboard.press('Escape');
    await page.locator('.sidebar').getByRole('button', { name: /^Drafts/ }).click();
    const drafts = page.locator('.sidebar .drafts-menu.show');
    await drafts.waitFor();
    expect(await visible(drafts)).toBe(true);
    await shot(page, 'drafts-menu-desktop');
    await page.keyboard.press('Escape');
    await page.locator('.sidebar').getByRole('button', { name: 'Account menu for bob' }).click();
    await menu.getByRole('link', { name: 'Watched' }).click();
    await page.waitForURL(/\/user\/bob\/watched$/);
  });

  it('settings on a phone', async () => {
    const h = e2e();
    const { bob } = h.data;
    const page = await h.open(`/user/${bob.userslug}/settings`, { as: bob, viewport: PHONE });
    await page.locator('#topicPostSort').waitFor();
    await shot(page, 'member-settings-phone');
  });

  it('topic: the watch menu follows and ignores the topic', async () => {
    const h = e2e();
    const { bob, welcome } = h.data;
    const page = await h.open(topicPath(welcome), { as: bob, viewport: PHONE });
    const menu = page.getByTestId('topic-watch');
    await Promise.all([page.waitForResponse((r) => r.url().includes(`/topics/${welcome.tid}/ignore`) && r.status() === 200), menu.selectOption('ignoring')]);
    const state = async () => (await h.forum.ctx.db.selectFrom('topic_follows' as never).selectAll().where('uid' as never, '=', bob.uid as never).where('tid' as never, '=', welcome.tid as never).executeTakeFirst()) as { state?: string } | undefined;
    expect((await state())?.state).toBe('ignore');
    await Promise.all([page.waitForResponse((r) => r.url().includes(`/topics/${welcome.tid}/follow`) && r.status() === 200), menu.selectOption('watching')]);
    expect((await state())?.state).toBe('follow');
    await shot(page, 'topic-watch-phone');
    await h.goto(page, topicPath(welcome));
    expect(await page.getByTestId('topic-watch').inputValue()).toBe('watching');
  });

  it('post selection: two replies deleted in one request', async () => {
    const h = e2e();
    const { alice, welcome } = h.data;
    const page = await h.open(topicPath(welcome), { as: alice, viewport: DESKTOP });
    await page.getByTestId('topic-tools').click();
    await page.getByTestId('tool-select-posts').click();
    const boxes = page.locator('input.post-select:not([disabled])');
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await page.getByTestId('post-selection-bar').getByText('2 posts selected').waitFor();
    const requests: string[] = [];
    page.on('request', (r) => r.url().includes('/api/v3/') && r.method() !== 'GET' && requests.push(`${r.method()} ${new URL(r.url()).pathname}`));
    await Promise.all([page.waitForResponse((r) => r.url().includes('/topic-tools/delete-posts') && r.status() === 200), page.getByTestId('selection-delete').click()]);
    expect(requests).toEqual(['POST /forum/api/v3/topic-tools/delete-posts']);
    const rows = await h.forum.ctx.db.selectFrom('posts').select(['pid', 'deleted']).where('tid', '=', welcome.tid).orderBy('pid').execute();
    expect(rows.map((r) => r.deleted)).toEqual([0, 1, 1]);
    await expect.poll(() => page.locator('.posts .post.deleted').count(), { timeout: 5000 }).toBeGreaterThan(0);
    await h.forum.ctx.db.updateTable('posts').set({ deleted: 0, deleter_uid: 0 }).where('tid', '=', welcome.tid).execute();
  });

  it('chats: the list loads the rooms past the first 20 and finds a room by member', async () => {
    const h = e2e();
    const { dave } = h.data;
    for (const [viewport, name] of [[DESKTOP, 'desktop'], [PHONE, 'phone']] as const) {
      const page = await h.open('/chats', { as: dave, viewport });
      const rows = page.locator('.chats-list-scroll [data-testid=chat-room]');
      await expect.poll(() => rows.count()).toBe(20);
      await page.getByTestId('chat-rooms-more').scrollIntoViewIfNeeded();
      await expect.poll(() => rows.count(), { timeout: 5000 }).toBe(25);
      expect(await page.getByTestId('chat-rooms-more').count()).toBe(0);
      // The oldest room (pal00) is among those loaded.
      expect(await page.locator('.chats-list-scroll').textContent()).toContain('pal00');
      await page.getByTestId('chat-room-search').fill('pal07');
      const found = page.locator('[data-testid=chat-room-results] [data-testid=chat-room]');
      await expect.poll(() => found.count(), { timeout: 5000 }).toBe(1);
      expect(await found.textContent()).toContain('pal07');
      await shot(page, `chats-search-${name}`);
      await page.getByTestId('chat-room-search').fill('');
      await expect.poll(() => rows.count()).toBe(25);
    }
  });

  it('quote: the caret sits after the quote, so what is typed follows it', async () => {
    const h = e2e();
    const { bob, avatar } = h.data;
    const page = await h.open(topicPath(avatar), { as: bob, viewport: DESKTOP });
    await page.locator('.posts [data-pid]').first().getByRole('button', { name: 'Quote' }).click();
    const body = page.locator('.composer-textarea').last();
    await expect.poll(() => body.inputValue(), { timeout: 5000 }).toContain('said in');
    await page.keyboard.type('MY ANSWER');
    const value = await body.inputValue();
    expect(value.indexOf('MY ANSWER')).toBeGreaterThan(value.indexOf('cannot find the setting'));
    expect(value.trimEnd().endsWith('MY ANSWER')).toBe(true);
  });
});
