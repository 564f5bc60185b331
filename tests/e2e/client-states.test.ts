/**
 * The client's states and reactions the spec lists (§2 navigation, §4 socket and alerts, §7,
 * §9), seen in Chromium against the real forum: session dialogs, rooms, alerts, aborted loads,
 * the progress bar, scrolling, live reload, drafts, code highlighting, and a navigation made
 * while disconnected.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hashSecret } from '../../src/server/domains/auth/service.js';
import { SESSION_COOKIE } from '../../src/server/http/auth.js';
import { realtimeOf } from '../../src/server/realtime/index.js';
import { requestLiveReload } from '../../src/server/realtime/live-reload.js';
import type { TestForum } from '../../src/server/test/harness.js';
import { categoryPath, DESKTOP, PHONE, SCREENSHOTS, seedSmall, topicPath, useE2E } from './harness.js';

async function seed(forum: TestForum) {
  const s = await seedSmall(forum);
  const viewer = { ...(await forum.ctx.privileges.viewer(s.alice.uid)), master: true };
  // A long topic (scrolling to a post index) with a fenced code block (highlighting).
  const long = await forum.ctx.topics.create(viewer, {
    cid: s.general.cid,
    title: 'A long thread with code',
    content: 'Here is the script:\n\n```js\nconst answer = 42;\nfunction greet(name) { return `hi ${name}`; }\n```\n',
  });
  for (let i = 1; i <= 14; i++) await forum.ctx.posts.reply(viewer, long.topic.tid, { content: `Reply number ${i}, long enough to take some room on the page.\n\nSecond paragraph of reply ${i}.` });
  await forum.ctx.hooks.idle();
  return { ...s, long: long.topic };
}

const e2e = useE2E(seed);
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled' });
const connected = (page: Page) => page.waitForSelector('html[data-socket=connected]', { state: 'attached', timeout: 10_000 });
const roomOf = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('data-socket-room'));
/** Marks the window: the mark survives in-page navigation and goes with a full load. */
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { __mark: number }).__mark = 1));
const marked = (page: Page) => page.evaluate(() => (window as unknown as { __mark?: number }).__mark === 1);

describe('session events (spec §4, §9)', () => {
  it('a session ended on the server: the next call reconnects instead of alerting, and the member gets the session-lost dialog', async () => {
    const h = e2e();
    const member = await h.forum.createUser({ username: 'sessionlost' });
    const page = await h.open('/recent', { as: member });
    await connected(page);
    expect(await roomOf(page)).toBe('recent_topics');
    const sid = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE)!.value;
    await h.forum.ctx.auth.destroySession(hashSecret(sid));

    // Leaving the page's room is a socket call: the server answers error:revalidate-failure.
    await page.locator('.sidebar').getByRole('link', { name: 'Tags' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor({ timeout: 10_000 });
    expect(await dialog.getByRole('heading').textContent()).toBe('Invalid session');
    expect(await dialog.textContent()).toContain('It looks like your login session is no longer active. Please refresh this page.');
    // No error toast for the revalidation failure: it reconnected (and the new handshake found no session).
    expect(await page.locator('.alert-toast').count()).toBe(0);
    // The refused leave restored the room it was leaving (spec §4).
    expect(await roomOf(page)).toBe('recent_topics');
    // The dialog cannot be dismissed; its one button reloads the page.
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Close' }).count()).toBe(0);
    await mark(page);
    await dialog.getByRole('button', { name: 'Reload' }).click();
    await page.waitForSelector('html[data-loaded]', { state: 'attached' });
    await expect.poll(() => marked(page)).toBe(false);
    await page.locator('.sidebar').getByRole('link', { name: 'Log in' }).waitFor();
  });

  it('logging out in one tab takes the other tab of the same session home as a visitor', async () => {
    const h = e2e();
    const member = await h.forum.createUser({ username: 'twotabs' });
    const context = await h.context({ as: member });
    const first = await context.newPage();
    await h.goto(first, '/recent');
    await connected(first);
    const second = await context.newPage();
    await h.goto(second, '/tags');
    await second.locator('.sidebar').getByRole('button', { name: 'Account menu for twotabs' }).click();
    await second.getByRole('button', { name: 'Log out' }).click();
    // The first tab hears event:logout and goes to the home page, logged out.
    await first.waitForURL(`${h.base}/`);
    await first.waitForSelector('html[data-loaded]', { state: 'attached' });
    await first.locator('.sidebar').getByRole('link', { name: 'Log in' }).waitFor();
  });
});

describe('rooms (spec §4)', () => {
  it('a refused room entry keeps the room the socket was in and shows the error', async () => {
    const h = e2e();
    const { alice, help } = h.data;
    const member = await h.forum.createUser({ username: 'roomer' });
    const viewer = { ...(await h.forum.ctx.privileges.viewer(alice.uid)), master: true };
    const secret = await h.forum.ctx.topics.create(viewer, { cid: help.cid, title: 'Soon out of reach', content: 'This topic is about to become unreadable.' });
    const context = await h.context({ as: member });
    const page = await context.newPage();
    // The page's room entries wait at the network (as on a slow link) until the test lets them go.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    await page.routeWebSocket(/\/socket\.io\//, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((m) => {
        if (typeof m === 'string' && m.includes('meta.rooms.enter') && m.includes(`topic_${secret.topic.tid}`)) void gate.then(() => server.send(m));
        else server.send(m);
      });
      server.onMessage((m) => ws.send(m));
    });
    await h.goto(page, '/recent');
    await connected(page);
    await expect.poll(() => roomOf(page)).toBe('recent_topics');
    await page.locator('main').getByRole('link', { name: 'Soon out of reach' }).first().click();
    await page.locator('h1', { hasText: 'Soon out of reach' }).waitFor();
    expect(await roomOf(page)).toBe(`topic_${secret.topic.tid}`);
    // Meanwhile the topic's category is closed to members: the server refuses the room.
    await h.forum.ctx.privileges.take(help.cid, ['topics:read', 'read'], 'registered-users');
    try {
      release();
      // (An unreadable topic is answered as one that does not exist.)
      const alert = page.getByRole('alert').filter({ hasText: 'Topic does not exist' });
      await alert.waitFor({ timeout: 5000 });
      expect(await alert.textContent()).toContain('Error');
      // Reverted: the socket is still in the room it was in.
      expect(await roomOf(page)).toBe('recent_topics');
    } finally {
      await h.forum.ctx.privileges.give(help.cid, ['topics:read', 'read'], 'registered-users');
    }
  });
});

