import type { AdminUploadsPage } from '../../../shared/schemas/admin-people.js';
import { notFound } from '../../http/errors.js';
import { definePage, type PageDef } from '../../http/pages.js';
import { pageNumber, pagination } from '../../http/pagination.js';
import { adminUploads } from './admin-uploads.js';

const PER_PAGE = 50;

const uploadsPage = definePage<AdminUploadsPage>({
  path: '/admin/manage/uploads',
  template: 'admin/manage/uploads',
  access: 'admin',
  async load({ ctx, viewer, query }) {
    // Files are stored under content-hashed names, so there are no folders to browse: `dir` is always the root.
    const orphansOnly = query.orphans === '1' || query.orphans === 'true';
    const page = pageNumber(query.page);
    const { files, count } = await adminUploads(ctx, ctx.uploads, viewer, orphansOnly, page, PER_PAGE);
    const pageCount = Math.max(1, Math.ceil(count / PER_PAGE));
    if (page > pageCount) throw notFound();
    return {
      title: '[[admin-people:uploads.title]]',
      breadcrumbs: [{ text: '[[admin-people:uploads.title]]' }],
      currentFolder: '/',
      showPids: true,
      files,
      orphansOnly,
      pagination: pagination(page, pageCount, query),
    };
  },
});

/** admin/manage/uploads. */
export const adminUploadPages: PageDef<any>[] = [uploadsPage];
