import type { ProfileThemePage } from '../../../shared/profile.js';
import { BOOTSWATCH_SKINS } from '../../../shared/skins.js';
import { forbidden, notFound } from '../../http/errors.js';
import { definePage } from '../../http/pages.js';
import { presentUser, userSettings } from './presenter.js';

/** /user/:userslug/theme: the member's skin (NodeBB's account/theme), for the member themself and admins. */
export const themePage = definePage<ProfileThemePage>({
  path: '/user/:userslug/theme',
  template: 'account/theme',
  requireLogin: true,
  async load({ ctx, viewer, params }) {
    const row = await ctx.users.bySlug(params.userslug!);
    if (!row || row.deleted === 1) throw notFound('error:no-user');
    const self = viewer.uid === row.uid;
    if (!self && !viewer.isAdmin) throw forbidden('error:no-privileges');
    if (row.userslug !== params.userslug) return { redirect: `/user/${row.userslug}/theme` };
    const skin = userSettings(row).bootswatchSkin;
    return {
      ...presentUser(row),
      title: '[[pages:account/theme, ' + row.username + ']]',
      breadcrumbs: [{ text: '[[global:users]]', url: '/users' }, { text: row.username, url: `/user/${row.userslug}` }, { text: '[[user:account.theme]]' }],
      isSelf: self,
      bootswatchSkinOptions: ['', ...BOOTSWATCH_SKINS].map((value) => ({ name: value ? value.charAt(0).toUpperCase() + value.slice(1) : '[[user:settings.skin-default]]', value, selected: value === skin })),
    };
  },
});
