import type { ProfileTopicsPage } from '../../../shared/profile.js';
import { notFound } from '../../http/errors.js';
import { definePage } from '../../http/pages.js';
import { pageNumber, pageSizes, pagination } from '../../http/pagination.js';
import { beginsWith } from '../../http/page-json.js';
import { withFields } from '../../http/objects.js';
import { listBase } from './list-pages.js';

/**
 * NodeBB's /user/{userslug}/shares: the topics a member shared (announced to the fediverse).
 * Palaver has no federation, so no member has shared any: the list is empty, with the profile's
 * list fields and who may see it as for the member's topics (anyone who may see members).
 */
const sharesPage = definePage<ProfileTopicsPage>({
  path: '/user/:userslug/shares',
  template: 'account/shares',
  async load({ ctx, viewer, params, query }) {
    const o = await listBase(ctx, viewer, params.userslug!, 'shares', 'public');
    if ('redirect' in o) return o;
    const page = pageNumber(query.page);
    if (page > 1) throw notFound();
    const perPage = (await pageSizes(ctx, viewer)).topicsPerPage;
    const fields = { breadcrumbs: o.crumbs, topics: [], nextStart: perPage, noItemsFoundKey: '[[user:has-no-shares]]', showSort: false, sortOptions: [], pagination: pagination(1, 1, query) };
    return beginsWith(withFields(o.base, fields), o.base);
  },
});

export const sharesPages = [sharesPage];
