/**
 * The server render's shortcuts (the fragment cache of src/client/ssr/fragments.tsx, the closed
 * dropdowns of src/client/components/Dropdown.tsx): what they write must be exactly what React
 * renders with the browser's own components, for every reader and page, and cached post cards
 * and topic rows must follow each reader's own votes, bookmarks, unread state and edits.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { SsrModule } from '../../src/shared/ssr.js';
import type { ClientConfig, PageBase } from '../../src/shared/types.js';
import type { UserRow } from '../../src/server/domains/users/store.js';
import { categoryPath, seedSmall, topicPath, useE2E } from './harness.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

const e2e = useE2E(async (forum) => {
  const data = await seedSmall(forum);
  const ctx = forum.ctx;
  const viewer = (u: UserRow) => ctx.privileges.viewer(u.uid);
  const posts = await ctx.posts.pageOfTopic(data.welcome.tid, 0, 10);
  const [main, bobs] = posts;
  // A post edited by its author, one voted on and bookmarked, one deleted (shown to the admin).
  await ctx.posts.edit({ ...(await viewer(data.alice)), master: true }, main!.pid, { content: 'Welcome everyone! This forum **feels fast**, edited.' });
  await ctx.posts.vote(await viewer(data.carol), main!.pid, 1);
  await ctx.posts.bookmark(await viewer(data.carol), bobs!.pid, true);
  const extra = await ctx.posts.reply({ ...(await viewer(data.bob)), master: true }, data.welcome.tid, { content: 'A post about to be deleted.' });
  await ctx.posts.delete({ ...(await viewer(data.alice)), master: true }, extra.post.pid);
  const room = await ctx.chats.create(await viewer(data.bob), { uids: [data.carol.uid], roomName: 'Picnic' });
  await ctx.chats.send(await viewer(data.bob), room.roomId, 'Bring apples');
  await ctx.hooks.idle();
  return { ...data, main: main!, bobs: bobs!, roomId: room.roomId };
});

/** The page data and client config the server embedded in a page, as `who` sees it. */
async function embedded(who: UserRow | null, path: string): Promise<{ page: PageBase; config: ClientConfig }> {
  const h = e2e();
  const client = who ? (await h.forum.loginAs(who)).client : h.forum.client();
  const res = await client.get(path);
  expect(res.status, path).toBe(200);
  const pick = (id: string) => JSON.parse(res.text.match(new RegExp(`<script id="${id}" type="application/json">(.*?)</script>`, 's'))![1]!);
  return { page: pick('page-data'), config: pick('client-config') };
}

