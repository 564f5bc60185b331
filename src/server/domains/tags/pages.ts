import type { TagPage, TagsPage } from '../../../shared/types.js';
import { cleanUpTag } from '../../../shared/validation.js';
import { notFound } from '../../http/errors.js';
import { definePage } from '../../http/pages.js';
import { pageNumber, pagination } from '../../http/pagination.js';
import { topicsPerPage } from '../topics/list-pages.js';
import { presentTopics } from '../topics/presenter.js';
import { tagObject } from './presenter.js';

const tagPage = definePage<TagPage>({
  path: '/tags/:tag',
  template: 'tag',
  async load({ ctx, viewer, params, query }) {
    await ctx.privileges.assert(viewer, 'view:tags');
    const tag = cleanUpTag(params.tag, Number.MAX_SAFE_INTEGER);
    if (!tag) throw notFound('error:no-tag');
    const page = pageNumber(query.page);
    const perPage = await topicsPerPage(ctx, viewer);
    const cids = await ctx.categories.readableCids(viewer);
    const { tids, count } = await ctx.tags.topicIds(tag, cids, page, perPage);
    const pageCount = Math.max(1, Math.ceil(count / perPage));
    if (page > pageCount) throw notFound();
    const rows = await ctx.topics.getMany(tids);
    const topics = await presentTopics(ctx, viewer, tids.map((t) => rows.get(t)!).filter(Boolean));
    return {
      title: `[[pages:tag, ${tag.replace(/[[\],]/g, '')}]]`,
      breadcrumbs: [{ text: '[[pages:tags]]', url: '/tags' }, { text: tag }],
      tag,
      isFollowing: await ctx.tags.isFollowing(viewer.uid, tag),
      topics,
      pagination: pagination(page, pageCount, query),
    };
  },
});

const tagsPage = definePage<TagsPage>({
  path: '/tags',
  template: 'tags',
  async load({ ctx, viewer, query }) {
    await ctx.privileges.assert(viewer, 'view:tags');
    // ?query= narrows the list to tags containing the text (the page's search box).
    const q = (query.query ?? '').trim().toLowerCase().slice(0, 100);
    const [tags, displayTagSearch] = await Promise.all([q ? ctx.tags.search(q, 100) : ctx.tags.top(100), ctx.privileges.can(viewer, 'search:tags')]);
    return {
      title: '[[pages:tags]]',
      breadcrumbs: [{ text: '[[pages:tags]]' }],
      // NodeBB's TagObject (Palaver's tags have no colours).
      tags: tags.map((t) => tagObject(t.value, t.score)),
      displayTagSearch,
      // The page shows the first 100 (as NodeBB's).
      nextStart: 100,
      ...(q ? { query: q } : {}),
    };
  },
});

/** Tag pages. */
export const tagPages = [tagPage, tagsPage];
