import { ADMIN_USER_PAGE_SIZES, type AdminCustomFieldsPage, type AdminCustomReasonsPage, type AdminUsersPage } from '../../../shared/schemas/admin-people.js';
import { notFound } from '../../http/errors.js';
import { definePage, type PageDef } from '../../http/pages.js';
import { pageNumber, pagination } from '../../http/pagination.js';
import { adminUserList, customFieldsOf, readAdminUserQuery } from './admin-users.js';

const usersPage = definePage<AdminUsersPage>({
  path: '/admin/manage/users',
  template: 'admin/manage/users',
  access: 'moderator',
  async load({ ctx, viewer, query }) {
    const q = readAdminUserQuery(query);
    const asked = Number(query.resultsPerPage);
    const perPage = (ADMIN_USER_PAGE_SIZES as readonly number[]).includes(asked) ? asked : 50;
    const page = pageNumber(query.page);
    const { users, count } = await adminUserList(ctx, viewer, q, page, perPage);
    const pageCount = Math.max(1, Math.ceil(count / perPage));
    if (page > pageCount) throw notFound();
    const s = await ctx.settings.get();
    const groups = viewer.isAdmin ? (await ctx.groups.list(viewer, { sort: 'alpha', query: '', offset: 0, limit: 500 })).rows.filter((g) => !g.system || g.name === 'administrators' || g.name === 'Global Moderators') : [];
    return {
      title: '[[admin-people:users.title]]',
      breadcrumbs: [{ text: '[[admin-people:users.title]]' }],
      users,
      userCount: count,
      page,
      pageCount,
      resultsPerPage: perPage,
      sortBy: q.sortBy,
      reverse: q.reverse,
      query: q.query,
      searchBy: q.searchBy,
      filters: q.filters,
      banReasons: s.banReasons.split('\n').map((x) => x.trim()).filter(Boolean),
      groups: groups.map((g) => ({ name: g.name, slug: g.slug })),
      canBan: viewer.isAdmin || (await ctx.privileges.can(viewer, 'ban')),
      isAdmin: viewer.isAdmin,
      pagination: pagination(page, pageCount, query),
    };
  },
});

const customFieldsPage = definePage<AdminCustomFieldsPage>({
  path: '/admin/manage/users/custom-fields',
  template: 'admin/manage/users/custom-fields',
  access: 'admin',
  async load({ ctx }) {
    return {
      title: '[[admin-people:fields.title]]',
      breadcrumbs: [{ text: '[[admin-people:users.title]]', url: '/admin/manage/users' }, { text: '[[admin-people:fields.title]]' }],
      fields: customFieldsOf((await ctx.settings.get()).customUserFields),
    };
  },
});

const customReasonsPage = definePage<AdminCustomReasonsPage>({
  path: '/admin/manage/users/custom-reasons',
  template: 'admin/manage/users/custom-reasons',
  access: 'admin',
  async load({ ctx }) {
    const lines = (await ctx.settings.get()).banReasons.split('\n').map((x) => x.trim()).filter(Boolean);
    return {
      title: '[[admin-people:reasons.title]]',
      breadcrumbs: [{ text: '[[admin-people:users.title]]', url: '/admin/manage/users' }, { text: '[[admin-people:reasons.title]]' }],
      reasons: lines.map((title, i) => ({ key: String(i + 1), title, body: title, parsedBody: title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`), translatedType: '[[admin-people:reasons.type-ban]]' })),
    };
  },
});

/** The admin's member pages (admin/manage/users, its custom fields and ban reasons). */
export const adminUserPages: PageDef<any>[] = [usersPage, customFieldsPage, customReasonsPage];
