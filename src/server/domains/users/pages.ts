import type { Attributes, AuthPage, PageBase, UserProfilePage, UsersPage } from '../../../shared/types.js';
import { definePage, type PageContent, type PageRequest } from '../../http/pages.js';
import { notFound } from '../../http/errors.js';
import { pagination, pageNumber } from '../../http/pagination.js';
import { presentPosts } from '../posts/presenter.js';
import { escapeTitle } from '../topics/presenter.js';
import { postList } from './lists.js';
import { presentUser, userSettings } from './presenter.js';
import { editPage } from './edit-page.js';
import { themePage } from './theme-page.js';
import { profileListPages } from './list-pages.js';
import { ageOf, customFieldDefs, customFieldViews } from './profile.js';

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
      showInviteButton: await ctx.registration.canInvite(viewer),
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
    const [groups, posts, best, s, values] = await Promise.all([
      ctx.groups.groupsOf(row.uid),
      ctx.posts.recentByUser(viewer, row.uid, 10),
      bestPosts(ctx, viewer, row.uid),
      ctx.settings.get(),
      ctx.users.customValues(row.uid),
    ]);
    const u = presentUser(row);
    const self = viewer.uid === row.uid;
    // The full name shows only when the member chose to show it (NodeBB's showfullname), to themself and admins always.
    const fullname = self || viewer.isAdmin || userSettings(row).showfullname ? u.fullname : '';
    // The address likewise by showemail, and never to guests.
    const email = self || viewer.isAdmin || (viewer.uid > 0 && userSettings(row).showemail) ? (row.email ?? '') : '';
    return {
      ...u,
      fullname,
      displayname: u.displayname,
      website: row.website,
      location: row.location,
      birthday: row.birthday,
      age: ageOf(row.birthday),
      signature: s.disableSignatures ? '' : row.signature,
      signatureHTML: ctx.users.signatureHtml(row, s),
      'cover:url': row.cover_url,
      'cover:position': row.cover_position || '50% 50%',
      customUserFields: customFieldViews(customFieldDefs(s.customUserFields), values, viewer, self),
      bestPosts: best,
      canEdit: self || viewer.isAdmin,
      email,
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
      // The groups domain knows each group's slug and which ones are hidden from this viewer.
      ...(await ctx.groups.profile(viewer, row.uid).then((p) => ({ groups: p.groups, selectedGroups: p.badges }))),
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

const resetPage = definePage<PageBase>({
  path: '/reset',
  template: 'reset',
  async load() {
    return { title: '[[reset_password:reset-password]]', breadcrumbs: [{ text: '[[reset_password:reset-password]]' }] } as PageContent<PageBase>;
  },
});

/** A member's three most upvoted posts the viewer may read, for the profile. */
async function bestPosts(ctx: Parameters<typeof usersPage.load>[0]['ctx'], viewer: Parameters<typeof usersPage.load>[0]['viewer'], uid: number) {
  const { rows } = await postList(ctx.db, 'best', uid, await ctx.categories.readableCids(viewer), 0, 3);
  const views = await presentPosts(ctx, viewer, rows, { index: (p) => (p as (typeof rows)[number]).post_index, viewDeleted: () => false });
  return views.map((v, i) => ({ ...v, topic: { tid: rows[i]!.tid, title: escapeTitle(rows[i]!.topic_title), slug: `${rows[i]!.tid}/${rows[i]!.topic_slug}` } }));
}

/** Member pages. */
// The register page is the registration domain's (registration/pages.ts).
export const userPages = [usersPage, profilePage, loginPage, resetPage, editPage, themePage, ...profileListPages];
