import type { Attributes, Breadcrumb, CategoriesPage, CategoryPage, CategoryPagePrivileges, CategoryView, ViewerPrivileges } from '../../../shared/types.js';
import { CATEGORIES as TREE, categoryTag } from '../../core/tags.js';
import { tagFilter } from '../../../shared/validation.js';
import { definePage, type PageDef, type PageRequest } from '../../http/pages.js';
import { notFound } from '../../http/errors.js';
import { pathId } from '../../http/input.js';
import { pagination, pageNumber, pageSizes } from '../../http/pagination.js';
import { copyWithout, withFields } from '../../http/objects.js';
import { beginsWith } from '../../http/page-json.js';
import { SharedValues } from '../../cache/page-cache.js';
import type { CategoryRow } from './store.js';
import { tagWhitelistOf } from './presenter.js';

const CATEGORIES = '[[pages:categories]]';

/** The category tree this viewer sees. */
async function categoriesOf({ ctx, viewer }: PageRequest) {
  return ctx.categories.tree(viewer);
}

const homePage = definePage<CategoriesPage>({
  path: '/',
  template: 'categories',
  async load(req) {
    const settings = await req.ctx.settings.get();
    return { categories: await categoriesOf(req), title: settings.siteTitle, breadcrumbs: [] };
  },
});

const categoriesPage = definePage<CategoriesPage>({
  path: '/categories',
  template: 'categories',
  async load(req) {
    return { categories: await categoriesOf(req), title: CATEGORIES, breadcrumbs: [{ text: CATEGORIES }] };
  },
});

