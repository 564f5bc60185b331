import type { PageBase, Pagination } from '../../../shared/types.js';
import { definePage } from '../../http/pages.js';
import { pagination } from '../../http/pagination.js';
import { assertAdmin } from '../privileges/service.js';
import { tokenObject, type AdminTokenObject } from './admin.js';

/** NodeBB's /admin/manage/api: the master API tokens as TokenObjects (Settings > API access lists the same). */
export interface AdminManageApiPage extends PageBase {
  tokens: AdminTokenObject[];
  pagination: Pagination;
}

const manageApiPage = definePage<AdminManageApiPage>({
  path: '/admin/manage/api',
  template: 'admin/manage/api',
  access: 'admin',
  async load({ ctx, viewer, query, api }) {
    assertAdmin(viewer);
    // The HTML page is Settings > API access, where tokens are made and revoked.
    if (!api) return { redirect: '/admin/settings/api' };
    // Each token by its public id: the token itself is shown once, when made, and never stored.
    const tokens = (await ctx.auth.masterTokens()).map((r) => tokenObject(r, r.id));
    return {
      title: '[[admin-settings:page.api]]',
      breadcrumbs: [{ text: '[[admin:nav.settings]]' }, { text: '[[admin-settings:page.api]]' }],
      tokens,
      pagination: pagination(1, 1, query),
    };
  },
});

export const apiTokenPages = [manageApiPage];
