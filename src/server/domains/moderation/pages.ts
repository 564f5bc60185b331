import type { AccountInfoPage, IpBlacklistPage } from '../../../shared/schemas/moderation.js';
import { notFound } from '../../http/errors.js';
import { definePage } from '../../http/pages.js';
import { presentUser } from '../users/presenter.js';

const infoPage = definePage<AccountInfoPage>({
  path: '/user/:userslug/info',
  template: 'account/info',
  requireLogin: true,
  async load({ ctx, viewer, params }) {
    await ctx.moderation.assertInfo(viewer);
    const row = await ctx.users.bySlug(params.userslug!);
    if (!row || row.deleted === 1) throw notFound('error:no-user');
    if (row.userslug !== params.userslug) return { redirect: `/user/${row.userslug}/info` };
    return {
      ...presentUser(row),
      title: '[[pages:account/info]]',
      breadcrumbs: [{ text: row.username, url: `/user/${row.userslug}` }, { text: '[[pages:account/info]]' }],
      ...(await ctx.moderation.info(viewer, row)),
    };
  },
});

const blacklistPage = definePage<IpBlacklistPage>({
  path: '/ip-blacklist',
  template: 'ip-blacklist',
  requireLogin: true,
  async load({ ctx, viewer }) {
    await ctx.moderation.assertBlacklistAdmin(viewer);
    const view = await ctx.moderation.blacklist.view();
    return { title: '[[pages:ip-blacklist]]', breadcrumbs: [{ text: '[[pages:ip-blacklist]]' }], ...view, canEdit: true };
  },
});

/** The moderation pages: a member's info page and the IP blacklist. */
export const moderationPages = [infoPage, blacklistPage];