/** Plain text for meta tags: markup stripped, whitespace folded, cut at a word. */
function plain(text: string, max = 200): string {
  const flat = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/[*_`#>[\]()!]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length <= max ? flat : `${flat.slice(0, max).replace(/\s+\S*$/, '')}…`;
}

function withQuery(path: string, query: Record<string, string>, changes: Record<string, string> = {}): string {
  const qs = new URLSearchParams({ ...query, ...changes }).toString();
  return qs ? `${path}?${qs}` : path;
}

const categoryPage = definePage<CategoryPage>({
  // NodeBB's /category/{cid}/{slug}/{topic_index}: the page holding the topic at that index
  // (from 1, in the category's order); ?page= wins over it.
  path: '/category/:cid/:slug?/:index?',
  template: 'category',
  async load({ ctx, viewer, params, query, api, depends }) {
    const cid = pathId(params.cid);
    if (cid === null) throw notFound('error:no-category');
    if (params.index !== undefined && !/^\d+$/.test(params.index)) throw notFound();
    const row = await ctx.categories.readable(viewer, cid);
    // A guest's copy drops with the category's topics and its subcategories (the tree's tag).
    depends?.(categoryTag(row.cid), TREE);
    // A link category is a signpost to somewhere else.
    if (row.link) return { redirect: row.link };
    const [, nameSlug] = row.slug.split('/');
    // Page data answers at any slug, as NodeBB's API does; the HTML goes to the canonical URL.
    if (!api && (params.cid !== String(row.cid) || params.slug !== nameSlug)) return { redirect: withQuery(`/category/${row.slug}${params.index ? `/${params.index}` : ''}`, query), permanent: true };
    const { topicsPerPage } = await pageSizes(ctx, viewer);
    // As NodeBB with pagination: the index picks the page and the page starts at its beginning (topicIndex 0).
    const index = params.index !== undefined ? Math.max(0, Number(params.index) - 1) : 0;
    const page = query.page !== undefined || params.index === undefined ? pageNumber(query.page) : Math.floor(index / topicsPerPage) + 1;
    const privileges = await ctx.privileges.forCategory(viewer, row.cid);
    const tag = tagFilter(query.tag);
    const list = privileges['topics:read'] ? await ctx.categories.topicPage(viewer, row.cid, page, tag) : { topics: [], pageCount: 1, perPage: topicsPerPage };
    // Past the end: NodeBB sends the reader to the last page rather than an empty one.
    if (page > list.pageCount) return { redirect: withQuery(`/category/${row.slug}`, query, { page: String(list.pageCount) }) };
    const view = await ctx.categories.view(viewer, row);
    const ancestors = await ctx.categories.ancestors(viewer, row);
    // What the page shows every reader of this view alike (see SharedValues): by the view, the
    // page and the ancestors this reader may see.
    const key = `${page}|${list.pageCount}|${JSON.stringify(ancestors.map((a) => [a.cid, a.slug, a.name]))}`;
    const { breadcrumbs, meta, link } = pageExtras.of([view], key, () => extrasOf(ctx, row, ancestors, page, list.pageCount));
    const watch = (await ctx.categories.watchStates(viewer, [row.cid])).get(row.cid);
    // One copy of the category's shared view with the reader's fields (http/objects.ts); the
    // page's JSON takes the view's fields' text as made once for every reader (page-json.ts).
    const own = viewFields.of([view], '', () => withFields(copyWithout(view, PAGE_ONLY) as Omit<CategoryView, 'posts'>, { tagWhitelist: tagWhitelistOf(row) }));
    const s = await ctx.settings.get();
    // NodeBB's "unread" of the category page: an unread topic among those shown.
    const unread = list.topics.some((t) => t.unread);
    return beginsWith(withFields(own, {
      unread,
      'unread-class': unread ? 'unread' : '',
      nextStart: page * list.perPage,
      isWatched: watch === 'watching',
      isTracked: watch === 'tracking',
      isNotWatched: watch === 'notwatching',
      isIgnored: watch === 'ignoring',
      // No federation: no followers elsewhere.
      hasFollowers: false,
      title: row.name,
      selectCategoryLabel: '[[category:subcategories]]',
      breadcrumbs,
      topics: list.topics,
      selectedTag: tag ? { label: tag, value: tag } : null,
      selectedTags: tag ? [tag] : [],
      privileges: pagePrivileges(privileges, row.cid),
      showSelect: privileges.editable,
      showTopicTools: privileges.editable,
      topicIndex: 0,
      rssFeedUrl: `${ctx.config.url}/category/${row.cid}.rss${viewer.uid > 0 ? `?uid=${viewer.uid}&token=${ctx.feeds.tokenFor(viewer.uid)}` : ''}`,
      'feeds:disableRSS': s.disableRSSFeeds ? 1 : 0,
      // Palaver has no switch for reputation: always on.
      'reputation:disabled': 0,
      // The category's order: pinned first, then by latest reply (NodeBB's recently_replied).
      sortOptionLabel: '[[topic:recently-replied]]',
      pagination: pagination(page, list.pageCount, query),
      meta,
      headLink: link,
    }), own);
  },
});

/**
 * The viewer's privileges as NodeBB's category page lists them (its own subset, with the
 * category); the topic tools' privileges are the topic page's. Without NodeBB's `uid` (the
 * reader's, in `loggedInUser` already): members who see a category alike share its rendered
 * frame (a documented field deviation).
 */
function pagePrivileges(p: ViewerPrivileges, cid: number): CategoryPagePrivileges {
  return {
    'topics:create': p['topics:create'],
    'topics:read': p['topics:read'],
    'topics:tag': p['topics:tag'],
    'topics:schedule': p['topics:schedule'],
    read: p.read,
    'posts:view_deleted': p.view_deleted,
    cid: String(cid),
    editable: p.editable,
    view_deleted: p.view_deleted,
    isAdminOrMod: p.isAdminOrMod,
  };
}

/**
 * The view's fields the page shows, by view, with its tag whitelist: without the teasers of the
 * categories list. Its `link` (NodeBB's field, '' here: a link category redirects above) stays;
 * the page's head links go as `headLink`. Frozen and shared, so the page begins with exactly these.
 */
const viewFields = new SharedValues<Omit<CategoryView, 'posts'> & { tagWhitelist: string[] }>(1);
/** The view's fields a category page leaves out: the teasers of the categories list. */
const PAGE_ONLY = new Set(['posts']);

/** A category page's breadcrumbs and head tags, by view, page and ancestors (see categoryPage). */
const pageExtras = new SharedValues<ReturnType<typeof extrasOf>>(1);

function extrasOf(ctx: PageRequest['ctx'], row: CategoryRow, ancestors: CategoryRow[], page: number, pageCount: number) {
  const breadcrumbs: Breadcrumb[] = [
    { text: CATEGORIES, url: '/categories' },
    ...ancestors.map((a) => ({ text: a.name, url: `/category/${a.slug}`, cid: a.cid })),
    { text: row.name, cid: row.cid },
  ];
  const { url, relativePath } = ctx.config;
  const parent = ancestors[ancestors.length - 1];
  const description = plain(row.description) || row.name;
  const meta: Attributes[] = [
    { name: 'title', content: row.name },
    { name: 'description', content: description },
    { property: 'og:title', content: row.name },
    { property: 'og:description', content: description },
    { property: 'og:type', content: 'website' },
  ];
  const link: Attributes[] = [
    { rel: 'alternate', type: 'application/rss+xml', href: `${url}/category/${row.cid}.rss` },
    { rel: 'up', href: parent ? `${url}/category/${parent.slug}` : `${url}/` },
  ];
  if (page > 1) link.push({ rel: 'prev', href: `${relativePath}/category/${row.slug}?page=${page - 1}` });
  if (page < pageCount) link.push({ rel: 'next', href: `${relativePath}/category/${row.slug}?page=${page + 1}` });
  return { breadcrumbs, meta, link };
}

/** Category pages: the home page, the categories list and one category's topics. */
export const categoryPages: PageDef<any>[] = [homePage, categoriesPage, categoryPage];
