import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Attributes, Breadcrumb, GuestUser, LoggedInUser, PageBase } from '../../shared/types.js';
import type { AppContext } from '../context.js';
import type { Viewer } from '../domains/privileges/service.js';
import type { UserRow } from '../domains/users/store.js';
import { presentLoggedIn } from '../domains/users/presenter.js';
import { widgetsOf } from '../domains/widgets/service.js';
import { translate, translateText } from '../i18n.js';
import { csrfToken } from './auth.js';
import { clientConfig, userAgentFlags } from './client-config.js';
import { AppError } from './errors.js';
import type { Cache } from '../core/cache.js';
import { CATEGORIES, CONTENT, GROUPS, PRIVILEGES, SETTINGS, WIDGETS, type Tag } from '../core/tags.js';
import { pageSizes } from './pagination.js';
import { documentBytes, renderDocument, renderDocumentParts } from './render.js';
import { sendPieces, type BodyPiece } from './send.js';
import { carryBeginning, pageJsonPieces, scriptJson } from './page-json.js';
import { copyWithout, withFields } from './objects.js';
import { SharedValues } from '../cache/page-cache.js';
import { forumLanguage, guestLanguage, requestLanguage } from './language.js';

/** What a page loader is given. */
export interface PageRequest {
  ctx: AppContext;
  viewer: Viewer;
  params: Record<string, string>;
  query: Record<string, string>;
  /** The path inside the forum (no relative_path), with the query string. */
  url: string;
  /** True for GET /api/<path> (page data): NodeBB answers those without redirecting to the canonical slug. */
  api: boolean;
  /** The viewer's session (its hash), so a page can mark "this session" (account sessions). */
  sessionHash?: string | null;
  /** The language the page is rendered in (the member's, else the guest's): for what a loader writes itself. */
  lang?: string;
  /** Who is reading, to count a visitor once (topic views): the member, or a guest by address. */
  visitor?: string;
  /**
   * Names what the page was built from (core/tags.ts), so a guest's cached copy drops when it
   * changes: a topic page, its topic and category. A page that names nothing is dropped by any
   * change of content.
   */
  depends?(...tags: Tag[]): void;
}

/** The page-specific part a loader returns; the router adds the common fields. */
export type PageContent<T extends PageBase> = Omit<T, keyof PageBase> & {
  title: string;
  breadcrumbs?: Breadcrumb[];
  bodyClass?: string;
  postIndex?: number;
  meta?: Attributes[];
  /** The head's link tags; a page whose data has NodeBB's own `link` field (a string) gives them as `headLink`. */
  link?: Attributes[] | string;
  headLink?: Attributes[];
  /** Sets the template name when the loader decides it (e.g. error pages). */
  template?: string;
};

export type PageResult<T extends PageBase> = PageContent<T> | { redirect: string; permanent?: boolean };

export interface PageDef<T extends PageBase = PageBase> {
  /** Path patterns inside the forum, e.g. '/topic/:tid/:slug?/:index?'. */
  path: string;
  template: string;
  /** Answer 401 to guests. */
  requireLogin?: boolean;
  /**
   * Who may open the page, checked before the loader: 'admin' (the admin area), or
   * 'moderator' (administrators and global moderators: the admin area's manage pages their
   * privileges allow). A guest gets 401, anyone else 403. The loader still checks what it shows.
   */
  access?: 'admin' | 'moderator';
  load(req: PageRequest): Promise<PageResult<T>>;
  /** Side effects a guest's view still needs when the page comes from the guest cache. */
  onCacheHit?(req: PageRequest): void;
}

/** Who is reading a page: `u:<uid>` for a member, `g:<address>` for a guest. */
function visitorOf(req: FastifyRequest): string {
  return req.viewer.uid > 0 ? `u:${req.viewer.uid}` : `g:${req.ip}`;
}

/** Declares a page; register it with registerPages. */
export function definePage<T extends PageBase>(def: PageDef<T>): PageDef<T> {
  return def;
}

