import type { Attributes, AuthPage, Breadcrumb, LoginPage, PageBase, UserProfilePage, UsersPage } from '../../../shared/types.js';
import { definePage, type PageContent, type PageRequest } from '../../http/pages.js';
import { notFound } from '../../http/errors.js';
import { pagination, pageNumber } from '../../http/pagination.js';
import { deepFreeze, SharedValues } from '../../cache/page-cache.js';
import { beginsWith } from '../../http/page-json.js';
import { withFields } from '../../http/objects.js';
import { idsOf, overlayProfile, profilePart, profilePostsPart } from './member-parts.js';
import { presentUser, userSettings } from './presenter.js';
import { editPage } from './edit-page.js';
import { themePage } from './theme-page.js';
import { profileListPages } from './list-pages.js';
import { ageOf, customFieldDefs, customFieldViews } from './profile.js';
import { accountFields } from './account-fields.js';

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

/** A member as the members list shows them. */
const listedUser = (r: Parameters<typeof presentUser>[0] & { joindate: number }) => ({ ...presentUser(r), joindate: r.joindate, joindateISO: new Date(r.joindate).toISOString() });

/** The members list's breadcrumbs (frozen: translated once, see http/pages.ts buildPage). */
const USERS_CRUMBS: Breadcrumb[] = deepFreeze([{ text: '[[global:users]]' }]);

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
    // A page of the directory is the same for every reader: made once, frozen, shared (see MemberParts).
    const { users, count } = term
      ? await searchPage(ctx, term, s.usersPerPage).then(({ rows, count }) => ({ users: rows.map(listedUser), count }))
      : await ctx.users.parts.directory.get(`${SECTIONS[section]}|${page}|${s.usersPerPage}`, async () => {
          const { rows, count } = await ctx.users.list(SECTIONS[section], page, s.usersPerPage);
          return { users: deepFreeze(rows.map(listedUser)), count };
        });
    const pageCount = Math.max(1, Math.ceil(count / s.usersPerPage));
    return {
      title: '[[pages:users/latest]]',
      breadcrumbs: USERS_CRUMBS,
      users: users as UsersPage['users'],
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
    // The member's row, groups, field values and about text, and their posts the reader may
    // read, are shared by every reader (member-parts.ts); the reader's votes, bookmarks and
    // follow are read in one statement.
    const row = await ctx.users.shownBySlug(params.userslug!);
    if (!row) throw notFound('error:no-user');
    if (row.userslug !== params.userslug) return { redirect: `/user/${row.userslug}` };
    const [part, cids, s] = await Promise.all([
      ctx.users.parts.profiles.get(String(row.uid), () => profilePart(ctx, row)),
      ctx.categories.readableCids(viewer),
      ctx.settings.get(),
    ]);
    const postsPart = await ctx.users.parts.profilePosts.get(`${row.uid}|${cids.join(',')}`, () => profilePostsPart(ctx, row.uid, cids));
    const [{ posts, best, isFollowing }, account] = await Promise.all([overlayProfile(ctx, viewer, row.uid, postsPart), accountFields(ctx, viewer, row)]);
    const self = viewer.uid === row.uid;
    // Readers alike (the same flags, the same versions of the posts) get the same frozen fields,
    // made once: the page's JSON then takes their text as made once (page-json.ts beginsWith).
    const flags = `${self ? 1 : 0}${viewer.isAdmin ? 1 : 0}${viewer.isGlobalMod ? 1 : 0}${viewer.uid > 0 ? 1 : 0}${isFollowing ? 1 : 0}`;
    const fields = profileFields.of([account, part, postsPart, s], `${flags}|${idsOf(posts)}|${idsOf(best)}`, () => {
      const u = presentUser(row);
      // The full name shows only when the member chose to show it (NodeBB's showfullname), to themself and admins always.
      const fullname = self || viewer.isAdmin || userSettings(row).showfullname ? u.fullname : '';
      // The address likewise by showemail, and never to guests.
      const email = self || viewer.isAdmin || viewer.isGlobalMod || (viewer.uid > 0 && userSettings(row).showemail) ? (row.email ?? '') : '';
      // The groups domain knows which ones are hidden from this viewer (the badges likewise).
      const groups = self || viewer.isAdmin ? part.groups.withHidden : part.groups.shown;
      return {
        // NodeBB's UserObjectFull (account-fields.ts), then the profile's own fields.
        ...account,
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
        customUserFields: customFieldViews(customFieldDefs(s.customUserFields), part.values as Map<string, string>, viewer, self),
        bestPosts: best,
        canEdit: self || viewer.isAdmin,
        email,
        title: row.username,
        about: row.about,
        aboutHTML: part.aboutHtml,
        joindate: row.joindate,
        joindateISO: new Date(row.joindate).toISOString(),
        lastonline: row.lastonline,
        lastonlineISO: new Date(row.lastonline).toISOString(),
        topiccount: row.topiccount,
        isSelf: self,
        isFollowing,
        followerCount: row.follower_count,
        followingCount: row.following_count,
        selectedGroups: groups.badges,
        posts,
      };
    });
    // The router's own (the head's tags, the breadcrumbs): the same for every reader of the member.
    const head = profileHeads.of([row], '', () => ({
      breadcrumbs: [{ text: '[[global:users]]', url: '/users' }, { text: row.username }],
      meta: [{ property: 'og:type', content: 'profile' }, { name: 'description', content: row.username }] as Attributes[],
    }));
    return beginsWith(withFields(fields, head), fields);
  },
});

