import type { AdminsModsGroup, AdminsModsPage } from '../../../shared/schemas/admin-shell.js';
import { definePage } from '../../http/pages.js';
import { ADMINISTRATORS, GLOBAL_MODS } from '../groups/service.js';
import { presentUser } from '../users/presenter.js';
import { assertAdmin } from '../privileges/service.js';

/**
 * Manage → Admins & mods (NodeBB's /api/admin/manage/admins-mods): the administrators, the
 * global moderators and each category's own moderators. Changes go through the existing
 * write API: group membership (PUT/DELETE /api/v3/groups/{slug}/membership/{uid}) and
 * PUT/DELETE /api/v3/categories/{cid}/moderator/{uid}. Three reads and one member lookup.
 */
export const adminsModsPages = [
  definePage<AdminsModsPage>({
    path: '/admin/manage/admins-mods',
    template: 'admin/manage/admins-mods',
    access: 'admin',
    async load({ ctx, viewer }) {
      assertAdmin(viewer);
      const [adminUids, modUids, categories] = await Promise.all([ctx.groups.members(ADMINISTRATORS), ctx.groups.members(GLOBAL_MODS), ctx.categories.list(viewer)]);
      const grants = await Promise.all(categories.map((c) => ctx.privileges.list(c.cid)));
      const modsOf = grants.map((g) => (g.moderate ?? []).filter((s) => s.startsWith('uid:')).map((s) => Number(s.slice(4))));
      const users = await ctx.users.getMany([...new Set([...adminUids, ...modUids, ...modsOf.flat()])]);
      const people = (uids: number[]) =>
        uids
          .map((uid) => presentUser(users.get(uid), uid))
          .sort((a, b) => a.username.localeCompare(b.username));
      const group = (name: string, slug: string, uids: number[]): AdminsModsGroup => ({ name, slug, memberCount: uids.length, members: people(uids) });
      const children = new Map<number, number>();
      for (const c of categories) children.set(c.parent_cid, (children.get(c.parent_cid) ?? 0) + 1);
      return {
        title: '[[admin:nav.admins-mods]]',
        admins: group(ADMINISTRATORS, 'administrators', adminUids),
        globalMods: group(GLOBAL_MODS, 'global-moderators', modUids),
        categoryMods: categories.map((c, i) => ({
          cid: c.cid,
          name: c.name,
          slug: c.slug,
          icon: c.icon,
          bgColor: c.bg_color,
          color: c.color,
          parentCid: c.parent_cid,
          moderators: people(modsOf[i]!),
          subCategoryCount: children.get(c.cid) ?? 0,
        })),
      };
    },
  }),
];
