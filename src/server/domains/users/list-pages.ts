import type { FollowUser, ProfileListBase, ProfilePostsPage, ProfileTopicsPage, ProfileUsersPage } from '../../../shared/profile.js';
import type { AppContext } from '../../context.js';
import { forbidden, notFound } from '../../http/errors.js';
import { definePage, type PageContent, type PageRequest } from '../../http/pages.js';
import { SharedValues } from '../../cache/page-cache.js';
import { beginsWith } from '../../http/page-json.js';
import { withFields } from '../../http/objects.js';
import type { Breadcrumb } from '../../../shared/types.js';
import { pageNumber, pageSizes, pagination } from '../../http/pagination.js';
import type { Viewer } from '../privileges/service.js';
import { presentTopics } from '../topics/presenter.js';
import { followList, topicList, type PostListKind, type TopicListKind } from './lists.js';
import { overlayPostList, postListPart } from './member-parts.js';
import { bannedUntilReadable, presentUser } from './presenter.js';
import { accountFields } from './account-fields.js';
import type { UserRow } from './store.js';

/** Who may see a list: anyone who may see members, or the member and admins. */
type Audience = 'public' | 'selfOrAdmin';

const FOLLOWS_PER_PAGE = 50;
/** The post and topic lists' sort options (NodeBB's `sortOptions`): Palaver's lists have one order. */
const NO_SORT: ProfileListBase['sortOptions'] = Object.freeze([]) as unknown as ProfileListBase['sortOptions'];

/**
 * The member a list is about, checked against the list's audience (NodeBB answers another
 * member's private list with [[error:no-privileges]]), with the fields every list page carries.
 * A slug in other letters redirects to the member's own slug.
 */
export async function listBase(
  ctx: AppContext,
  viewer: Viewer,
  slug: string,
  page: string,
  audience: Audience,
): Promise<{ row: Readonly<UserRow>; base: ListFields; crumbs: Breadcrumb[] } | { redirect: string }> {
  await ctx.privileges.assert(viewer, 'view:users');
  const row = await ctx.users.shownBySlug(slug);
  if (!row || row.deleted === 1) throw notFound('error:no-user');
  const self = viewer.uid === row.uid;
  if (audience === 'selfOrAdmin' && !self && !viewer.isAdmin) throw forbidden('error:no-privileges');
  if (row.userslug !== slug) return { redirect: `/user/${row.userslug}/${page}` };
  // The same for every reader alike of the member's list (frozen: see SharedValues); the page's
  // JSON takes their text as made once (page-json.ts beginsWith).
  // NodeBB's UserObjectFull (account-fields.ts), then the list's own fields.
  const account = await accountFields(ctx, viewer, row);
  const base = listFields.of([account], page, () => ({ ...account, title: `[[pages:account/${page}, ${row.username}]]` }));
  const crumbs = listCrumbs.of([row], page, () => [{ text: '[[global:users]]', url: '/users' }, { text: row.username, url: `/user/${row.userslug}` }, { text: `[[user:${page}]]` }]);
  return { row, base, crumbs };
}

/** The fields every list page of a member carries. */
type ListFields = Omit<PageContent<ProfileListBase>, 'pagination' | 'nextStart' | 'noItemsFoundKey' | 'breadcrumbs' | 'showSort' | 'sortOptions'>;
/** A member's list pages' fields, by their account fields (account-fields.ts), then the list. */
const listFields = new SharedValues<ListFields>(1);
/** A member's list pages' breadcrumbs, by their row, then the list. */
const listCrumbs = new SharedValues<Breadcrumb[]>(1);

/** The categories whose content the list may show: those the viewer may read, and for a private list those the member may read too. */
async function listCids(ctx: AppContext, viewer: Viewer, row: UserRow, audience: Audience): Promise<number[]> {
  const mine = await ctx.categories.readableCids(viewer);
  if (audience === 'public' || viewer.uid === row.uid) return mine;
  const theirs = new Set(await ctx.categories.readableCids(await ctx.privileges.viewer(row.uid)));
  return mine.filter((cid) => theirs.has(cid));
}

