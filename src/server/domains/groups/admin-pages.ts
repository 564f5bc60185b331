import type { AdminGroupItem, AdminGroupPage, AdminGroupsPage } from '../../../shared/schemas/admin-privileges.js';
import { definePage } from '../../http/pages.js';
import { presentUser } from '../users/presenter.js';
import type { GroupRow } from './store.js';

const MEMBERS_SHOWN = 200;

/** A group as the admin lists show it (NodeBB's field names). */
export function adminGroupItem(g: GroupRow): AdminGroupItem {
  return {
    name: g.name,
    slug: g.slug,
    description: g.description,
    memberCount: g.member_count,
    system: g.system === 1,
    hidden: g.hidden === 1,
    private: g.private === 1,
    icon: g.icon,
    labelColor: g.label_color,
    textColor: g.text_color,
    createtime: Number(g.created),
  };
}

/** /admin/manage/groups: every group (hidden and system ones too) with its member count. */
const listPage = definePage<AdminGroupsPage>({
  path: '/admin/manage/groups',
  template: 'admin/manage/groups',
  access: 'admin',
  async load({ ctx, viewer, query }) {
    const search = (query.query ?? '').slice(0, 100);
    const rows = await ctx.groups.adminList(viewer, search);
    return {
      title: '[[admin-privileges:groups.title]]',
      breadcrumbs: [{ text: '[[admin-privileges:groups.title]]' }],
      groups: rows.map(adminGroupItem),
      query: search,
    };
  },
});

/** /admin/manage/groups/:slug: a group's settings and members. */
const editPage = definePage<AdminGroupPage>({
  path: '/admin/manage/groups/:slug',
  template: 'admin/manage/group',
  access: 'admin',
  async load({ ctx, viewer, params, query }) {
    const g = await ctx.groups.adminGet(viewer, params.slug!);
    const search = (query.query ?? '').slice(0, 100);
    const { rows, count } = await ctx.groups.memberPage(g, { query: search, offset: 0, limit: MEMBERS_SHOWN });
    const users = await ctx.users.getMany(rows.map((r) => r.uid));
    return {
      title: g.name,
      breadcrumbs: [{ text: '[[admin-privileges:groups.title]]', url: '/admin/manage/groups' }, { text: g.name }],
      group: {
        ...adminGroupItem(g),
        userTitle: g.user_title,
        userTitleEnabled: g.user_title_enabled === 1,
        disableJoinRequests: g.disable_join_requests === 1,
        disableLeave: g.disable_leave === 1,
      },
      members: rows.map((r) => {
        const u = presentUser(users.get(r.uid), r.uid);
        return { uid: r.uid, username: u.username, userslug: u.userslug, picture: u.picture ?? '', 'icon:text': u['icon:text'], 'icon:bgColor': u['icon:bgColor'], isOwner: r.is_owner === 1 };
      }),
      memberCount: count,
    };
  },
});

export const adminGroupPages = [listPage, editPage];
