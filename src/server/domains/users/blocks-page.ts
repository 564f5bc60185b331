import type { BlocksPage } from '../../../shared/schemas/account-data.js';
import { forbidden, notFound } from '../../http/errors.js';
import { definePage } from '../../http/pages.js';
import { pageNumber, pagination } from '../../http/pagination.js';
import { presentUserSlim } from './presenter.js';
import { accountFields } from './account-fields.js';

const PER_PAGE = 50;

const blocksPage = definePage<BlocksPage>({
  path: '/user/:userslug/blocks',
  template: 'account/blocks',
  requireLogin: true,
  async load({ ctx, viewer, params, query }) {
    const row = await ctx.users.bySlug(params.userslug!);
    if (!row) throw notFound('error:no-user');
    // Whom a member blocks is theirs alone (and the admins'), as NodeBB's account page.
    if (row.uid !== viewer.uid && !viewer.isAdmin) throw forbidden();
    if (row.userslug !== params.userslug) return { redirect: `/user/${row.userslug}/blocks` };
    const all = await ctx.users.blockedBy(row.uid);
    const page = pageNumber(query.page);
    const uids = all.slice((page - 1) * PER_PAGE, page * PER_PAGE);
    const members = await ctx.users.getMany(uids);
    return {
      // NodeBB's UserObjectFull (users/account-fields.ts), then the page's own fields.
      ...(await accountFields(ctx, viewer, row)),
      title: `[[pages:account/blocks, ${row.username}]]`,
      breadcrumbs: [{ text: row.username, url: `/user/${row.userslug}` }, { text: '[[user:blocks]]' }],
      users: uids.flatMap((uid) => (members.get(uid) ? [presentUserSlim(members.get(uid)!)] : [])),
      isSelf: row.uid === viewer.uid,
      pagination: pagination(page, Math.max(1, Math.ceil(all.length / PER_PAGE)), query),
    };
  },
});

/** The account page listing the members a member blocked. */
export const blockPages = [blocksPage];