function postListPage(kind: PostListKind, audience: Audience, emptyKey: string) {
  return definePage<ProfilePostsPage>({
    path: `/user/:userslug/${kind}`,
    template: `account/${kind}`,
    requireLogin: audience !== 'public',
    async load({ ctx, viewer, params, query }: PageRequest) {
      const o = await listBase(ctx, viewer, params.userslug!, kind, audience);
      if ('redirect' in o) return o;
      const page = pageNumber(query.page);
      const perPage = (await pageSizes(ctx, viewer)).postsPerPage;
      const cids = await listCids(ctx, viewer, o.row, audience);
      // The page as every reader who may read the same categories sees it (member-parts.ts); the
      // reader's votes and bookmarks are laid over it.
      const offset = (page - 1) * perPage;
      const part = await ctx.users.parts.postLists.get(`${kind}|${o.row.uid}|${cids.join(',')}|${offset}|${perPage}`, () => postListPart(ctx, kind, o.row.uid, cids, offset, perPage));
      const pageCount = Math.max(1, Math.ceil(part.count / perPage));
      if (page > pageCount) throw notFound();
      const posts = await overlayPostList(ctx, viewer, part);
      return beginsWith(withFields(o.base, { breadcrumbs: o.crumbs, posts, nextStart: page * perPage, noItemsFoundKey: emptyKey, showSort: false, sortOptions: NO_SORT, pagination: pagination(page, pageCount, query) }), o.base);
    },
  });
}

function topicListPage(kind: TopicListKind, audience: Audience, emptyKey: string) {
  return definePage<ProfileTopicsPage>({
    path: `/user/:userslug/${kind}`,
    template: `account/${kind}`,
    requireLogin: audience !== 'public',
    async load({ ctx, viewer, params, query }: PageRequest) {
      const o = await listBase(ctx, viewer, params.userslug!, kind, audience);
      if ('redirect' in o) return o;
      const page = pageNumber(query.page);
      const perPage = (await pageSizes(ctx, viewer)).topicsPerPage;
      const cids = await listCids(ctx, viewer, o.row, audience);
      const { rows, count } = await topicList(ctx.db, kind, o.row.uid, cids, (page - 1) * perPage, perPage);
      const pageCount = Math.max(1, Math.ceil(count / perPage));
      if (page > pageCount) throw notFound();
      const topics = await presentTopics(ctx, viewer, rows);
      return beginsWith(withFields(o.base, { breadcrumbs: o.crumbs, topics, nextStart: page * perPage, noItemsFoundKey: emptyKey, showSort: false, sortOptions: NO_SORT, pagination: pagination(page, pageCount, query) }), o.base);
    },
  });
}

/** A member of a follow list with NodeBB's fields. */
function followUser(r: UserRow): FollowUser {
  const u = presentUser(r);
  const until = u.banned ? r.banned_until : 0;
  return {
    ...u,
    'email:confirmed': r.email_confirmed ? 1 : 0,
    lastonline: r.lastonline,
    lastonlineISO: new Date(r.lastonline || r.joindate).toISOString(),
    joindate: r.joindate,
    joindateISO: new Date(r.joindate).toISOString(),
    'banned:expire': until,
    banned_until: until,
    banned_until_readable: bannedUntilReadable(u.banned, until),
    flags: 0,
  };
}

function followPage(kind: 'followers' | 'following') {
  return definePage<ProfileUsersPage>({
    path: `/user/:userslug/${kind}`,
    template: `account/${kind}`,
    async load({ ctx, viewer, params, query }: PageRequest) {
      const o = await listBase(ctx, viewer, params.userslug!, kind, 'public');
      if ('redirect' in o) return o;
      const page = pageNumber(query.page);
      // The member's counters hold the totals (kept with each follow): no count query.
      const count = kind === 'followers' ? o.row.follower_count : o.row.following_count;
      const pageCount = Math.max(1, Math.ceil(count / FOLLOWS_PER_PAGE));
      if (page > pageCount) throw notFound();
      const rows = await followList(ctx.db, kind, o.row.uid, (page - 1) * FOLLOWS_PER_PAGE, FOLLOWS_PER_PAGE);
      return beginsWith(
        withFields(o.base, {
          breadcrumbs: o.crumbs,
          users: rows.map(followUser),
          pagination: pagination(page, pageCount, query),
        }),
        o.base,
      );
    },
  });
}

/** The profile's list pages (issue 13): posts, topics, best, the private vote, bookmark, ignored and read lists, followers, following. */
export const profileListPages = [
  postListPage('posts', 'public', '[[user:has-no-posts]]'),
  postListPage('best', 'public', '[[user:has-no-best-posts]]'),
  postListPage('controversial', 'public', '[[user:has-no-controversial-posts]]'),
  postListPage('upvoted', 'selfOrAdmin', '[[user:has-no-upvoted-posts]]'),
  postListPage('downvoted', 'selfOrAdmin', '[[user:has-no-downvoted-posts]]'),
  postListPage('bookmarks', 'selfOrAdmin', '[[user:has-no-bookmarks]]'),
  topicListPage('topics', 'public', '[[user:has-no-topics]]'),
  // NodeBB's checkAccountPermissions: the member and those who may edit them (admins).
  topicListPage('ignored', 'selfOrAdmin', '[[user:has-no-ignored-topics]]'),
  topicListPage('read', 'selfOrAdmin', '[[user:has-no-read-topics]]'),
  followPage('followers'),
  followPage('following'),
];
