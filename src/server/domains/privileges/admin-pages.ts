import type { AdminPrivilegesPage } from '../../../shared/schemas/admin-privileges.js';
import { notFound } from '../../http/errors.js';
import { pathId } from '../../http/input.js';
import { definePage, type PageRequest } from '../../http/pages.js';
import { PRESETS, privilegeMatrix } from './admin-privileges.js';

async function load({ ctx, viewer, params, query }: PageRequest, cid: number) {
  const categories = await ctx.categories.list(viewer);
  if (cid > 0 && !categories.some((c) => c.cid === cid)) throw notFound('error:no-category');
  // ?group=name adds a row for a group that holds nothing here yet.
  const extra = query.group ? [String(query.group).slice(0, 255)] : [];
  // ?uid=N adds a row for a member (unknown members are left out).
  const uid = query.uid ? pathId(String(query.uid)) : null;
  const privileges = await privilegeMatrix(ctx, viewer, cid, extra, uid ? [uid] : []);
  const depth = new Map<number, number>();
  const levels = categories.map((c) => {
    const level = c.parent_cid && depth.has(c.parent_cid) ? depth.get(c.parent_cid)! + 1 : 0;
    depth.set(c.cid, level);
    return { cid: c.cid, name: c.name, level };
  });
  const listed = new Set(privileges.groups.map((g) => g.name));
  const otherGroups = (await ctx.groups.adminList(viewer)).map((g) => g.name).filter((n) => !listed.has(n));
  void params;
  const current = levels.find((c) => c.cid === cid);
  return {
    title: '[[admin-privileges:title]]',
    breadcrumbs: [{ text: '[[admin-privileges:title]]', ...(cid ? { url: '/admin/manage/privileges' } : {}) }, ...(current ? [{ text: current.name }] : [])],
    cid,
    privileges,
    categories: levels,
    otherGroups,
    presets: [...PRESETS],
  };
}

const globalPage = definePage<AdminPrivilegesPage>({
  path: '/admin/manage/privileges',
  template: 'admin/manage/privileges',
  access: 'admin',
  load: (req) => load(req, 0),
});

const categoryPage = definePage<AdminPrivilegesPage>({
  path: '/admin/manage/privileges/:cid',
  template: 'admin/manage/privileges',
  access: 'admin',
  load: (req) => {
    const cid = pathId(req.params.cid);
    if (cid === null) throw notFound();
    return load(req, cid);
  },
});

/** The privileges matrix pages (global and per category). */
export const adminPrivilegePages = [globalPage, categoryPage];
