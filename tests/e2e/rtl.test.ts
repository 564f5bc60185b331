/**
 * Right-to-left in the browser (issue 56): home, a topic, the composer, a chat room and the
 * admin dashboard in Arabic, Hebrew and Persian, on a desktop (1280) and a phone (390). Each page has
 * <html dir="rtl">, Bootstrap's RTL build in effect, the shell mirrored (sidebar, drawers and
 * menus on the right), and user content in its own direction (dir="auto"). One English page
 * shows nothing changed left to right.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PHONE, SCREENSHOTS, seedSmall, topicPath, useE2E } from './harness.js';

const DESKTOP = { width: 1280, height: 900 };

const e2e = useE2E(async (forum) => {
  const seeded = await seedSmall(forum);
  const { alice, bob, welcome } = seeded;
  const ctx = forum.ctx;
  const as = async (uid: number) => ({ ...(await ctx.privileges.viewer(uid)), master: true });
  // A Hebrew reply in the English topic: each post keeps its own direction.
  await ctx.posts.reply(await as(bob.uid), welcome.tid, { content: 'שלום לכולם! הפורום נראה מצוין.' });
  const hebrew = await ctx.topics.create(await as(bob.uid), { cid: seeded.general.cid, title: 'ברוכים הבאים לפורום', content: 'זה נושא בעברית.' });
  const room = await ctx.chats.create(await ctx.privileges.viewer(alice.uid), { uids: [bob.uid], roomName: 'תכנון' });
  await ctx.chats.send(await ctx.privileges.viewer(alice.uid), room.roomId, 'We need bananas for the picnic');
  await ctx.chats.send(await ctx.privileges.viewer(bob.uid), room.roomId, 'צריך גם תפוחים');
  // A category named in Hebrew beside the English ones: each name reads in its own direction.
  const { SYSTEM } = await import('../../src/server/setup.js');
  const hebrewCategory = await ctx.categories.create(SYSTEM, { name: 'דיונים כלליים', description: 'על הכול.', bgColor: '#8e44ad' });
  await ctx.topics.create(await as(bob.uid), { cid: hebrewCategory.cid, title: 'Hello from the Hebrew category', content: 'An English topic in a Hebrew-named category.' });
  await ctx.hooks.idle();
  return { ...seeded, roomId: room.roomId, hebrew: hebrew.topic, hebrewCategory };
});

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled' });

/** What the browser applies: the page's direction, the Bootstrap build linked and whether its RTL rules are in effect. */
async function direction(page: Page) {
  return page.evaluate(() => {
    const link = document.querySelector<HTMLLinkElement>('link#bootstrap-css');
    const probe = document.createElement('div');
    probe.className = 'ms-3 position-absolute';
    document.body.appendChild(probe);
    const style = getComputedStyle(probe);
    // Bootstrap's .ms-3 is margin-left in its LTR build, margin-right in its RTL build.
    const margins = { left: style.marginLeft, right: style.marginRight };
    probe.remove();
    const sheets = Array.from(document.styleSheets).map((s) => s.href ?? '');
    return {
      dir: document.documentElement.dir,
      lang: document.documentElement.lang,
      bootstrap: link?.getAttribute('href') ?? '',
      bootstrapLoaded: !!link?.sheet && link.sheet.cssRules.length > 1000,
      bootstrapSheets: sheets.filter((h) => /\/assets\/bootstrap\//.test(h)).length,
      margins,
    };
  });
}

async function box(page: Page, selector: string) {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector}: not shown`);
  return { left: b.x, right: b.x + b.width, top: b.y, bottom: b.y + b.height, width: b.width };
}

/** True when what the browser shows at (x, y) belongs to `selector` (so it is not clipped or covered there). */
async function shownAt(page: Page, x: number, y: number, selector: string): Promise<boolean> {
  return page.evaluate(([px, py, sel]) => !!document.elementFromPoint(px, py)?.closest(sel), [x, y, selector] as const);
}

/** Asserts the page is mirrored: rtl, the RTL build of Bootstrap only, its rules in effect. */
async function expectRtl(page: Page, lang: string) {
  const d = await direction(page);
  expect(d.dir).toBe('rtl');
  expect(d.lang).toBe(lang);
  expect(d.bootstrap).toMatch(/\/assets\/bootstrap\/bootstrap\.rtl\.css\?v=/);
  expect(d.bootstrapLoaded).toBe(true);
  expect(d.bootstrapSheets).toBe(1);
  expect(d.margins).toEqual({ left: '0px', right: '16px' });
}

/** On a desktop the sidebar stands at the right edge and the page's content to its left; on a phone the bottom bar's first item is its rightmost. */
async function expectShellMirrored(page: Page, viewport: { width: number }) {
  if (viewport.width >= 992) {
    const sidebar = await box(page, '.sidebar');
    expect(Math.abs(sidebar.right - viewport.width)).toBeLessThan(1);
    const main = await box(page, '.layout-main');
    expect(main.right).toBeLessThanOrEqual(sidebar.left + 1);
  } else {
    const items = page.locator('.bottombar .nav-btn:visible');
    const first = (await items.first().boundingBox())!;
    const last = (await items.last().boundingBox())!;
    expect(first.x).toBeGreaterThan(last.x);
  }
}

async function asMember(lang: string) {
  const h = e2e();
  const { alice } = h.data;
  await h.forum.ctx.users.saveSettings(await h.forum.ctx.privileges.viewer(alice.uid), alice.uid, { userLang: lang, bootswatchSkin: '' });
  return h;
}

for (const lang of ['ar', 'he', 'fa']) {
  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    describe(`right to left: ${lang}, ${size}`, () => {
      it('home: rtl from the server render, the RTL stylesheet, the shell mirrored', async () => {
        const h = await asMember(lang);
        // The server's HTML itself: no flash of the wrong direction before any script runs.
        const html = await (await fetch(`${h.base}/`, { headers: { cookie: await sessionCookie(h) } })).text();
        expect(html).toMatch(/<html lang="(ar|he|fa)" dir="rtl"/);
        expect(html).toMatch(/<link id="bootstrap-css" rel="stylesheet" href="[^"]*\/assets\/bootstrap\/bootstrap\.rtl\.css\?v=[^"]*">\n<link rel="stylesheet" href="[^"]*\/assets\/main-/);
        const page = await h.open('/', { as: h.data.alice, viewport });
        await expectRtl(page, lang);
        await expectShellMirrored(page, viewport);
        // Toasts stack in the bottom corner on the page's end side: the left one.
        expect(await page.locator('.alerts-area').evaluate((el) => getComputedStyle(el).left)).toBe('0px');
        if (size === 'desktop') {
          // The sidebar's "expand" chevrons point away from the right edge.
          expect(await page.locator('.sidebar .icon-directional').last().evaluate((el) => getComputedStyle(el).transform)).toBe('matrix(-1, 0, 0, 1, 0, 0)');
          // The sidebar's user menu opens towards the page (to its toggle's left), whole on screen.
          const toggle = await box(page, '.sidebar #user-menu-toggle-end');
          await page.locator('.sidebar #user-menu-toggle-end').click();
          const menu = await box(page, '.sidebar .dropdown-menu.show');
          expect(menu.left).toBeGreaterThanOrEqual(0);
          expect(menu.right).toBeLessThan((toggle.left + toggle.right) / 2);
          expect(await shownAt(page, (menu.left + menu.right) / 2, (menu.top + menu.bottom) / 2, '.dropdown-menu.show')).toBe(true);
          await shot(page, `rtl-${lang}-home-menu-${size}`);
          await page.keyboard.press('Escape');
        }
        await shot(page, `rtl-${lang}-home-${size}`);
        // A topic's title in Hebrew reads right to left, an English one left to right, on the same list.
        await h.goto(page, '/recent');
        await expectRtl(page, lang);
        const titles = page.locator('[dir="auto"]', { hasText: 'ברוכים הבאים' });
        await expect.poll(() => titles.count()).toBeGreaterThan(0);
        expect(await titles.first().evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
        expect(await page.locator('[dir="auto"]', { hasText: 'Welcome to Palaver' }).first().evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
        await shot(page, `rtl-${lang}-recent-${size}`);
      });

      it('topic: an English post on the page has dir="auto" and reads left to right, a Hebrew one right to left', async () => {
        const h = await asMember(lang);
        const page = await h.open(topicPath(h.data.welcome), { as: h.data.alice, viewport });
        await expectRtl(page, lang);
        await expectShellMirrored(page, viewport);
        const english = page.locator('.post-content', { hasText: 'Welcome everyone!' });
        expect(await english.getAttribute('dir')).toBe('auto');
        expect(await english.evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
        // Its text starts at the left edge of its box, as English does.
        const englishBox = await english.boundingBox();
        const englishText = await english.locator('p').evaluate((p) => {
          const r = document.createRange();
          r.selectNodeContents(p);
          return r.getBoundingClientRect().x;
        });
        expect(englishText - englishBox!.x).toBeLessThan(2);
        const hebrew = page.locator('.post-content', { hasText: 'שלום לכולם' });
        expect(await hebrew.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
        expect(await page.locator('h1[dir="auto"]').first().evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
        // Directional icons (reply's arrow) are mirrored; the others are not.
        const reply = page.locator('.page-header .icon-directional').first();
        expect(await reply.evaluate((el) => getComputedStyle(el).transform)).toBe('matrix(-1, 0, 0, 1, 0, 0)');
        await shot(page, `rtl-${lang}-topic-${size}`);
      });

      it('composer: beside the sidebar, its editor following what is typed', async () => {
        const h = await asMember(lang);
        const page = await h.open(topicPath(h.data.welcome), { as: h.data.alice, viewport });
        await expectRtl(page, lang);
        await page.locator('.page-header .btn-primary').first().click();
        const editor = page.locator('.composer textarea.composer-textarea');
        await editor.waitFor();
        expect(await editor.getAttribute('dir')).toBe('auto');
        await editor.fill('Hello from the composer');
        expect(await editor.evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
        await editor.fill('שלום מהעורך');
        expect(await editor.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
        const composer = await box(page, '.composer');
        if (size === 'desktop') {
          // Docked at the page's side, clear of the sidebar on the right.
          const sidebar = await box(page, '.sidebar');
          expect(composer.right).toBeLessThanOrEqual(sidebar.left);
          expect(composer.left).toBeGreaterThan(0);
        } else {
          expect(composer.left).toBe(0);
          expect(Math.abs(composer.right - viewport.width)).toBeLessThan(1);
        }
        await shot(page, `rtl-${lang}-composer-${size}`);
      });

      it('chat room: the room list on the right, each message in its own direction', async () => {
        const h = await asMember(lang);
        const page = await h.open(`/chats/${h.data.roomId}`, { as: h.data.alice, viewport });
        await expectRtl(page, lang);
        await expectShellMirrored(page, viewport);
        const english = page.locator('[data-testid=chat-message] .chat-content', { hasText: 'bananas' });
        expect(await english.getAttribute('dir')).toBe('auto');
        expect(await english.evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
        const hebrew = page.locator('[data-testid=chat-message] .chat-content', { hasText: 'תפוחים' });
        expect(await hebrew.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
        expect(await page.getByTestId('chat-room-name').getAttribute('dir')).toBe('auto');
        expect(await page.locator('.chat-input').getAttribute('dir')).toBe('auto');
        // Empty, the editor's placeholder follows the page; typed into, the editor follows the text.
        expect(await page.locator('.chat-input').evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
        await page.locator('.chat-input').fill('Hello there');
        expect(await page.locator('.chat-input').evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
        await page.locator('.chat-input').fill('');
        if (size === 'desktop') {
          const list = await box(page, '.chats-list');
          const messages = await box(page, '[data-testid=chat-message]');
          expect(list.left).toBeGreaterThan(messages.right - 1);
        }
        await shot(page, `rtl-${lang}-chat-${size}`);
      });

      it('admin dashboard: its navigation on the right (a drawer from the right on phones)', async () => {
        const h = await asMember(lang);
        const page = await h.open('/admin', { as: h.data.alice, viewport });
        await expectRtl(page, lang);
        if (size === 'phone') await page.locator('button[aria-controls="admin-nav"]').click();
        const nav = await box(page, '#admin-nav');
        expect(Math.abs(nav.right - viewport.width)).toBeLessThan(1);
        if (size === 'desktop') {
          const content = await box(page, 'main#content, .admin-content');
          expect(content.right).toBeLessThanOrEqual(nav.left + 1);
        }
        await shot(page, `rtl-${lang}-admin-${size}`);
      });
    });
  }
}

describe('category names in their own direction (dir="auto")', () => {
  /** The computed direction of the first element matching `selector` that has the text. */
  const direction = async (page: Page, selector: string, text: string) => {
    const el = page.locator(selector, { hasText: text }).first();
    await el.waitFor({ state: 'attached' });
    return el.evaluate((e) => ({ dir: e.getAttribute('dir') ?? e.closest('[dir]')?.getAttribute('dir'), direction: getComputedStyle(e).direction }));
  };

  it('an English category name reads left to right on an Arabic page: the list, the badge, the breadcrumb, the header and the selects', async () => {
    const h = await asMember('ar');
    const { general } = h.data;
    const page = await h.open('/categories', { as: h.data.alice, viewport: DESKTOP });
    expect(await direction(page, '.category-row a, li a', 'General Discussion')).toEqual({ dir: 'auto', direction: 'ltr' });
    await shot(page, 'rtl-ar-categories-desktop');
    await h.goto(page, `/category/${general.cid}/${general.slug.split('/').pop()}`);
    expect(await direction(page, 'h1', 'General Discussion')).toEqual({ dir: 'auto', direction: 'ltr' });
    await h.goto(page, topicPath(h.data.welcome));
    expect(await direction(page, '.breadcrumb-item a, .breadcrumb-item span', 'General Discussion')).toEqual({ dir: 'auto', direction: 'ltr' });
    expect(await direction(page, '.category-badge .category-name', 'General Discussion')).toEqual({ dir: 'auto', direction: 'ltr' });
    await h.goto(page, '/search');
    await page.locator('button[aria-controls$="-advanced"]').click();
    expect(await direction(page, 'option', 'General Discussion')).toEqual({ dir: 'auto', direction: 'ltr' });
    expect(await direction(page, 'option', 'דיונים כלליים')).toEqual({ dir: 'auto', direction: 'rtl' });
    await h.goto(page, '/admin/manage/categories');
    expect(await direction(page, 'a', 'General Discussion')).toEqual({ dir: 'auto', direction: 'ltr' });
  });

  it('a Hebrew category name reads right to left on an English page (list, badge, breadcrumb, header)', async () => {
    const h = await asMember('en-GB');
    const { hebrewCategory } = h.data;
    const page = await h.open('/categories', { as: h.data.alice, viewport: DESKTOP });
    expect(await direction(page, 'li a', 'דיונים כלליים')).toEqual({ dir: 'auto', direction: 'rtl' });
    await h.goto(page, '/recent');
    expect(await direction(page, '.category-badge .category-name', 'דיונים כלליים')).toEqual({ dir: 'auto', direction: 'rtl' });
    await h.goto(page, `/category/${hebrewCategory.cid}/${hebrewCategory.slug.split('/').pop()}`);
    expect(await direction(page, 'h1', 'דיונים כלליים')).toEqual({ dir: 'auto', direction: 'rtl' });
    await page.locator('a', { hasText: 'Hello from the Hebrew category' }).first().click();
    await expect.poll(() => page.locator('.breadcrumb-item', { hasText: 'דיונים כלליים' }).count()).toBeGreaterThan(0);
    expect(await direction(page, '.breadcrumb-item a', 'דיונים כלליים')).toEqual({ dir: 'auto', direction: 'rtl' });
    await shot(page, 'ltr-hebrew-category-breadcrumb-desktop');
    // The composer's category select, opened for a new topic in the category.
    await h.goto(page, `/category/${hebrewCategory.cid}/${hebrewCategory.slug.split('/').pop()}`);
    await page.locator('#new_topic').click();
    await page.locator('select.category-select option', { hasText: 'דיונים כלליים' }).first().waitFor({ state: 'attached' });
    expect(await direction(page, 'select.category-select option', 'דיונים כלליים')).toEqual({ dir: 'auto', direction: 'rtl' });
    await h.forum.ctx.users.saveSettings(await h.forum.ctx.privileges.viewer(h.data.alice.uid), h.data.alice.uid, { userLang: 'en-GB' });
  });
});

describe('right to left with a skin, and left to right unchanged', () => {
  it("a member's skin comes in its RTL build on a Hebrew page, and in its LTR build on an English one", async () => {
    const h = e2e();
    const { alice } = h.data;
    const viewer = await h.forum.ctx.privileges.viewer(alice.uid);
    await h.forum.ctx.users.saveSettings(viewer, alice.uid, { userLang: 'he', bootswatchSkin: 'flatly' });
    const page = await h.open('/', { as: alice, viewport: DESKTOP });
    expect(await page.locator('link#skin-css').getAttribute('href')).toMatch(/\/assets\/skins\/flatly\.rtl\.css\?v=/);
    await expectRtl(page, 'he');
    await shot(page, 'rtl-he-home-flatly-desktop');
    await h.forum.ctx.users.saveSettings(viewer, alice.uid, { userLang: 'en-GB', bootswatchSkin: 'flatly' });
    await h.goto(page, '/');
    // A full load (goto): the server render links the LTR builds.
    expect(await page.locator('link#skin-css').getAttribute('href')).toMatch(/\/assets\/skins\/flatly\.css\?v=/);
    await h.forum.ctx.users.saveSettings(viewer, alice.uid, { bootswatchSkin: '' });
  });

  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`an English page stays left to right (${size}): Bootstrap's LTR build, the sidebar on the left`, async () => {
      const h = e2e();
      const { alice, welcome } = h.data;
      await h.forum.ctx.users.saveSettings(await h.forum.ctx.privileges.viewer(alice.uid), alice.uid, { userLang: 'en-GB', bootswatchSkin: '' });
      const page = await h.open(topicPath(welcome), { as: alice, viewport });
      const d = await direction(page);
      expect(d.dir).toBe('ltr');
      expect(d.bootstrap).toMatch(/\/assets\/bootstrap\/bootstrap\.css\?v=/);
      expect(d.bootstrapLoaded).toBe(true);
      expect(d.margins).toEqual({ left: '16px', right: '0px' });
      if (size === 'desktop') {
        expect((await box(page, '.sidebar')).left).toBe(0);
        // The sidebar's user menu opens to its right, whole (not clipped by the sidebar).
        const toggle = await box(page, '.sidebar #user-menu-toggle-end');
        await page.locator('.sidebar #user-menu-toggle-end').click();
        const menu = await box(page, '.sidebar .dropdown-menu.show');
        expect(menu.left).toBeGreaterThan((toggle.left + toggle.right) / 2);
        expect(await shownAt(page, (menu.left + menu.right) / 2, (menu.top + menu.bottom) / 2, '.dropdown-menu.show')).toBe(true);
        await shot(page, 'ltr-home-menu-desktop-after');
        await page.keyboard.press('Escape');
      }
      expect(await page.locator('.page-header .icon-directional').first().evaluate((el) => getComputedStyle(el).transform)).toBe('none');
      await shot(page, `ltr-topic-${size}-after`);
      await h.goto(page, '/');
      await shot(page, `ltr-home-${size}-after`);
    });
  }
});

/** The session cookie of alice, for a plain HTTP request. */
async function sessionCookie(h: ReturnType<typeof e2e>): Promise<string> {
  const { SESSION_COOKIE } = await import('../../src/server/http/auth.js');
  const sid = await h.forum.ctx.auth.createSession(h.data.alice.uid, '127.0.0.1', 'e2e', 30);
  return `${SESSION_COOKIE}=${sid}`;
}
