import type { AdminTagsPage } from '../../../shared/schemas/admin-people.js';
import { notFound } from '../../http/errors.js';
import { definePage, type PageDef } from '../../http/pages.js';
import { pageNumber, pagination } from '../../http/pagination.js';
import { adminTags } from './admin-tags.js';

const PER_PAGE = 100;

const tagsPage = definePage<AdminTagsPage>({
  path: '/admin/manage/tags',
  template: 'admin/manage/tags',
  // Global moderators too, as the admin navigation offers it to them.
  access: 'moderator',
  async load({ ctx, viewer, query }) {
    const q = (query.query ?? '').trim().slice(0, 100);
    const page = pageNumber(query.page);
    const { tags, count } = await adminTags(ctx, viewer, q, page, PER_PAGE);
    const pageCount = Math.max(1, Math.ceil(count / PER_PAGE));
    if (page > pageCount) throw notFound();
    return { title: '[[admin-people:tags.title]]', breadcrumbs: [{ text: '[[admin-people:tags.title]]' }], tags, query: q, tagCount: count, pagination: pagination(page, pageCount, query) };
  },
});

/** admin/manage/tags. */
export const adminTagPages: PageDef<any>[] = [tagsPage];
