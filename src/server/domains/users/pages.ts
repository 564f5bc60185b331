import type { Attributes, AuthPage, PageBase, UserProfilePage, UsersPage } from '../../../shared/types.js';
import { definePage, type PageContent, type PageRequest } from '../../http/pages.js';
import { forbidden, notFound } from '../../http/errors.js';
import { pagination, pageNumber } from '../../http/pagination.js';
import { presentUser } from './presenter.js';

const SECTIONS = {
  joindate: 'joindate',
  'sort-posts': 'postcount',
  'sort-reputation': 'reputation',
  online: 'lastonline',
} as const;

async function searchPage(ctx: PageRequest['ctx'], term: string, limit: number) {
  const uids = await ctx.users.searchUids(term, limit);
  const rows = await ctx.users.getMany(uids);
  const found = uids.flatMap((u) => (rows.get(u) ? [rows.get(u)!] : []));
  return { rows: found, count: found.length };
}

const usersPage = definePage<UsersPage>({
  path: '/users',
  template: 'users',
  async load({ ctx, viewer, query }) {
    await ctx.privileges.assert(viewer, 'view:users');
    const section = (query.section && Object.hasOwn(SECTIONS, query.section) ? query.section : 'joindate') as keyof typeof SECTIONS;
    const s = await ctx.settings.get();
    const page = pageNumber(query.page);
    // NodeBB's ?term= searches the directory by name (search:users), one page of matches.
    const term = (query.term ?? '').trim().slice(0, 100);
    if (term) await ctx.privileges.assert(viewer, 'search:users');
    const { rows, count } = term ? await searchPage(ctx, term, s.usersPerPage) : await ctx.users.list(SECTIONS[section], page, s.usersPerPage);
    const pageCount = Math.max(1, Math.ceil(count / s.usersPerPage));
    return {
      title: '[[pages:users/latest]]',
      breadcrumbs: [{ text: '[[global:users]]' }],
      users: rows.map((r) => ({ ...presentUser(r), joindate: r.joindate, joindateISO: new Date(r.joindate).toISOString() })),
      pagination: pagination(page, pageCount, query),
      section,
      userCount: count,
    };
  },
});

const profilePage = definePage<UserProfilePage>({
  path: '/user/:userslug',
  template: 'account/profile',
  async load({ ctx, viewer, params }) {
    await ctx.privileges.assert(viewer, 'view:users');
    const row = await ctx.users.bySlug(params.userslug!);
    if (!row) throw notFound('error:no-user');
    if (row.userslug !== params.userslug) return { redirect: `/user/${row.userslug}` };
    const groups = await ctx.groups.groupsOf(row.uid);
    const posts = await ctx.posts.recentByUser(viewer, row.uid, 10);
    const u = presentUser(row);
    return {
      ...u,
      title: row.username,
      breadcrumbs: [{ text: '[[global:users]]', url: '/users' }, { text: row.username }],
      about: row.about,
      aboutHTML: await ctx.users.aboutHtml(row),
      joindate: row.joindate,
      joindateISO: new Date(row.joindate).toISOString(),
      lastonline: row.lastonline,
      lastonlineISO: new Date(row.lastonline).toISOString(),
      topiccount: row.topiccount,
      isSelf: viewer.uid === row.uid,
      isFollowing: await ctx.users.isFollowing(viewer, row.uid),
      followerCount: row.follower_count,
      followingCount: row.following_count,
      isAdmin: groups.includes('administrators'),
      groups: groups.filter((g) => g !== 'registered-users').map((g) => ({ name: g, slug: g.toLowerCase().replace(/\s+/g, '-') })),
      posts,
      meta: [{ property: 'og:type', content: 'profile' }, { name: 'description', content: row.username }] as Attributes[],
    };
  },
});

async function authPage(ctx: Parameters<typeof usersPage.load>[0]['ctx'], title: string): Promise<PageContent<AuthPage>> {
  const s = await ctx.settings.get();
  return {
    title,
    allowRegistration: s.allowRegistration,
    minimumPasswordLength: s.minimumPasswordLength,
    minimumPasswordStrength: s.minimumPasswordStrength,
    minimumUsernameLength: s.minimumUsernameLength,
    maximumUsernameLength: s.maximumUsernameLength,
  };
}

const loginPage = definePage<AuthPage>({
  path: '/login',
  template: 'login',
  async load({ ctx, viewer }) {
    if (viewer.uid > 0) return { redirect: '/' };
    return { ...(await authPage(ctx, '[[global:login]]')), breadcrumbs: [{ text: '[[global:login]]' }] };
  },
});

const registerPage = definePage<AuthPage>({
  path: '/register',
  template: 'register',
  async load({ ctx, viewer }) {
    if (viewer.uid > 0) return { redirect: '/' };
    const content = await authPage(ctx, '[[global:register]]');
    if (!content.allowRegistration) throw forbidden('error:registration-disabled');
    return { ...content, breadcrumbs: [{ text: '[[global:register]]' }] };
  },
});

const resetPage = definePage<PageBase>({
  path: '/reset',
  template: 'reset',
  async load() {
    return { title: '[[reset_password:reset-password]]', breadcrumbs: [{ text: '[[reset_password:reset-password]]' }] } as PageContent<PageBase>;
  },
});

/** Member pages. */
export const userPages = [usersPage, profilePage, loginPage, registerPage, resetPage];