/** Expands optional trailing params ('/a/:b?/:c?') into the concrete Fastify paths. */
export function expandPath(pattern: string): string[] {
  const parts = pattern.split('/').filter(Boolean);
  const firstOptional = parts.findIndex((p) => p.endsWith('?'));
  if (firstOptional === -1) return [`/${parts.join('/')}`];
  const out: string[] = [];
  for (let n = firstOptional; n <= parts.length; n++) {
    out.push(`/${parts.slice(0, n).map((p) => p.replace(/\?$/, '')).join('/')}`);
  }
  return out.map((p) => (p === '' ? '/' : p));
}

const PageSchema = Type.Object(
  {
    template: Type.Object({ name: Type.String() }, { additionalProperties: true }),
    title: Type.String(),
    bodyClass: Type.String(),
    url: Type.String(),
    relative_path: Type.String(),
    loggedIn: Type.Boolean(),
  },
  { additionalProperties: true },
);
/**
 * A page path's own parameters ('/topic/:tid/:slug' → tid, slug), so the OpenAPI document
 * names them (a Record schema would show up as parameters called "type" and
 * "additionalProperties"). Loaders check ids themselves (a bad one is a 404 page, not a 400).
 */
function pageParams(path: string) {
  const names = path.split('/').filter((p) => p.startsWith(':')).map((p) => p.slice(1));
  return Type.Object(Object.fromEntries(names.map((n) => [n, Type.String({ maxLength: 500 })])));
}
/**
 * Any query parameters; the loaders read the ones they know. A repeated parameter (NodeBB's
 * `categories[]=1&categories[]=2`) reaches them as one comma-separated string.
 */
const QuerySchema = Type.Object({}, { additionalProperties: Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 100 })]) });

function flatQuery(query: unknown): Record<string, string> {
  const q = query as Record<string, string | string[]>;
  let flat: Record<string, string> | null = null;
  for (const [k, v] of Object.entries(q)) {
    if (!Array.isArray(v)) continue;
    flat ??= { ...(q as Record<string, string>) };
    flat[k] = v.join(',');
  }
  return flat ?? (q as Record<string, string>);
}

function bodyClassFor(template: string, url: string): string {
  const segments = url.split('?')[0]!.split('/').filter(Boolean).slice(0, 3);
  return [`page-${template.replace(/\//g, '-')}`, ...segments.map((s, i) => `page-${segments.slice(0, i + 1).join('-')}`.replace(/[^\w-]/g, ''))]
    .filter((v, i, a) => a.indexOf(v) === i)
    .join(' ');
}

/** NodeBB's logged-in user for a visitor (its render step sends this, never null). */
const GUEST_USER: GuestUser = Object.freeze({
  uid: 0,
  username: '[[global:guest]]',
  displayname: '[[global:guest]]',
  userslug: '',
  picture: '',
  'icon:text': '?',
  'icon:bgColor': '#aaa',
  status: 'offline',
  isAdmin: false,
  isGlobalMod: false,
});

/** The meta tags without those a later tag of the same name or property replaces, in order. */
function laterWins(tags: Attributes[]): Attributes[] {
  const names = new Set<string>();
  const properties = new Set<string>();
  const kept: Attributes[] = [];
  for (let i = tags.length - 1; i >= 0; i--) {
    const m = tags[i]!;
    if (!(m.name && names.has(m.name)) && !(m.property && properties.has(m.property))) kept.push(m);
    if (m.name) names.add(m.name);
    if (m.property) properties.add(m.property);
  }
  return kept.reverse();
}

/**
 * Members' `loggedInUser`, by settings load and member row (both replaced on any change, and
 * every few seconds: see AuthService.resolveSessionWithUser) and roles: frozen, so a member's
 * pages share one, its JSON is encoded once (page-json.ts) and its settings parsed once.
 */
const loggedInUsers = new WeakMap<object, WeakMap<object, Map<string, LoggedInUser>>>();

async function loggedInUserOf(ctx: AppContext, viewer: Viewer, row: UserRow): Promise<LoggedInUser> {
  const settings = await ctx.settings.get();
  let byRow = loggedInUsers.get(settings);
  if (!byRow) loggedInUsers.set(settings, (byRow = new WeakMap()));
  let byRoles = byRow.get(row);
  if (!byRoles) byRow.set(row, (byRoles = new Map()));
  const roles = `${viewer.isAdmin ? 1 : 0}${viewer.isGlobalMod ? 1 : 0}`;
  let user = byRoles.get(roles);
  if (!user) {
    const presented = presentLoggedIn(row, viewer.isAdmin, viewer.isGlobalMod);
    // Sizes the member never chose follow the forum's settings, not the presenter's defaults.
    user = Object.freeze({ ...presented, settings: Object.freeze({ ...presented.settings, ...(await pageSizes(ctx, viewer)) }) });
    byRoles.set(roles, user);
  }
  return user;
}