describe('alerts (spec §4)', () => {
  it('closes with its close button and by itself after its timeout; the same id updates it in place', async () => {
    const h = e2e();
    const { carol } = h.data;
    const page = await h.open('/recent', { as: carol, viewport: PHONE });
    await connected(page);
    const live = realtimeOf(h.forum.ctx)!;
    live.alert(carol.uid, { alert_id: 'stays', type: 'info', title: 'Heads up', message: 'This stays until closed.' });
    const stays = page.locator('[data-alert-id=stays]');
    await stays.waitFor();
    await shot(page, 'alert-phone');
    await stays.getByRole('button', { name: 'Close' }).click();
    await stays.waitFor({ state: 'detached' });

    live.alert(carol.uid, { alert_id: 'brief', type: 'success', title: 'Saved', message: 'Gone in a moment.', timeout: 1500 });
    const brief = page.locator('[data-alert-id=brief]');
    await brief.waitFor();
    const shown = Date.now();
    await brief.waitFor({ state: 'detached', timeout: 5000 });
    expect(Date.now() - shown).toBeGreaterThanOrEqual(1000);

    // Reusing an id updates the alert in place.
    live.alert(carol.uid, { alert_id: 'same', type: 'warning', title: 'First', message: 'one' });
    live.alert(carol.uid, { alert_id: 'same', type: 'warning', title: 'Second', message: 'two' });
    await expect.poll(() => page.locator('[data-alert-id=same]').textContent()).toContain('Second');
    expect(await page.locator('[data-alert-id=same]').count()).toBe(1);
    await page.locator('[data-alert-id=same]').getByRole('button', { name: 'Close' }).click();
    // A click on an alert with an action (the forum-updated one) is tested with the restart below.
  });
});

describe('navigation (spec §2)', () => {
  it('marks the page loading with the progress bar at 70 %, shows nothing for an aborted load, and completes with the next page', async () => {
    const h = e2e();
    const { bob } = h.data;
    const page = await h.open('/categories', { as: bob });
    // The recent page's data is slow to come (a slow link): held until the test lets it go.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    await page.route('**/api/recent*', async (route) => {
      await gate;
      await route.continue().catch(() => undefined);
    });
    await page.locator('.sidebar').getByRole('link', { name: 'Recent' }).click();
    await page.waitForSelector('.nav-progress.active');
    expect(await page.locator('.nav-progress-bar').evaluate((el) => (el as HTMLElement).style.width)).toBe('70%');
    expect(await page.locator('main#content').getAttribute('aria-busy')).toBe('true');
    // Another navigation before it came: the first is aborted, and shows nothing.
    await page.locator('.sidebar').getByRole('link', { name: 'Tags' }).click();
    await page.waitForURL(`${h.base}/tags`);
    await page.locator('h1, .page-header').first().waitFor();
    release();
    await page.waitForSelector('.nav-progress.active', { state: 'detached' });
    expect(await page.locator('main#content').getAttribute('aria-busy')).toBe('false');
    // The aborted page never replaced this one and left no error behind.
    await page.waitForTimeout(0);
    expect(page.url()).toBe(`${h.base}/tags`);
    expect(await page.locator('.alert-toast').count()).toBe(0);
  });

  it('after a navigation: the top of a new page, or the post of the index in the address', async () => {
    const h = e2e();
    const { bob, long } = h.data;
    const page = await h.open(topicPath(long), { as: bob, viewport: DESKTOP });
    await page.locator('article.post').nth(14).scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    await page.locator('.sidebar').getByRole('link', { name: 'Recent' }).click();
    await page.waitForURL(`${h.base}/recent`);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

    // A link to the 10th post of the thread (as in a notification or a search result).
    await page.evaluate((href) => {
      const a = document.createElement('a');
      a.href = href;
      a.textContent = 'to the tenth post';
      a.id = 'to-post';
      document.querySelector('main')!.prepend(a);
    }, `${h.base}${topicPath(long)}/10`);
    await page.locator('#to-post').click();
    await page.waitForURL(`${h.base}${topicPath(long)}/10`);
    const tenth = page.locator('[data-index="9"]');
    await tenth.waitFor();
    await expect.poll(async () => Math.abs((await tenth.boundingBox())!.y) < 200).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  });
});

