import type { WebPushPage } from '../../../shared/schemas/push.js';
import { forbidden, notFound } from '../../http/errors.js';
import { definePage } from '../../http/pages.js';

const webPushPage = definePage<WebPushPage>({
  path: '/user/:userslug/web-push',
  template: 'account/web-push',
  requireLogin: true,
  async load({ ctx, viewer, params }) {
    const row = await ctx.users.bySlug(params.userslug!);
    if (!row) throw notFound('error:no-user');
    // A member's browsers are theirs: only they (and admins) see the list.
    if (row.uid !== viewer.uid && !viewer.isAdmin) throw forbidden();
    if (row.userslug !== params.userslug) return { redirect: `/user/${row.userslug}/web-push` };
    const [vapidKey, devices] = await Promise.all([ctx.push.publicKey(), ctx.push.devices(row.uid)]);
    return {
      title: '[[pages:account/web-push]]',
      breadcrumbs: [{ text: row.username, url: `/user/${row.userslug}` }, { text: '[[user:web-push.title]]' }],
      uid: row.uid,
      username: row.username,
      userslug: row.userslug,
      isSelf: row.uid === viewer.uid,
      vapidKey,
      devices,
    };
  },
});

/** The account page listing a member's browsers with push turned on. */
export const pushPages = [webPushPage];
