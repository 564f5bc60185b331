import type { AccountGroupsPage, GroupDetailsPage, GroupMembersPage, GroupsListPage } from '../../../shared/schemas/group.js';
import { notFound } from '../../http/errors.js';
import { definePage } from '../../http/pages.js';
import { pageNumber, pagination } from '../../http/pagination.js';
import { presentUser, presentUserSlim } from '../users/presenter.js';
import { accountFields } from '../users/account-fields.js';
import { presentGroup, presentMember } from './presenter.js';
import { GROUPS_PER_PAGE, listItems } from './routes.js';
import type { GroupSort } from './store.js';

const SORTS: GroupSort[] = ['alpha', 'count', 'date'];
const noQs = ({ qs: _qs, ...link }: { page: number; active: boolean; qs: string }) => link;
const MEMBERS_PER_PAGE = 50;
const DETAILS_MEMBERS = 12;

const listPage = definePage<GroupsListPage>({
  path: '/groups',
  template: 'groups/list',
  async load({ ctx, viewer, query }) {
    const sort = SORTS.includes(query.sort as GroupSort) ? (query.sort as GroupSort) : 'alpha';
    const search = (query.query ?? '').slice(0, 100);
    const page = pageNumber(query.page);
    const { rows, count } = await ctx.groups.list(viewer, { sort, query: search, offset: (page - 1) * GROUPS_PER_PAGE, limit: GROUPS_PER_PAGE });
    const pageCount = Math.max(1, Math.ceil(count / GROUPS_PER_PAGE));
    if (page > pageCount) throw notFound();
    return {
      title: '[[pages:groups]]',
      breadcrumbs: [{ text: '[[global:header.groups]]' }],
      groups: (await listItems(ctx, rows)).map((g) => ({ ...g, members: g.members.map(({ displayname: _d, ...m }) => m) })),
      allowGroupCreation: viewer.uid > 0 && (await ctx.privileges.can(viewer, 'group:create')),
      sort,
      // NodeBB's groups page carries prev/next/first/last without their query strings.
      pagination: (({ prev, next, first, last, ...rest }) => ({ ...rest, prev: noQs(prev), next: noQs(next), first: noQs(first), last: noQs(last) }))(pagination(page, pageCount, query)),
    };
  },
});

const detailsPage = definePage<GroupDetailsPage>({
  path: '/groups/:slug',
  template: 'groups/details',
  async load({ ctx, viewer, params }) {
    const g = await ctx.groups.visible(viewer, params.slug!);
    const standing = await ctx.groups.standing(viewer, g);
    const [{ rows }, pending, invited] = await Promise.all([
      ctx.groups.memberPage(g, { query: '', offset: 0, limit: DETAILS_MEMBERS }),
      standing.canManage ? ctx.groups.waiting(viewer, g.slug, 'pending') : Promise.resolve([]),
      standing.canManage ? ctx.groups.waiting(viewer, g.slug, 'invites') : Promise.resolve([]),
    ]);
    const users = await ctx.users.getMany([...rows.map((r) => r.uid), ...pending, ...invited]);
    const member = (uid: number) => presentMember(presentUser(users.get(uid), uid));
    return {
      title: g.name,
      breadcrumbs: [{ text: '[[global:header.groups]]', url: '/groups' }, { text: g.name }],
      group: {
        ...presentGroup(g),
        descriptionParsed: g.description_parsed,
        // NodeBB's UserObjectSlim members, each marked isOwner as Groups.getOwnersAndMembers does.
        members: rows.flatMap((r) => {
          const u = users.get(r.uid);
          return u ? [{ ...presentUserSlim(u), isOwner: r.is_owner === 1 }] : [];
        }),
        membersNextStart: rows.length,
        pending: pending.map(member),
        invited: invited.map(member),
        isMember: standing.isMember,
        isPending: standing.isPending,
        isInvited: standing.isInvited,
        // The page's owner tools show to admins too (NodeBB's isOwner on the details page).
        isOwner: standing.canManage,
      },
      // NodeBB's latest posts of the group's members, those the viewer may read.
      posts: await ctx.posts.recentByGroup(viewer, g.name, 10),
      isAdmin: viewer.isAdmin,
      isGlobalMod: viewer.isGlobalMod,
      allowPrivateGroups: 1,
    };
  },
});

const membersPage = definePage<GroupMembersPage>({
  path: '/groups/:slug/members',
  template: 'groups/members',
  async load({ ctx, viewer, params, query }) {
    const g = await ctx.groups.visible(viewer, params.slug!);
    const search = (query.query ?? '').slice(0, 100);
    const page = pageNumber(query.page);
    const { rows, count } = await ctx.groups.memberPage(g, { query: search, offset: (page - 1) * MEMBERS_PER_PAGE, limit: MEMBERS_PER_PAGE });
    const pageCount = Math.max(1, Math.ceil(count / MEMBERS_PER_PAGE));
    if (page > pageCount) throw notFound();
    const users = await ctx.users.getMany(rows.map((r) => r.uid));
    return {
      title: g.name,
      breadcrumbs: [{ text: '[[global:header.groups]]', url: '/groups' }, { text: g.name, url: `/groups/${g.slug}` }, { text: '[[groups:details.members]]' }],
      group: presentGroup(g),
      users: rows.map((r) => ({ ...presentMember(presentUser(users.get(r.uid), r.uid)), isOwner: r.is_owner === 1 })),
      query: search,
      isOwner: (await ctx.groups.standing(viewer, g)).canManage,
      pagination: pagination(page, pageCount, query),
    };
  },
});

const accountPage = definePage<AccountGroupsPage>({
  path: '/user/:userslug/groups',
  template: 'account/groups',
  async load({ ctx, viewer, params }) {
    await ctx.privileges.assert(viewer, 'view:users');
    const row = await ctx.users.bySlug(params.userslug!);
    if (!row) throw notFound('error:no-user');
    if (row.userslug !== params.userslug) return { redirect: `/user/${row.userslug}/groups` };
    const isSelf = viewer.uid === row.uid;
    const { groups, invites } = await ctx.groups.ofMember(row.uid);
    // Another member sees the groups they may see: hidden ones only to admins (and fellow members, via the group page).
    const shown = isSelf || viewer.isAdmin ? groups : groups.filter((g) => !g.hidden);
    return {
      // NodeBB's UserObjectFull (users/account-fields.ts), then the page's own fields.
      ...(await accountFields(ctx, viewer, row)),
      title: `[[pages:account/groups, ${row.username}]]`,
      breadcrumbs: [{ text: row.username, url: `/user/${row.userslug}` }, { text: '[[global:header.groups]]' }],
      groups: shown.map((g) => ({ ...presentGroup(g), badge: g.badge, isOwner: g.is_owner === 1 })),
      invites: isSelf ? invites.map(presentGroup) : [],
      isSelf,
    };
  },
});

/** The groups list, a group's details and members, and a member's groups. */
export const groupPages = [listPage, detailsPage, membersPage, accountPage];
