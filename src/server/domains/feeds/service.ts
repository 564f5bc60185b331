import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.js';
import type { Cache } from '../../core/cache.js';
import { CONTENT, GROUPS, PRIVILEGES, SETTINGS } from '../../core/tags.js';
import { notFound } from '../../http/errors.js';
import { forumLanguage, memberLanguage } from '../../http/language.js';
import { translate } from '../../i18n.js';
import type { Viewer } from '../privileges/service.js';
import { renderRss, renderSitemapIndex, renderUrlSet, type Feed } from './xml.js';

/** What the feeds service uses of the application. */
export type FeedsDeps = Pick<AppContext, 'cacheRegistry' | 'categories' | 'config' | 'posts' | 'privileges' | 'settings' | 'tags' | 'topics' | 'users'>;

/** Items in a feed (NodeBB's default). */
const FEED_ITEMS = 20;
/** Topics per topic sitemap file (the protocol allows 50,000; NodeBB's `sitemapTopics` is 500). */
export const SITEMAP_TOPICS = 500;
/** How long a feed or sitemap answered to guests is reused (a content write here drops it). */
const CACHE_MS = 10 * 60_000;

/**
 * RSS feeds (NodeBB's `.rss` paths), sitemaps and robots.txt. Guests' answers are cached:
 * a crawler asking the same file again within the cache time costs no query. Members read
 * their private feeds with `uid` and `token` in the query (`tokenFor`).
 */
export class FeedsService {
  /** Guests' feeds and sitemaps, by path. */
  private cache: Cache<string, string>;
  private tokens = new Map<number, string>();

  constructor(private readonly ctx: FeedsDeps) {
    this.cache = ctx.cacheRegistry.create({
      name: 'feeds',
      keeps: "a guest's RSS feed or sitemap, by path",
      droppedBy: 'any content change, grants, groups, settings',
      ttlMs: CACHE_MS,
      max: 2000,
      maxBytes: 16 * 1024 * 1024,
      sizeOf: (body) => body.length,
      tags: () => [CONTENT, PRIVILEGES, GROUPS, SETTINGS],
    });
  }

  /** A member's feed token: lets a feed reader read what the member may read, and nothing else. */
  tokenFor(uid: number): string {
    // Every member page links the member's feed: the HMAC is computed once per member.
    let token = this.tokens.get(uid);
    if (token === undefined) {
      token = createHmac('sha256', this.ctx.config.secret).update(`rss:${uid}`).digest('base64url').slice(0, 32);
      if (this.tokens.size >= 10_000) this.tokens.clear();
      this.tokens.set(uid, token);
    }
    return token;
  }

  /** The viewer a feed request reads as: the member of a valid uid + token, else a guest. */
  async viewerOf(query: { uid?: string; token?: string }): Promise<Viewer> {
    const uid = Number(query.uid);
    if (Number.isInteger(uid) && uid > 0 && query.token) {
      const want = Buffer.from(this.tokenFor(uid));
      const got = Buffer.from(query.token);
      if (want.length === got.length && timingSafeEqual(want, got) && (await this.ctx.users.get(uid))) return this.ctx.privileges.viewer(uid);
    }
    return this.ctx.privileges.viewer(0);
  }

  /**
   * The language a feed is written in: a member's own (a private feed), else the forum's
   * (feed readers send no useful Accept-Language, and guests' feeds are shared and cached).
   */
  private async languageOf(viewer: Viewer, s: { defaultLang: string }): Promise<string> {
    const row = viewer.uid > 0 ? (viewer.row ?? (await this.ctx.users.get(viewer.uid))) : null;
    return row ? memberLanguage(row, s) : forumLanguage(s);
  }

  /** Answers from the guest cache, or builds and keeps the answer (members are never cached). */
  async cached(key: string, viewer: Viewer, build: () => Promise<string>): Promise<string> {
    if (viewer.uid > 0) return build();
    // A guest's answer is in the forum's language: another default language is another answer.
    return this.cache.get(`${forumLanguage(await this.ctx.settings.get())} ${key}`, build);
  }

  /** Recent, popular or top topics of every readable category (or one). */
  async topicsFeed(viewer: Viewer, sort: 'recent' | 'popular' | 'top', cid?: number): Promise<string> {
    const s = await this.ctx.settings.get();
    const lang = await this.languageOf(viewer, s);
    let cids = await this.ctx.categories.readableCids(viewer);
    let title = `${s.siteTitle}: ${translate(`pages:${sort}`, [], lang)}`;
    let link = `${this.ctx.config.url}/${sort}`;
    let description = s.description || title;
    if (cid !== undefined) {
      if (!cids.includes(cid)) throw notFound('error:no-category');
      const row = await this.ctx.categories.get(cid);
      if (!row) throw notFound('error:no-category');
      cids = [cid];
      title = row.name;
      link = `${this.ctx.config.url}/category/${row.cid}/${row.slug}`;
      description = row.description || row.name;
    }
    const { topics } = await this.ctx.topics.list(viewer, { cids, sort: cid !== undefined ? 'recent' : sort, page: 1, perPage: FEED_ITEMS });
    return this.render(viewer, { title, link, description, self: `${link}.rss`, language: lang }, topics.map((t) => t.mainPid));
  }

  /** A topic's newest posts. */
  async topicFeed(viewer: Viewer, tid: number): Promise<string> {
    const topic = await this.ctx.topics.get(tid);
    const cids = await this.ctx.categories.readableCids(viewer);
    if (!topic || topic.deleted || topic.scheduled || !cids.includes(topic.cid)) throw notFound('error:no-topic');
    const count = await this.ctx.posts.countInTopic(tid);
    const rows = await this.ctx.posts.pageOfTopic(tid, Math.max(0, count - FEED_ITEMS), FEED_ITEMS);
    const link = `${this.ctx.config.url}/topic/${topic.tid}/${topic.slug}`;
    const pids = rows.filter((p) => !p.deleted).map((p) => p.pid).reverse();
    const language = await this.languageOf(viewer, await this.ctx.settings.get());
    return this.render(viewer, { title: topic.title, link, description: topic.title, self: `${this.ctx.config.url}/topic/${tid}.rss`, language }, pids);
  }