/** A profile's fields as readers alike see them, by the member's account fields (account-fields.ts), profile part, posts part and the settings, then the reader's flags and versions of the posts. */
const profileFields = new SharedValues<Omit<PageContent<UserProfilePage>, 'breadcrumbs' | 'meta'>>(4);
/** A profile's breadcrumbs and head tags, by the member's row. */
const profileHeads = new SharedValues<{ breadcrumbs: Breadcrumb[]; meta: Attributes[] }>(1);

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

/** The rest of a shorthand's path ('/me/edit/password' → '/edit/password'), each part as given. */
const restOf = (params: Record<string, string>) => ['a', 'b', 'c'].map((k) => params[k]).filter(Boolean).map((p) => `/${encodeURIComponent(p!)}`).join('');

/** NodeBB's /me and /me/*: the viewer's own profile and its pages, without knowing their slug. */
const mePage = definePage<PageBase>({
  path: '/me/:a?/:b?/:c?',
  template: 'account/profile',
  requireLogin: true,
  async load({ ctx, viewer, params }) {
    const row = await ctx.users.get(viewer.uid);
    if (!row) throw notFound('error:no-user');
    return { redirect: `/user/${row.userslug}${restOf(params)}` };
  },
});

/** NodeBB's /uid/{uid}/*: a member's profile pages by uid. */
const uidPage = definePage<PageBase>({
  path: '/uid/:uid/:a?/:b?/:c?',
  template: 'account/profile',
  async load({ ctx, viewer, params }) {
    await ctx.privileges.assert(viewer, 'view:users');
    const uid = Number(params.uid);
    const row = Number.isInteger(uid) && uid > 0 ? await ctx.users.get(uid) : undefined;
    if (!row || row.deleted === 1) throw notFound('error:no-user');
    return { redirect: `/user/${row.userslug}${restOf(params)}` };
  },
});

/** NodeBB's /self: the viewer's own profile page data, at a path that needs no slug. */
const selfPage = definePage<UserProfilePage>({
  path: '/self',
  template: 'account/profile',
  requireLogin: true,
  async load(req) {
    const row = await req.ctx.users.get(req.viewer.uid);
    if (!row) throw notFound('error:no-user');
    return profilePage.load({ ...req, params: { userslug: row.userslug } });
  },
});

const loginPage = definePage<LoginPage>({
  path: '/login',
  template: 'login',
  async load({ ctx, viewer }) {
    if (viewer.uid > 0) return { redirect: '/' };
    const { title, allowRegistration } = await authPage(ctx, '[[global:login]]');
    // NodeBB's login page data (controllers.login) with Palaver's values: no login plugins or
    // federation, a name or an address logs in, local login and password resets always on.
    return {
      title,
      allowRegistration,
      breadcrumbs: [{ text: '[[global:login]]' }],
      loginFormEntry: [],
      alternate_logins: false,
      osw_logins: false,
      authentication: [],
      allowLoginWith: '[[login:username-email]]',
      allowPasswordReset: true,
      allowLocalLogin: true,
    };
  },
});

const resetPage = definePage<PageBase>({
  path: '/reset',
  template: 'reset',
  async load() {
    // NodeBB's first step: no code yet (`code` null; the mailed link opens /reset/{code}).
    return { code: null, title: '[[reset_password:reset-password]]', breadcrumbs: [{ text: '[[reset_password:reset-password]]' }] } as PageContent<PageBase>;
  },
});

/** Member pages. */
// The register page is the registration domain's (registration/pages.ts).
export const userPages = [usersPage, profilePage, mePage, uidPage, selfPage, loginPage, resetPage, editPage, themePage, ...profileListPages];