const NONE: never[] = Object.freeze([]) as never[];
/** Templates of pages only a member can see (their head asks search engines not to index them). */
const NOINDEX = ['notifications', 'chats', 'compose', 'flags', 'post-queue', 'unread'];

/** The page's `_header`: the forum's head tags with the loader's (`meta`, `link`). */
function headerOf(ctx: AppContext, settings: { description: string; siteTitle: string }, path: string, title: string, noindex: boolean, feedQuery: string, meta: Attributes[], link: Attributes[]): PageBase['_header'] {
  const canonical = `${ctx.config.url}${path}`;
  const metaTags: Attributes[] = [
    { name: 'description', content: settings.description },
    { property: 'og:site_name', content: settings.siteTitle },
    { property: 'og:title', content: title },
    { property: 'og:url', content: canonical },
    { property: 'og:type', content: 'website' },
    { name: 'twitter:card', content: 'summary' },
    { name: 'twitter:title', content: title },
    ...(noindex ? [{ name: 'robots', content: 'noindex' }] : []),
    ...meta,
  ];
  // A loader's own canonical link replaces the default one.
  const linkTags: Attributes[] = [
    ...(link.some((l) => l.rel === 'canonical') ? [] : [{ rel: 'canonical', href: canonical }]),
    { rel: 'alternate', type: 'application/rss+xml', href: `${ctx.config.url}/recent.rss` },
    ...link,
  ].map((l) => (l.type === 'application/rss+xml' && feedQuery ? withFields(l, { href: `${l.href}${feedQuery}` }) : l));
  // A later tag with the same name/property replaces the default.
  return { tags: { meta: laterWins(metaTags), link: linkTags } };
}

/**
 * Heads by settings load, the loader's frozen meta and link lists, and the page's path, title,
 * indexing and feed query: a member's topic page made and encoded its ten head tags anew on
 * every request.
 */
const headers = new SharedValues<PageBase['_header']>(3);

/** The page's `template` field, one frozen object per template. */
const templates = new Map<string, PageBase['template']>();
function templateOf(name: string): PageBase['template'] {
  let template = templates.get(name);
  if (!template) templates.set(name, (template = Object.freeze({ name, [name]: true }) as PageBase['template']));
  return template;
}

/** Breadcrumbs with their texts in the forum's language; a loader's frozen list translated once. */
const translatedCrumbs = new SharedValues<Breadcrumb[]>(1);
function translateCrumbs(breadcrumbs: readonly Breadcrumb[], lang: string): Breadcrumb[] {
  return breadcrumbs.map((b) => withFields(b, { text: translateText(b.text, lang) }));
}

