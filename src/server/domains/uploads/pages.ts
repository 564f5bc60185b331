import type { UploadsPage } from '../../../shared/schemas/upload.js';
import { forbidden, notFound } from '../../http/errors.js';
import { definePage } from '../../http/pages.js';
import { pageNumber, pagination } from '../../http/pagination.js';
import { accountFields } from '../users/account-fields.js';

const PER_PAGE = 20;

const uploadsPage = definePage<UploadsPage>({
  path: '/user/:userslug/uploads',
  template: 'account/uploads',
  requireLogin: true,
  async load({ ctx, viewer, params, query }) {
    const row = await ctx.users.bySlug(params.userslug!);
    if (!row) throw notFound('error:no-user');
    // A member's files are theirs: only they (and admins) see the list, as NodeBB's account page.
    if (row.uid !== viewer.uid && !viewer.isAdmin) throw forbidden();
    if (row.userslug !== params.userslug) return { redirect: `/user/${row.userslug}/uploads` };
    const page = pageNumber(query.page);
    const { uploads, count } = await ctx.uploads.ofMember(row.uid, page, PER_PAGE);
    return {
      // NodeBB's UserObjectFull (users/account-fields.ts), then the page's own fields.
      ...(await accountFields(ctx, viewer, row)),
      title: '[[pages:account/uploads, ' + row.username + ']]',
      breadcrumbs: [{ text: row.username, url: `/user/${row.userslug}` }, { text: '[[user:uploads.title]]' }],
      uploads,
      uploadCount: count,
      privateUploads: false,
      isSelf: row.uid === viewer.uid,
      pagination: pagination(page, Math.max(1, Math.ceil(count / PER_PAGE)), query),
    };
  },
});

/** The account page listing a member's uploads. */
export const uploadPages = [uploadsPage];