describe('content (spec §4 extras)', () => {
  it('highlights fenced code in a post', async () => {
    const h = e2e();
    const { long } = h.data;
    const page = await h.open(topicPath(long));
    const code = page.locator('article.post').first().locator('pre code');
    await code.locator('.hljs-keyword', { hasText: 'const' }).waitFor();
    expect(await code.locator('.hljs-number', { hasText: '42' }).count()).toBe(1);
    expect(await code.getAttribute('class')).toContain('language-js');
  });

  it('keeps a draft: after a reload the drafts menu lists it and reopens it in the composer', async () => {
    const h = e2e();
    const { welcome } = h.data;
    const member = await h.forum.createUser({ username: 'drafter' });
    const page = await h.open(topicPath(welcome), { as: member });
    await page.locator('main').getByRole('button', { name: 'Reply' }).first().click();
    await page.locator('.composer textarea').fill('A reply I will finish later.');
    await expect.poll(() => page.locator('[data-testid=drafts-count]').first().textContent()).toBe('1');
    await h.goto(page, '/recent');
    expect(await page.locator('.composer').count()).toBe(0);
    await page.locator('.sidebar').getByRole('button', { name: /Drafts/ }).click();
    const item = page.locator('.drafts-menu').getByRole('button', { name: /A reply I will finish later/ });
    await item.waitFor();
    // Visible beside the sidebar, not clipped by it: what is at the item's centre is the item.
    const box = (await item.boundingBox())!;
    expect(await page.evaluate(([x, y]) => !!document.elementFromPoint(x!, y!)?.closest('.drafts-menu'), [box.x + box.width / 2, box.y + box.height / 2])).toBe(true);
    await shot(page, 'drafts-menu-desktop');
    await item.click();
    await expect.poll(() => page.locator('.composer textarea').inputValue()).toBe('A reply I will finish later.');
  });
});

describe('live reload (spec §4)', () => {
  it('reloads an administrator\u2019s forum page, never an admin page nor a member\u2019s', async () => {
    const h = e2e();
    const { alice, bob } = h.data;
    const forumPage = await h.open('/recent', { as: alice });
    const adminPage = await h.open('/admin/settings/general', { as: alice });
    const memberPage = await h.open('/recent', { as: bob });
    for (const p of [forumPage, adminPage, memberPage]) {
      await connected(p);
      await mark(p);
    }
    expect(requestLiveReload(h.forum.ctx)).toBe(true);
    await expect.poll(() => marked(forumPage).catch(() => true)).toBe(false);
    await forumPage.waitForSelector('html[data-loaded]', { state: 'attached' });
    // The event reached the others too (their sockets are connected): they stayed.
    expect(await marked(adminPage)).toBe(true);
    expect(await marked(memberPage)).toBe(true);
  });
});

describe('reconnection (spec §2, §4, §7)', () => {
  // Last in the file: it restarts the forum.
  it('a navigation made while disconnected runs again once reconnected; a rebuilt forum says so and a click reloads', async () => {
    const h = e2e();
    const { alice, general } = h.data;
    const page = await h.open(categoryPath(general), { as: alice });
    await connected(page);
    await mark(page);
    await h.stopServer();
    try {
      await page.waitForSelector('html[data-socket=disconnected]', { state: 'attached', timeout: 5000 });
      await page.locator('.sidebar').getByRole('link', { name: 'Recent' }).click();
      // The server is away: the load fails (the page stays, its progress bar done).
      await page.waitForSelector('.nav-progress.active', { state: 'detached' });
      expect(page.url()).toBe(`${h.base}${categoryPath(general)}`);
      // The forum comes back rebuilt (a new cache-buster).
      (h.forum.ctx.config as { cacheBuster: string }).cacheBuster = `rebuilt-${Date.now()}`;
    } finally {
      await h.startServer();
    }
    await connected(page);
    // The navigation ran again: the recent topics, in the same window.
    await page.waitForURL(`${h.base}/recent`, { timeout: 10_000 });
    await page.locator('main').getByRole('link', { name: 'Welcome to Palaver' }).first().waitFor({ timeout: 10_000 });
    expect(await marked(page)).toBe(true);
    expect(await roomOf(page)).toBe('recent_topics');
    const updated = page.locator('[data-alert-id=forum_updated]');
    await updated.waitFor({ timeout: 10_000 });
    expect(await updated.textContent()).toContain('updated');
    await updated.locator('.toast-body').click();
    await expect.poll(() => marked(page).catch(() => true)).toBe(false);
    await page.waitForSelector('html[data-loaded]', { state: 'attached' });
  }, 90_000);
});