/** Builds the full page data from a loader's content: template, header tags, viewer, widgets; its texts in `lang` (default: the forum's language). */
export async function buildPage(ctx: AppContext, viewer: Viewer, template: string, url: string, content: PageContent<PageBase>, html = false, lang?: string): Promise<PageBase> {
  const settings = await ctx.settings.get();
  lang ??= forumLanguage(settings);
  const { meta = NONE, bodyClass, breadcrumbs = NONE, template: tpl } = content;
  // The head's links: `headLink` where the page's own data has a `link` field (a category's), else `link`.
  const ownLink = typeof content.link === 'string';
  const link = content.headLink ?? (ownLink ? NONE : (content.link as Attributes[] | undefined) ?? NONE);
  const name = tpl ?? template;
  let loggedInUser: LoggedInUser | GuestUser = GUEST_USER;
  let unreadChatCount: number | undefined;
  if (viewer.uid > 0) {
    // The chat badge's count comes with the HTML page, so its first render (SSR too) is right;
    // page data over /api (in-page navigation) leaves it out, as NodeBB's does: the client
    // keeps the count its socket updates.
    const [row, chats] = await Promise.all([ctx.users.ofViewer(viewer), html ? ctx.chats.unreadCount(viewer) : undefined]);
    unreadChatCount = chats;
    if (row) loggedInUser = await loggedInUserOf(ctx, viewer, row);
  }
  const title = translateText(content.title || settings.siteTitle, lang);
  // Pages only a member can see never belong in a search engine.
  const noindex = viewer.uid > 0 && NOINDEX.some((p) => name === p || name.startsWith(`${p}/`));
  // A member's feed links carry their feed token: the reader sees what the member may read.
  const feedQuery = viewer.uid > 0 ? `?uid=${viewer.uid}&token=${ctx.feeds.tokenFor(viewer.uid)}` : '';
  const path = url.split('?')[0]!;
  // The head's tags, shared by every request alike when the loader's own are (frozen: see SharedValues).
  const makeHeader = () => headerOf(ctx, settings, path, title, noindex, feedQuery, meta, link);
  const header = Object.isFrozen(meta) && Object.isFrozen(link) ? headers.of([settings, meta, link], `${path}\u0001${title}\u0001${noindex ? 1 : 0}\u0001${feedQuery}`, makeHeader) : makeHeader();
  // The loader's fields, then the router's, in the order `{ ...rest, template, title, … }` gave
  // them (see objects.ts: that spread was the page's dearest line).
  const page = copyWithout(content, ownLink ? LOADER_ONLY_KEEP_LINK : LOADER_ONLY);
  carryBeginning(content, page);
  page.template = templateOf(name);
  page.title = title;
  page.bodyClass = bodyClass ?? bodyClassFor(name, url);
  page.breadcrumbs = Object.isFrozen(breadcrumbs) ? translatedCrumbs.of([breadcrumbs], lang, () => translateCrumbs(breadcrumbs, lang)) : translateCrumbs(breadcrumbs, lang);
  // Rendered and cached per template, group set and language by the widgets domain; none on admin pages.
  page.widgets = await widgetsOf(ctx).render(viewer, name, lang);
  page._header = header;
  page.url = `${ctx.config.relativePath}${url}`;
  page.relative_path = ctx.config.relativePath;
  page.loggedIn = viewer.uid > 0;
  page.loggedInUser = loggedInUser;
  if (unreadChatCount !== undefined) page.unreadChatCount = unreadChatCount;
  return page as unknown as PageBase;
}

/** What a loader gives the router for the page, not the page data itself. */
const LOADER_ONLY = new Set(['meta', 'link', 'headLink', 'bodyClass', 'breadcrumbs', 'template']);
/** The same for a page whose data has its own `link` (a string: NodeBB's category field). */
const LOADER_ONLY_KEEP_LINK = new Set(['meta', 'headLink', 'bodyClass', 'breadcrumbs', 'template']);

/** The page data of an error page (400, 401, 403, 404, 500). */
export async function errorPage(ctx: AppContext, viewer: Viewer, status: number, url: string, key?: string, params: (string | number)[] = [], lang?: string): Promise<PageBase> {
  const s = await ctx.settings.get();
  lang ??= forumLanguage(s);
  // The maintenance page carries the admin's own words, when they wrote some.
  const message = key === 'error:maintenance-mode' && s.maintenanceModeMessage.trim() ? s.maintenanceModeMessage : undefined;
  const template = status === 401 ? '403' : String([400, 403, 404, 503].includes(status) ? status : 500);
  const error = key ? translate(key, params, lang) : translate(`pages:${template}.title`, [], lang);
  const heading = translate(`pages:${template}.title`, [], lang);
  return buildPage(ctx, viewer, template, url, {
    title: heading === `pages:${template}.title` ? `${status}` : heading,
    path: url,
    error,
    status,
    ...(message ? { message } : {}),
    meta: [{ name: 'robots', content: 'noindex' }],
  } as PageContent<PageBase>, false, lang);
}

function forumPath(ctx: AppContext, req: FastifyRequest, api: boolean): string {
  const raw = req.url.slice(ctx.config.relativePath.length);
  return api ? raw.replace(/^\/api/, '') || '/' : raw || '/';
}

/**
 * A cached guest answer: the JSON's bytes, or the document's bytes around the client
 * config (kept encoded, so a hit writes bytes instead of encoding a 20–50 KB string per request).
 */
type Cached = ({ json: Buffer } | { before: Buffer; after: Buffer }) & { tags: readonly Tag[]; bytes: number };