  /** The newest topics carrying a tag. */
  async tagFeed(viewer: Viewer, tag: string): Promise<string> {
    const cids = await this.ctx.categories.readableCids(viewer);
    const { tids } = await this.ctx.tags.topicIds(tag, cids, 1, FEED_ITEMS);
    const rows = await this.ctx.topics.getMany(tids);
    const link = `${this.ctx.config.url}/tags/${encodeURIComponent(tag)}`;
    const s = await this.ctx.settings.get();
    const lang = await this.languageOf(viewer, s);
    const title = `${s.siteTitle}: ${translate('pages:tag', [tag], lang)}`;
    return this.render(viewer, { title, link, description: `#${tag}`, self: `${link}.rss`, language: lang }, tids.flatMap((t) => (rows.get(t) ? [rows.get(t)!.main_pid] : [])));
  }

  /** A member's newest topics (NodeBB's /user/{userslug}/topics.rss). */
  async userTopicsFeed(viewer: Viewer, userslug: string): Promise<string> {
    await this.ctx.privileges.assert(viewer, 'view:users');
    const user = await this.ctx.users.bySlug(userslug);
    if (!user || user.deleted) throw notFound('error:no-user');
    const rows = await this.ctx.users.topicsOf(user.uid, await this.ctx.categories.readableCids(viewer), FEED_ITEMS);
    const link = `${this.ctx.config.url}/user/${user.userslug}/topics`;
    const lang = await this.languageOf(viewer, await this.ctx.settings.get());
    const title = translate('pages:account/topics', [user.username], lang);
    return this.render(viewer, { title, link, description: title, self: `${link}.rss`, language: lang }, rows.map((t) => t.main_pid));
  }

  private async render(viewer: Viewer, channel: Omit<Feed, 'items'>, pids: number[]): Promise<string> {
    const posts = await this.ctx.posts.objects(viewer, pids);
    return renderRss({
      ...channel,
      items: posts.map((p) => ({
        title: p.topic.titleRaw,
        link: `${this.ctx.config.url}/post/${p.pid}`,
        guid: `${this.ctx.config.url}/post/${p.pid}`,
        html: p.content,
        author: p.user.displayname,
        date: p.timestamp,
      })),
    });
  }

  /** sitemap.xml: the index of the pages, categories and topic sitemaps (what guests may read). */
  async sitemapIndex(): Promise<string> {
    const guest = await this.ctx.privileges.viewer(0);
    const { count } = await this.ctx.topics.list(guest, { cids: await this.ctx.categories.readableCids(guest), sort: 'recent', page: 1, perPage: 1 });
    const base = this.ctx.config.url;
    const files = [`${base}/sitemap/pages.xml`, `${base}/sitemap/categories.xml`];
    for (let i = 1; i <= Math.max(1, Math.ceil(count / SITEMAP_TOPICS)); i++) files.push(`${base}/sitemap/topics.${i}.xml`);
    return renderSitemapIndex(files);
  }

  /** The forum's own list pages. */
  async sitemapPages(): Promise<string> {
    const guest = await this.ctx.privileges.viewer(0);
    const base = this.ctx.config.url;
    const paths = ['/', '/recent', '/popular', '/top'];
    if (await this.ctx.privileges.can(guest, 'view:tags')) paths.push('/tags');
    if (await this.ctx.privileges.can(guest, 'view:users')) paths.push('/users');
    if (await this.ctx.privileges.can(guest, 'view:groups')) paths.push('/groups');
    return renderUrlSet(paths.map((p) => ({ loc: `${base}${p}`, priority: p === '/' ? 1 : 0.6 })));
  }

  /** The categories guests may read. */
  async sitemapCategories(): Promise<string> {
    const guest = await this.ctx.privileges.viewer(0);
    const rows = await this.ctx.categories.list(guest);
    return renderUrlSet(rows.filter((c) => !c.link).map((c) => ({ loc: `${this.ctx.config.url}/category/${c.cid}/${c.slug}`, priority: 0.7 })));
  }

  /** Page `n` (from 1) of the topics guests may read, newest activity first. */
  async sitemapTopics(n: number): Promise<string> {
    const guest = await this.ctx.privileges.viewer(0);
    const { topics } = await this.ctx.topics.list(guest, { cids: await this.ctx.categories.readableCids(guest), sort: 'recent', page: n, perPage: SITEMAP_TOPICS });
    if (n > 1 && !topics.length) throw notFound();
    return renderUrlSet(topics.map((t) => ({ loc: `${this.ctx.config.url}/topic/${t.slug.startsWith(`${t.tid}/`) ? t.slug : `${t.tid}/${t.slug}`}`, lastmod: t.lastposttime, priority: 0.5 })));
  }

  /** robots.txt: the admin's text (setting `robots:txt`), else a default naming the sitemap. */
  async robots(): Promise<string> {
    const custom = (await this.ctx.settings.get())['robots:txt'];
    if (custom.trim()) return custom.endsWith('\n') ? custom : `${custom}\n`;
    const rp = this.ctx.config.relativePath;
    return `User-agent: *\nDisallow: ${rp}/admin/\nDisallow: ${rp}/reset/\nDisallow: ${rp}/compose\nDisallow: ${rp}/outgoing\nSitemap: ${this.ctx.config.url}/sitemap.xml\n`;
  }
}
