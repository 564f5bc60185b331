import { DAY_MS } from '../../../shared/constants.js';
import type { DbSearchPage, SearchPage } from '../../../shared/types.js';
import { forbidden } from '../../http/errors.js';
import { definePage } from '../../http/pages.js';
import { pagination } from '../../http/pagination.js';
import { presentUser } from '../users/presenter.js';
import { checkContentSearch, listParam, type ContentResults } from './service.js';

const USERS_PER_PAGE = 20;

/**
 * /search: NodeBB's search page. Every filter lives in the query string, so a search can be
 * shared and the back button returns to it; without a term it is the empty form.
 */
const searchPage = definePage<SearchPage>({
  path: '/search',
  template: 'search',
  async load({ ctx, viewer, query }) {
    const started = performance.now();
    const s = await ctx.settings.get();
    const search = checkContentSearch(query, { in: s.searchDefaultIn, sortBy: s.searchDefaultSortBy });
    const target = query.in || s.searchDefaultIn;
    const term = query.term ?? '';
    const [canUsers, canContent, canTags, categories] = await Promise.all([
      ctx.privileges.can(viewer, 'search:users'),
      ctx.privileges.can(viewer, 'search:content'),
      ctx.privileges.can(viewer, 'search:tags'),
      ctx.search.categoryChoices(viewer),
    ]);
    let results: ContentResults = { posts: [], matchCount: 0, pageCount: 0, users: [] };
    let users: SearchPage['users'] = [];
    let tags: SearchPage['tags'] = [];
    let cats: SearchPage['categories'] = [];
    let matchCount = 0;
    let pageCount = 0;
    if (target === 'users') {
      const uids = await ctx.search.users(viewer, term, USERS_PER_PAGE);
      const rows = await ctx.users.getMany(uids);
      users = uids.flatMap((u) => (rows.get(u) ? [presentUser(rows.get(u))] : []));
      matchCount = users.length;
    } else if (target === 'tags') {
      tags = await ctx.search.tags(viewer, term);
      matchCount = tags.length;
    } else if (target === 'categories') {
      cats = term.trim()
        ? (await ctx.search.categories(viewer, term)).map((c) => ({ cid: c.cid, name: c.name, slug: `${c.cid}/${c.slug}`, icon: c.icon, bgColor: c.bg_color, color: c.color, description: c.description }))
        : [];
      matchCount = cats.length;
    } else {
      results = await ctx.search.content(viewer, search);
      matchCount = results.matchCount;
      pageCount = results.pageCount;
    }
    const selectedUsers = search.byNames.length ? await Promise.all(results.users.map((u) => ctx.users.get(u.uid))) : [];
    const filters: SearchPage['filters'] = {};
    for (const key of ['in', 'matchWords', 'replies', 'repliesFilter', 'timeFilter', 'timeRange', 'sortBy', 'sortDirection', 'showAs', 'searchChildren'] as const) {
      if (query[key]) filters[key] = query[key]!;
    }
    if (query.by) filters.by = listParam(query.by);
    if (query.categories) filters.categories = listParam(query.categories);
    if (query.hasTags) filters.hasTags = listParam(query.hasTags);
    const advanced = Object.keys(filters).some((k) => k !== 'in');
    return {
      title: term ? `[[global:search]]: ${term.replace(/[[\],]/g, '').slice(0, 100)}` : '[[global:search]]',
      breadcrumbs: [{ text: '[[global:search]]' }],
      posts: results.posts,
      users,
      tags,
      categories: cats,
      matchCount,
      pageCount,
      time: ((performance.now() - started) / 1000).toFixed(2),
      multiplePages: pageCount > 1,
      search_query: term,
      showAsPosts: !search.byTopic,
      showAsTopics: search.byTopic,
      filters,
      userFilterSelected: selectedUsers.flatMap((r) => {
        if (!r) return [];
        const u = presentUser(r);
        return [{ uid: u.uid, username: u.username, displayname: u.displayname, userslug: u.userslug, picture: u.picture || null, 'icon:text': u['icon:text'], 'icon:bgColor': u['icon:bgColor'] }];
      }),
      tagFilterSelected: search.tags.map((t) => ({ value: t, valueEscaped: t.replace(/[&<>"']/g, ''), valueEncoded: encodeURIComponent(t), class: t.replace(/\s/g, '-') })),
      allCategories: categories,
      searchDefaultSortBy: s.searchDefaultSortBy,
      searchDefaultIn: s.searchDefaultIn,
      expandSearch: advanced,
      privileges: { 'search:users': canUsers, 'search:content': canContent, 'search:tags': canTags },
      pagination: pagination(search.page, Math.max(1, pageCount), query),
    };
  },
});

/**
 * The admin's search page (NodeBB's dbsearch plugin page): the index's size, how it finds,
 * searches per day, the search settings and a rebuild button. Admins only; the admin shell
 * (issue 16) will frame it.
 */
const dbsearchPage = definePage<DbSearchPage>({
  path: '/admin/plugins/dbsearch',
  template: 'admin/plugins/dbsearch',
  access: 'admin',
  async load({ ctx, viewer }) {
    if (!viewer.isAdmin) throw forbidden();
    const s = await ctx.settings.get();
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const [stats, perDay] = await Promise.all([ctx.search.stats(), ctx.search.perDay(today - 29 * DAY_MS)]);
    return {
      title: '[[search:dbsearch.title]]',
      breadcrumbs: [{ text: '[[search:dbsearch.title]]' }],
      dialect: ctx.dialect,
      documents: stats.documents,
      posts: stats.posts,
      searchesPerDay: perDay,
      searchDefaultIn: s.searchDefaultIn,
      searchDefaultInQuick: s.searchDefaultInQuick,
      searchDefaultSortBy: s.searchDefaultSortBy,
      meta: [{ name: 'robots', content: 'noindex' }],
    };
  },
});

/** Search pages. */
export const searchPages = [searchPage, dbsearchPage];