/**
 * What every guest page is built from besides its own content: who may read what, the forum's
 * settings and widgets, and the category tree its menus show. A change of any drops every page.
 */
const GUEST_PAGE_BASE: readonly Tag[] = [PRIVILEGES, SETTINGS, WIDGETS, CATEGORIES, GROUPS];
/** The tags of a guest page whose loader named none: any change of content drops it. */
const ANY_CONTENT: readonly Tag[] = [CONTENT];

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

/** Sends page data (JSON) or its HTML document; a guest's successful page is kept in the cache. */
async function respond(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, api: boolean, status: number, page: PageBase, cache?: { store: Cache<string, Cached>; key: string; tags: readonly Tag[] }) {
  reply.code(status).header('cache-control', 'private, no-store');
  // Sent as pieces of bytes (http/send.ts), the shared parts' encoded once: a string would be
  // measured (Buffer.byteLength, a full scan of a 20–70 KB string) and then encoded again as it
  // is written; the page's response schema (fast-json-stringify over additional properties) is
  // skipped for the same JSON.
  if (api) {
    const json = pageJsonPieces(page);
    if (!cache) return sendPieces(reply, JSON_TYPE, json);
    // Joined once for the cache: a hit is then one write.
    const bytes = Buffer.concat(json);
    cache.store.set(cache.key, { json: bytes, tags: cache.tags, bytes: bytes.length });
    return sendPieces(reply, JSON_TYPE, [bytes]);
  }
  const config = await clientConfig(ctx, req, reply);
  if (!cache) return sendPieces(reply, HTML_TYPE, renderDocument({ page, config, status }));
  const parts = renderDocumentParts({ page, config, status });
  const before = documentBytes(parts.before);
  const after = Buffer.from(parts.after);
  cache.store.set(cache.key, { before, after, tags: cache.tags, bytes: before.length + after.length });
  return sendPieces(reply, HTML_TYPE, [before, scriptJson(config), after]);
}

const CSRF_MARK = '\u0000csrf\u0000';
/** A guest's client config as its two encoded halves around the CSRF token, per settings object and browser kind. */
const guestConfigs = new WeakMap<object, Map<string, [Buffer, Buffer]>>();

/**
 * A guest's client config, as pieces: every guest's is the same but for the CSRF token (and
 * the two user-agent flags), so it is built and encoded once per settings load (the settings
 * object is replaced on every change and every TTL) instead of once per request.
 */