describe('the server render', () => {
  it('writes every reader’s pages exactly as React renders them with the browser’s components', async () => {
    const h = e2e();
    const ssr = (await import(pathToFileURL(join(root, 'dist/ssr/entry-server.js')).href)) as SsrModule;
    const { alice, bob, carol, general } = h.data;
    const paths = ['/', '/recent', `/category/${general.slug}`, topicPath(h.data.welcome), '/user/alice'];
    for (const who of [null, alice, bob, carol]) {
      for (const path of [...paths, ...(who === bob ? ['/chats', `/chats/${h.data.roomId}`] : [])]) {
        const { page, config } = await embedded(who, path);
        const plain = ssr.renderPage(page, config, { shortcuts: false });
        // Twice: the first render may fill the fragment cache, the second reads it.
        expect(ssr.renderPage(page, config), `${path} as ${who?.username ?? 'a visitor'}`).toBe(plain);
        expect(ssr.renderPage(page, config)).toBe(plain);
        if (path === topicPath(h.data.welcome)) expect(plain).toContain(`id="post-${h.data.main.pid}"`);
        if (who) expect(plain, path).toContain('dropdown-toggle');
      }
    }
  });

  it('writes the sidebar and bottom bar from the cache only for a page that shows them the same', async () => {
    const h = e2e();
    const ssr = (await import(pathToFileURL(join(root, 'dist/ssr/entry-server.js')).href)) as SsrModule;
    const { carol } = h.data;
    const base = await embedded(carol, '/recent');
    const visitor = await embedded(null, '/recent');
    const user = base.page.loggedInUser!;
    const nav = base.config.navigation!;
    type Variant = { page?: Partial<PageBase> & Record<string, unknown>; config?: Partial<ClientConfig>; from?: typeof base };
    // Each changes one thing the bars show; each is rendered right after the unchanged page,
    // whose bars are then in the cache.
    const variants: Record<string, Variant> = {
      'another section (the active entry)': { page: { url: '/categories' } },
      'the sidebar open': { page: { loggedInUser: { ...user, settings: { ...user.settings!, openSidebars: 'on' } } } },
      'another status': { page: { loggedInUser: { ...user, status: 'dnd' } } },
      'another name': { page: { loggedInUser: { ...user, displayname: 'Caroline' } } },
      'an avatar picture': { page: { loggedInUser: { ...user, picture: '/assets/uploads/profile/carol.png' } } },
      'another avatar colour': { page: { loggedInUser: { ...user, 'icon:bgColor': '#123456' } } },
      'unread chats': { page: { unreadChatCount: 3 } },
      'another forum title': { config: { siteTitle: 'Elsewhere' } },
      'a logo': { config: { brand: { ...base.config.brand, logo: '/assets/uploads/system/logo.png' } as ClientConfig['brand'] } },
      'a renamed entry': { config: { navigation: nav.map((e, i) => (i === 0 ? { ...e, text: 'Start here' } : e)) } },
      'an entry turned off': { config: { navigation: nav.map((e, i) => (i === 1 ? { ...e, enabled: false } : e)) } },
      'registration closed (a visitor)': { from: visitor, config: { allowRegistration: !visitor.config.allowRegistration } },
    };
    for (const [name, v] of Object.entries(variants)) {
      const from = v.from ?? base;
      // The unchanged page first: its bars fill the cache (rendered twice: the first render fills it).
      ssr.renderPage(from.page, from.config);
      const cached = ssr.renderPage(from.page, from.config);
      expect(cached, name).toBe(ssr.renderPage(from.page, from.config, { shortcuts: false }));
      const page = { ...from.page, ...v.page } as PageBase;
      const config = { ...from.config, ...v.config } as ClientConfig;
      const plain = ssr.renderPage(page, config, { shortcuts: false });
      expect(plain, `${name} changes the page`).not.toBe(cached);
      expect(ssr.renderPage(page, config), name).toBe(plain);
      expect(ssr.renderPage(page, config), name).toBe(plain);
    }
  });

  it('gives members who see a page alike one frame, each with their own bars', async () => {
    const h = e2e();
    const ssr = (await import(pathToFileURL(join(root, 'dist/ssr/entry-server.js')).href)) as SsrModule;
    // Two members who have done nothing yet: their pages differ only in who they are.
    const erin = await h.forum.createUser({ username: 'erin' });
    const frank = await h.forum.createUser({ username: 'frank' });
    for (const path of ['/', '/recent', categoryPath(h.data.general), topicPath(h.data.welcome)]) {
      const a = await embedded(erin, path);
      const b = await embedded(frank, path);
      ssr.renderPage(a.page, a.config);
      const { misses } = ssr.renderStats().frames;
      // Frank's page is Erin's frame: the first render puts his bars in the cache, the second is the frame and his bars alone.
      expect(ssr.renderPage(b.page, b.config), path).toBe(ssr.renderPage(b.page, b.config, { shortcuts: false }));
      const framed = ssr.renderPage(b.page, b.config);
      expect(ssr.renderStats().frames.misses, `${path}: Frank's page found Erin's frame`).toBe(misses);
      expect(framed, path).toBe(ssr.renderPage(b.page, b.config, { shortcuts: false }));
      expect(framed).toContain('frank');
      expect(framed).not.toContain('erin');
      // The server's own render (its page key, made with the page data's JSON) shares the frame
      // the same way and writes what React renders for Frank.
      // (Erin's page first: Frank's first page must find its frame, feed token and all.)
      await h.forum.loginAs(erin).then(({ client }) => client.get(path));
      const { client } = await h.forum.loginAs(frank);
      const before = ssr.renderStats().frames;
      await client.get(path);
      const served = (await client.get(path)).text;
      expect(ssr.renderStats().frames.misses, `${path}: the server found Erin's frame for Frank`).toBe(before.misses);
      expect(ssr.renderStats().frames.hits).toBeGreaterThan(before.hits);
      const app = served.slice(served.indexOf('<div id="app">') + '<div id="app">'.length, served.indexOf('</div>\n<script id="page-data"'));
      const data = await embedded(frank, path);
      expect(app, path).toBe(ssr.renderPage(data.page, data.config, { shortcuts: false }));
      // What the member's settings change (pagination, time zone, the sidebar) is another frame.
      const user = b.page.loggedInUser!;
      for (const settings of [{ usePagination: !user.settings!.usePagination }, { timezone: 'Asia/Tokyo' }, { openSidebars: 'on' }]) {
        const page = { ...b.page, loggedInUser: { ...user, settings: { ...user.settings!, ...settings } } } as PageBase;
        expect(ssr.renderPage(page, b.config), `${path} with ${JSON.stringify(settings)}`).toBe(ssr.renderPage(page, b.config, { shortcuts: false }));
      }
    }
  });

  it("shows a member's own vote in a page whose frame another member filled", async () => {
    const h = e2e();
    const gina = await h.forum.createUser({ username: 'gina' });
    const hank = await h.forum.createUser({ username: 'hank' });
    const path = topicPath(h.data.welcome);
    // (Bob's post: the main post's count is the next test's.)
    const pid = h.data.bobs.pid;
    const upvoted = (html: string) => new RegExp(`id="post-${pid}"[\\s\\S]*?aria-pressed="(true|false)" aria-label="Upvote"`).exec(html)?.[1];
    const g = (await h.forum.loginAs(gina)).client;
    const k = (await h.forum.loginAs(hank)).client;
    // The same page for both, cached by Hank's reads.
    expect(upvoted((await k.get(path)).text)).toBe('false');
    expect(upvoted((await g.get(path)).text)).toBe('false');
    await h.forum.ctx.posts.vote(await h.forum.ctx.privileges.viewer(gina.uid), pid, 1);
    await h.forum.ctx.hooks.idle();
    expect(upvoted((await k.get(path)).text)).toBe('false');
    expect(upvoted((await g.get(path)).text)).toBe('true');
    expect(upvoted((await k.get(path)).text)).toBe('false');
  });

  it("writes each page's head from its own title, tags, skin and language, once its like is cached", async () => {
    const h = e2e();
    const ssr = (await import(pathToFileURL(join(root, 'dist/ssr/entry-server.js')).href)) as SsrModule;
    const base = await embedded(h.data.carol, topicPath(h.data.welcome));
    const head = ssr.renderHead(base.page, base.config);
    expect(ssr.renderHead(base.page, base.config)).toBe(head);
    expect(head).toContain('<title>Welcome to Palaver');
    const tags = base.page._header.tags;
    const variants: [string, PageBase, ClientConfig, string][] = [
      ['another title', { ...base.page, title: 'Another title' }, base.config, '<title>Another title'],
      ['another description', { ...base.page, _header: { tags: { ...tags, meta: tags.meta.map((m) => (m.name === 'description' ? { ...m, content: 'Changed words' } : m)) } } }, base.config, 'content="Changed words"'],
      ['another skin', base.page, { ...base.config, bootswatchSkin: 'darkly' }, 'skins/darkly.css'],
      ['another title layout', base.page, { ...base.config, titleLayout: '{browserTitle} | {pageTitle}' }, `<title>${base.config.browserTitle} | Welcome to Palaver`],
    ];
    for (const [name, page, config, shows] of variants) {
      expect(ssr.renderHead(page, config), name).toContain(shows);
      expect(ssr.renderHead(base.page, base.config), name).toBe(head);
    }
  });

  it('shows a reader their own vote and bookmark after a reload, and only to them', async () => {
    const h = e2e();
    const { bob, carol, main, bobs } = h.data;
    // The server render alone (no JavaScript): what the cache gave is what the reader sees.
    const upvote = (page: Page, pid: number) => page.locator(`#post-${pid}`).getByRole('button', { name: 'Upvote' });
    const bookmark = (page: Page, pid: number) => page.locator(`#post-${pid}`).getByRole('button', { name: /Bookmark/ });
    const page = await h.open(topicPath(h.data.welcome), { as: carol, javaScript: false });
    await expect.poll(() => upvote(page, main.pid).getAttribute('aria-pressed')).toBe('true');
    expect(await bookmark(page, bobs.pid).getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator(`#post-${main.pid} .post-edited`).count()).toBe(1);

    // Bob reads the same posts: neither Carol's vote nor her bookmark is his.
    const other = await h.open(topicPath(h.data.welcome), { as: bob, javaScript: false });
    expect(await upvote(other, main.pid).getAttribute('aria-pressed')).toBe('false');
    expect(await bookmark(other, bobs.pid).getAttribute('aria-pressed')).toBe('false');

    // Carol takes her vote back in the browser (the hydrated card's button works), then reloads.
    const live = await h.open(topicPath(h.data.welcome), { as: carol });
    const button = upvote(live, main.pid);
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('true');
    await button.click();
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('false');
    await live.reload();
    await live.waitForSelector('html[data-loaded]', { state: 'attached' });
    expect(await upvote(live, main.pid).getAttribute('aria-pressed')).toBe('false');
    expect(await live.locator(`#post-${main.pid} .vote-count`).textContent()).toBe('0');
  });
});
