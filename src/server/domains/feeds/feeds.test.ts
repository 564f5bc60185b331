import { Parser } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../../setup.js';
import { startTestForum, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import { makeCategory, postReply, postTopic } from '../topics/testing.js';

let forum: TestForum;
let admin: HttpClient;
let cid: number;
let hidden: number;
let topic: { tid: number; mainPid: number; slug: string };

interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

/**
 * Parses XML strictly enough for a test: every element closed in order, no stray `<` or
 * bare `&` in text, one root. Throws on a document a feed reader would reject.
 */
function parseXml(xml: string): XmlNode {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  // A bare ampersand (not an entity) is a fatal error for XML parsers.
  const bare = /&(?!(amp|lt|gt|quot|apos|#\d+|#x[\da-f]+);)/i.exec(xml);
  if (bare) throw new Error(`bare & at ${bare.index}: ${xml.slice(bare.index - 20, bare.index + 20)}`);
  const root: XmlNode = { name: '#root', attrs: {}, children: [], text: '' };
  const stack = [root];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const node = { name, attrs, children: [], text: '' };
        stack.at(-1)!.children.push(node);
        stack.push(node);
      },
      ontext(text) {
        stack.at(-1)!.text += text;
      },
      onclosetag(name) {
        const open = stack.pop()!;
        if (open.name !== name) throw new Error(`</${name}> closes <${open.name}>`);
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  if (stack.length !== 1) throw new Error('unclosed elements');
  const roots = root.children;
  expect(roots).toHaveLength(1);
  return roots[0]!;
}
const all = (n: XmlNode, name: string): XmlNode[] => [...(n.name === name ? [n] : []), ...n.children.flatMap((c) => all(c, name))];
const textOf = (n: XmlNode, name: string) => all(n, name).map((x) => x.text);

beforeAll(async () => {
  forum = await startTestForum();
  ({ client: admin } = await forum.loginAs({ admin: true }));
  cid = await makeCategory(forum.ctx, 'Feeds & <News>');
  hidden = await makeCategory(forum.ctx, 'Hidden');
  for (const group of ['guests', 'registered-users']) {
    await forum.ctx.categories.rescind(SYSTEM, hidden, 'groups:topics:read', group).catch(() => undefined);
    await forum.ctx.categories.rescind(SYSTEM, hidden, 'groups:read', group).catch(() => undefined);
  }
  topic = await postTopic(admin, cid, { title: 'Tom & Jerry <script>', content: 'Cats & mice: **bold** <b>tags</b> and "quotes" ]]> too.', tags: ['cartoons'] });
  await postReply(admin, topic.tid, 'A reply with an ampersand & a less-than < sign.');
  await postTopic(admin, hidden, { title: 'Staff secret', content: 'Nobody outside sees this.' });
});
afterAll(async () => {
  await forum.close();
});

describe('RSS feeds', () => {
  it('recent, popular and top are valid RSS 2.0 with escaped content', async () => {
    for (const path of ['/recent.rss', '/popular.rss', '/top.rss']) {
      const res = await forum.client().get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
      const rss = parseXml(res.text);
      expect(rss.name).toBe('rss');
      expect(rss.attrs.version).toBe('2.0');
      expect(textOf(rss, 'title')).toContain('Tom & Jerry <script>');
      expect(textOf(rss, 'title')).not.toContain('Staff secret');
      const description = all(rss, 'item').map((i) => textOf(i, 'description')[0]).find((d) => d?.includes('Cats'));
      expect(description).toContain('<strong>bold</strong>');
      expect(description).toContain('&amp;');
    }
  });

  it('a category, a topic and a tag have their own feed; a hidden one is a 404 for a guest', async () => {
    const cat = parseXml((await forum.client().get(`/category/${cid}.rss`)).text);
    expect(textOf(cat, 'title')[0]).toBe('Feeds & <News>');
    expect(textOf(cat, 'title')).toContain('Tom & Jerry <script>');
    const t = parseXml((await forum.client().get(`/topic/${topic.tid}.rss`)).text);
    expect(all(t, 'item')).toHaveLength(2);
    // Newest first; the reply's "<" arrives escaped in the HTML the description carries.
    expect(textOf(all(t, 'item')[0]!, 'description')[0]).toContain('less-than &lt; sign');
    const tag = parseXml((await forum.client().get('/tags/cartoons.rss')).text);
    expect(all(tag, 'item')).toHaveLength(1);
    const author = (await forum.ctx.users.get((await forum.ctx.topics.get(topic.tid))!.uid))!;
    const mine = parseXml((await forum.client().get(`/user/${author.userslug}/topics.rss`)).text);
    // The member's topics the reader may read: not the one in the hidden category.
    expect(textOf(mine, 'title')[0]).toBe(`Topics created by ${author.username}`);
    expect(textOf(mine, 'title').slice(1)).toEqual(['Tom & Jerry <script>']);
    expect((await forum.client().get('/user/nobody-at-all/topics.rss')).status).toBe(404);
    expect((await forum.client().get(`/category/${hidden}.rss`)).status).toBe(404);
    expect((await forum.client().get('/topic/999999.rss')).status).toBe(404);
  });

  it("a member's private feed (uid + token) shows what the member may read; a wrong token reads as a guest", async () => {
    const { client, user } = await forum.loginAs({ admin: true });
    // The member's pages link their private feed.
    const page = await client.get('/api/recent');
    const alt = (page.body._header.tags.link as { rel: string; href: string }[]).find((l) => l.rel === 'alternate')!;
    expect(alt.href).toContain(`/recent.rss?uid=${user.uid}&token=`);
    const token = new URL(alt.href).searchParams.get('token')!;
    const own = parseXml((await forum.client().get(`/recent.rss?uid=${user.uid}&token=${token}`)).text);
    expect(textOf(own, 'title')).toContain('Staff secret');
    const forged = parseXml((await forum.client().get(`/recent.rss?uid=${user.uid}&token=${token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))}`)).text);
    expect(textOf(forged, 'title')).not.toContain('Staff secret');
  });

  it("a feed's own texts are in the forum's language for guests and in the member's own for a private feed", async () => {
    const site = (await forum.ctx.settings.get()).siteTitle;
    const english = parseXml((await forum.client().get('/recent.rss')).text);
    expect(textOf(english, 'title')[0]).toBe(`${site}: Recent Topics`);
    expect(textOf(english, 'language')).toEqual(['en-gb']);
    const { client, user } = await forum.loginAs();
    expect((await client.put(`/api/v3/users/${user.uid}/settings`, { settings: { userLang: 'fr' } })).status).toBe(200);
    const token = forum.ctx.feeds.tokenFor(user.uid);
    await forum.ctx.settings.set({ defaultLang: 'de' });
    try {
      // The guest answer cached in English above is not served once the forum speaks German.
      const german = parseXml((await forum.client().get('/recent.rss')).text);
      expect(textOf(german, 'title')[0]).toBe(`${site}: Neueste Themen`);
      expect(textOf(german, 'language')).toEqual(['de']);
      expect(textOf(german, 'title')).toContain('Tom & Jerry <script>');
      const author = (await forum.ctx.users.get((await forum.ctx.topics.get(topic.tid))!.uid))!;
      expect(textOf(parseXml((await forum.client().get(`/user/${author.userslug}/topics.rss`)).text), 'title')[0]).toBe(`Themen von ${author.username}`);
      expect(textOf(parseXml((await forum.client().get('/tags/cartoons.rss')).text), 'title')[0]).toBe(`${site}: Themen mit dem Tag „cartoons“`);
      // The member who chose French reads their private feed in French, whatever the forum's language.
      const french = parseXml((await forum.client().get(`/recent.rss?uid=${user.uid}&token=${token}`)).text);
      expect(textOf(french, 'title')[0]).toBe(`${site}: Sujets récents`);
      expect(textOf(french, 'language')).toEqual(['fr']);
    } finally {
      await forum.ctx.settings.set({ defaultLang: 'en-GB' });
    }
  });

  it('disableRSSFeeds turns every feed off', async () => {
    await forum.ctx.settings.set({ disableRSSFeeds: true });
    expect((await forum.client().get('/recent.rss')).status).toBe(404);
    await forum.ctx.settings.set({ disableRSSFeeds: false });
    expect((await forum.client().get('/recent.rss')).status).toBe(200);
  });
});

describe('sitemaps and robots.txt', () => {
  it('sitemap.xml is an index of the pages, categories and topic sitemaps, with what guests may read', async () => {
    const index = parseXml((await forum.client().get('/sitemap.xml')).text);
    expect(index.name).toBe('sitemapindex');
    const locs = textOf(index, 'loc');
    expect(locs.map((l) => new URL(l).pathname.replace(/^\/forum/, ''))).toEqual(['/sitemap/pages.xml', '/sitemap/categories.xml', '/sitemap/topics.1.xml']);
    for (const loc of locs) {
      const res = await forum.client().get(new URL(loc).pathname.replace(/^\/forum/, ''));
      expect(res.status, loc).toBe(200);
      expect(parseXml(res.text).name).toBe('urlset');
    }
    const topics = textOf(parseXml((await forum.client().get('/sitemap/topics.1.xml')).text), 'loc');
    expect(topics.some((l) => l.includes(`/topic/${topic.tid}/`))).toBe(true);
    expect(topics.some((l) => l.includes('staff-secret'))).toBe(false);
    const cats = textOf(parseXml((await forum.client().get('/sitemap/categories.xml')).text), 'loc');
    expect(cats.some((l) => l.includes(`/category/${cid}/`))).toBe(true);
    expect(cats.some((l) => l.includes(`/category/${hidden}/`))).toBe(false);
    expect((await forum.client().get('/sitemap/topics.2.xml')).status).toBe(404);
  });

  it('serves a crawler the same sitemap from the cache until content changes', async () => {
    const first = (await forum.client().get('/sitemap/topics.1.xml')).text;
    // A topic written behind the services' back (no hook) stays out: the answer is the cached one.
    await forum.ctx.db.updateTable('topics').set({ title: 'Renamed without a hook' }).where('tid', '=', topic.tid).execute();
    const again = (await forum.client().get('/sitemap/topics.1.xml')).text;
    expect(again).toBe(first);
    const added = await postTopic(admin, cid, { title: 'A brand new topic for the sitemap' });
    const after = (await forum.client().get('/sitemap/topics.1.xml')).text;
    expect(after).toContain(`/topic/${added.tid}/`);
    await forum.ctx.db.updateTable('topics').set({ title: 'Tom & Jerry <script>' }).where('tid', '=', topic.tid).execute();
  });

  it('robots.txt names the sitemap, or is the admin\'s text', async () => {
    const res = await forum.client().get('/robots.txt');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.text).toMatch(/^User-agent: \*$/m);
    expect(res.text).toMatch(new RegExp(`^Sitemap: ${forum.ctx.config.url.replace(/[.]/g, '\\.')}/sitemap\\.xml$`, 'm'));
    await forum.ctx.settings.set({ 'robots:txt': 'User-agent: *\nDisallow: /' });
    expect((await forum.client().get('/robots.txt')).text).toBe('User-agent: *\nDisallow: /\n');
    await forum.ctx.settings.set({ 'robots:txt': '' });
  });
});

describe('head tags', () => {
  it('a topic page carries og, twitter and JSON-LD DiscussionForumPosting; its feed is linked', async () => {
    const html = (await forum.client().get(`/topic/${topic.tid}/${topic.slug.split('/').pop()}`)).text;
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html);
    expect(ld).not.toBeNull();
    const data = JSON.parse(ld![1]!);
    expect(data).toMatchObject({ '@context': 'https://schema.org', '@type': 'DiscussionForumPosting', headline: 'Tom & Jerry <script>' });
    expect(data.interactionStatistic[0].userInteractionCount).toBe(1);
    // The title's "<script>" is escaped inside the JSON block: it cannot end the element.
    expect(ld![1]).not.toContain('<script>');
    expect(html).toContain('name="twitter:card"');
    expect(html).toMatch(new RegExp(`rel="alternate" type="application/rss\\+xml" href="[^"]*/topic/${topic.tid}\\.rss"`));
  });

  it('member-only pages say noindex', async () => {
    const { client } = await forum.loginAs();
    const page = await client.get('/api/notifications');
    expect(page.body._header.tags.meta).toContainEqual({ name: 'robots', content: 'noindex' });
    const guestPage = await forum.client().get('/api/recent');
    expect(guestPage.body._header.tags.meta.some((m: { name?: string }) => m.name === 'robots')).toBe(false);
  });
});

describe('the outgoing page', () => {
  it('answers NodeBB\'s page data for an http(s) address, and 400 for anything else', async () => {
    const res = await forum.client().get(`/api/outgoing?url=${encodeURIComponent('https://example.org/a?b=1&c=<2>')}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ template: { name: 'outgoing' }, outgoing: 'https://example.org/a?b=1&c=%3C2%3E' });
    expect(res.body._header.tags.meta).toContainEqual({ name: 'robots', content: 'noindex, nofollow' });
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', '/relative', '', 'ftp://x.test/']) {
      const r = await forum.client().get(`/api/outgoing?url=${encodeURIComponent(bad)}`);
      expect(r.status, bad).toBe(400);
    }
  });
});