async function guestConfigPieces(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<BodyPiece[]> {
  const settings = await ctx.settings.get();
  const ua = userAgentFlags(req.headers['user-agent'] ?? '');
  const kind = `${ua.isSafari ? 1 : 0}${ua.isMobile ? 1 : 0}${guestLanguage(req, settings)}`;
  let byKind = guestConfigs.get(settings);
  if (!byKind) guestConfigs.set(settings, (byKind = new Map()));
  let halves = byKind.get(kind);
  const token = csrfToken(ctx, req, reply);
  if (!halves) {
    const json = scriptJson({ ...(await clientConfig(ctx, req, reply)), csrf_token: CSRF_MARK });
    const mark = JSON.stringify(CSRF_MARK).slice(1, -1);
    const at = json.indexOf(mark);
    halves = [Buffer.from(json.slice(0, at)), Buffer.from(json.slice(at + mark.length))];
    byKind.set(kind, halves);
  }
  return [halves[0], token, halves[1]];
}

/** Answers a guest from the cache. */
async function fromCache(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, hit: Cached) {
  reply.code(200).header('cache-control', 'private, no-store').header('x-palaver-cache', 'hit');
  if ('json' in hit) return sendPieces(reply, JSON_TYPE, [hit.json]);
  // Only the config differs between guests (each has their own CSRF token).
  return sendPieces(reply, HTML_TYPE, [hit.before, ...(await guestConfigPieces(ctx, req, reply)), hit.after]);
}

/** How much of guests' pages the cache holds at most (a crawler walking thousands of pages evicts the oldest). */
const GUEST_CACHE_BYTES = 32 * 1024 * 1024;

/** Registers each page twice: GET /api<path> (page data) and GET <path> (HTML). */
export function registerPages(app: FastifyInstance, ctx: AppContext, pages: PageDef<any>[]): void {
  // Every guest sees the same page for a path: a busy page is built once per interval
  // (guestCacheMs, the staleness bound for guests) instead of once per request, and dropped at
  // once, in every process, by a change of what it was built from.
  const guestEnabled = ctx.config.guestCacheMs > 0;
  const guestCache = ctx.cacheRegistry.create<string, Cached>({
    name: 'guest-pages',
    keeps: "the answer a guest gets for a page (its JSON, or its HTML around the client config), per path",
    droppedBy: 'a change of what the page names (a topic page: its topic and category; others: any content), privileges, settings, widgets, the category tree or groups',
    ttlMs: ctx.config.guestCacheMs,
    max: 10_000,
    maxBytes: GUEST_CACHE_BYTES,
    sizeOf: (e) => e.bytes,
    tags: (_key, e) => e.tags,
  });
  for (const def of pages) {
    for (const path of expandPath(def.path)) {
      for (const api of [true, false]) {
        app.get(api ? `/api${path === '/' ? '' : path}` : path, {
          schema: {
            params: pageParams(path),
            querystring: QuerySchema,
            response: api ? { 200: PageSchema, '4xx': PageSchema, '5xx': PageSchema } : { 200: Type.String(), '4xx': Type.String(), '5xx': Type.String() },
            tags: ['pages'],
          },
          config: { page: true },
          handler: async (req, reply) => {
            const url = forumPath(ctx, req, api);
            // The page in the reader's language (a guest's: their cookie, else Accept-Language).
            const lang = requestLanguage(req, await ctx.settings.get());
            const cacheKey = req.viewer.uid <= 0 && guestEnabled ? `${api ? 'api' : 'html'}:${lang}:${url}` : null;
            if (cacheKey) {
              const hit = guestCache.peek(cacheKey);
              if (hit) {
                def.onCacheHit?.({ ctx, viewer: req.viewer, params: req.params as Record<string, string>, query: flatQuery(req.query), url, api, visitor: visitorOf(req) });
                return fromCache(ctx, req, reply, hit);
              }
            }
            if ((def.requireLogin || def.access) && req.viewer.uid <= 0) {
              return respond(ctx, req, reply, api, 401, await errorPage(ctx, req.viewer, 401, url, 'error:not-logged-in', [], lang));
            }
            if (def.access && !req.viewer.isAdmin && !(def.access === 'moderator' && req.viewer.isGlobalMod)) {
              return respond(ctx, req, reply, api, 403, await errorPage(ctx, req.viewer, 403, url, 'error:no-privileges', [], lang));
            }
            let named: Tag[] | null = null;
            const result = await def.load({
              ctx,
              viewer: req.viewer,
              params: req.params as Record<string, string>,
              query: flatQuery(req.query),
              url,
              api,
              sessionHash: req.sessionHash,
              lang,
              visitor: visitorOf(req),
              depends: cacheKey ? (...tags: Tag[]) => void (named ??= []).push(...tags) : undefined,
            });
            if ('redirect' in result) {
              const target = /^https?:\/\//.test(result.redirect) ? result.redirect : `${ctx.config.relativePath}${result.redirect}`;
              if (api) return reply.code(200).header('x-redirect', encodeURI(target)).send(JSON.stringify(target));
              return reply.redirect(encodeURI(target), result.permanent ? 308 : 302);
            }
            const page = await buildPage(ctx, req.viewer, def.template, url, result as PageContent<PageBase>, !api, lang);
            return respond(ctx, req, reply, api, 200, page, cacheKey ? { store: guestCache, key: cacheKey, tags: [...GUEST_PAGE_BASE, ...(named ?? ANY_CONTENT)] } : undefined);
          },
        });
      }
    }
  }
}

/** Answers an error on a page route as an error page (JSON for /api, HTML otherwise). */
export async function sendPageError(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, err: AppError) {
  const api = req.url.slice(ctx.config.relativePath.length).startsWith('/api/');
  const url = forumPath(ctx, req, api);
  return respond(ctx, req, reply, api, err.status, await errorPage(ctx, req.viewer, err.status, url, err.key, err.params, requestLanguage(req, await ctx.settings.get())));
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A page route: errors render as error pages. */
    page?: boolean;
  }
}
