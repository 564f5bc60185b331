import { DAY_MS } from '../../../shared/constants.js';
import { tagFilter } from '../../../shared/validation.js';
import type { Breadcrumb, TopicListPage } from '../../../shared/types.js';
import { deepFreeze } from '../../cache/page-cache.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import { definePage, type PageContent, type PageRequest } from '../../http/pages.js';
import { pageNumber, pageSizes, pagination } from '../../http/pagination.js';
import type { Viewer } from '../privileges/service.js';
import type { TopicListOptions } from './service.js';

const TERMS: Record<string, number> = { day: DAY_MS, week: 7 * DAY_MS, month: 30 * DAY_MS, alltime: 0 };

/** Topics per page: the member's own choice, else the forum's setting. */
export async function topicsPerPage(ctx: AppContext, viewer: Viewer): Promise<number> {
  return (await pageSizes(ctx, viewer)).topicsPerPage;
}

/** A list's breadcrumbs, one frozen list per title (the router translates a frozen list once: http/pages.ts). */
const crumbs = new Map<string, Breadcrumb[]>();
function crumbsOf(title: string): Breadcrumb[] {
  let list = crumbs.get(title);
  if (!list) crumbs.set(title, (list = deepFreeze([{ text: title }])));
  return list;
}

/** NodeBB's links of a list's filters and terms: the list's own path with the query, one parameter changed. */
function listUrl(route: string, query: Record<string, string>, name: string, value: string): string {
  const params = new URLSearchParams(query);
  params.delete('page');
  params.delete('_');
  if (value) params.set(name, value);
  else params.delete(name);
  const qs = params.toString();
  return `${route}${qs ? `?${qs}` : ''}`;
}

/** Loads one list page over every category the viewer may read; past the last page is a 404. */
async function listPage(
  { ctx, viewer, query }: PageRequest,
  sort: TopicListOptions['sort'],
  title: string,
  extra: { route: string; term?: string; unreadOnly?: boolean },
): Promise<PageContent<TopicListPage>> {
  const page = pageNumber(query.page);
  const perPage = await topicsPerPage(ctx, viewer);
  const readable = await ctx.categories.readableCids(viewer);
  // NodeBB's watch states: an ignored category's topics leave the recent, popular and top
  // lists; /unread holds only watched or tracked categories' topics, and followed topics.
  const states = await ctx.categories.watchStates(viewer, readable);
  const cids = extra.unreadOnly ? readable : readable.filter((cid) => states.get(cid) !== 'ignoring');
  const watchedCids = extra.unreadOnly ? readable.filter((cid) => ['watching', 'tracking'].includes(states.get(cid)!)) : undefined;
  const within = extra.term && TERMS[extra.term] ? TERMS[extra.term] : undefined;
  const tag = tagFilter(query.tag);
  const [{ topics, count }, creatable, s] = await Promise.all([
    ctx.topics.list(viewer, { cids, sort, page, perPage, within, unreadOnly: extra.unreadOnly, watchedCids, tag }),
    viewer.uid > 0 ? ctx.privileges.filterCids(viewer, 'topics:create', readable) : Promise.resolve([]),
    ctx.settings.get(),
  ]);
  const pageCount = Math.max(1, Math.ceil(count / perPage));
  if (page > pageCount) throw notFound();
  const { route } = extra;
  // Palaver's lists have one filter (all topics) and, for popular and top, NodeBB's terms.
  const filter = { name: '[[unread:all-topics]]', url: listUrl(route, query, 'filter', ''), selected: true, filter: '', icon: 'fa-book' };
  const terms = (extra.term ? Object.keys(TERMS) : ['alltime']).map((term) => ({
    name: `[[recent:${term}]]`,
    url: listUrl(route, query, 'term', term === 'alltime' ? '' : term),
    selected: term === (extra.term ?? 'alltime'),
    term,
  }));
  const privileged = viewer.isAdmin || viewer.isGlobalMod;
  const feedQuery = viewer.uid > 0 ? `?uid=${viewer.uid}&token=${ctx.feeds.tokenFor(viewer.uid)}` : '';
  const common = {
    title,
    breadcrumbs: crumbsOf(title),
    nextStart: page * perPage,
    topicCount: count,
    topics,
    canPost: creatable.length > 0,
    showSelect: privileged,
    showTopicTools: privileged,
    // No category filter on these lists: every readable category.
    allCategoriesUrl: listUrl(route, query, 'cid', ''),
    selectedCategory: null,
    selectedCids: [],
    selectedTag: tag ? { label: tag, value: tag } : null,
    selectedTags: tag ? [tag] : [],
    'reputation:disabled': 0,
    filters: [filter],
    selectedFilter: filter,
    pagination: pagination(page, pageCount, query),
  };
  if (extra.unreadOnly) {
    return {
      ...common,
      pageCount,
      selectCategoryLabel: '[[unread:mark-as-read]]',
      selectCategoryIcon: 'fa-inbox',
      showCategorySelectLabel: true,
    };
  }
  return {
    ...common,
    tids: topics.map((t) => t.tid),
    'feeds:disableRSS': s.disableRSSFeeds ? 1 : 0,
    rssFeedUrl: `${ctx.config.url}/${route}.rss${feedQuery}`,
    terms,
    selectedTerm: terms.find((t) => t.selected)!,
  };
}

/** The term of popular/top lists: day, week, month or alltime (anything else: the default). */
function termOf(query: Record<string, string>, fallback: string): string {
  return query.term && query.term in TERMS ? query.term : fallback;
}

const recentPage = definePage<TopicListPage>({
  path: '/recent',
  template: 'recent',
  load: (req) => listPage(req, 'recent', '[[pages:recent]]', { route: 'recent' }),
});

const popularPage = definePage<TopicListPage>({
  path: '/popular',
  template: 'popular',
  load: (req) => {
    const term = termOf(req.query, 'alltime');
    return listPage(req, 'popular', `[[pages:popular-${term}]]`, { route: 'popular', term });
  },
});

const topPage = definePage<TopicListPage>({
  path: '/top',
  template: 'top',
  load: (req) => {
    const term = termOf(req.query, 'alltime');
    return listPage(req, 'top', `[[pages:top-${term}]]`, { route: 'top', term });
  },
});

const unreadPage = definePage<TopicListPage>({
  path: '/unread',
  template: 'unread',
  requireLogin: true,
  load: (req) => listPage(req, 'recent', '[[pages:unread]]', { route: 'unread', unreadOnly: true }),
});

/** Recent, popular, top and unread lists. */
export const listPages = [recentPage, popularPage, topPage, unreadPage];
