import { FLAG_SORTS, FLAG_STATES, FLAG_TYPES, type FlagDetailsPage, type FlagFilters, type FlagSortName, type FlagsListPage } from '../../../shared/schemas/flag.js';
import { badRequest, notFound } from '../../http/errors.js';
import { pathId } from '../../http/input.js';
import { definePage, type PageRequest } from '../../http/pages.js';
import type { Viewer } from '../privileges/service.js';
import { pageNumber, pagination } from '../../http/pagination.js';
import { ADMINISTRATORS } from '../groups/service.js';
import { flagStates, flagUser, presentFlag, presentFlagList } from './presenter.js';

const PER_PAGE = 20;

/** A uid filter from the query: undefined when absent, 400 when not an id. */
function uidFilter(raw: string | undefined, field: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = pathId(raw);
  if (n === null) throw badRequest('error:invalid-data', `querystring/${field}`);
  return n;
}

/** A choice filter from the query: undefined when absent, 400 when not one of the choices. */
function choice<T extends string>(raw: string | undefined, choices: readonly T[], field: string): T | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!(choices as readonly string[]).includes(raw)) throw badRequest('error:invalid-data', `querystring/${field}`);
  return raw as T;
}

const listPage = definePage<FlagsListPage>({
  path: '/flags',
  template: 'flags/list',
  requireLogin: true,
  async load({ ctx, viewer, query }) {
    const page = pageNumber(query.page);
    const filters: FlagFilters = { page, perPage: PER_PAGE };
    const state = choice(query.state, FLAG_STATES, 'state');
    const type = choice(query.type, FLAG_TYPES, 'type');
    const quick = choice(query.quick, ['mine'] as const, 'quick');
    const sort: FlagSortName = choice(query.sort, FLAG_SORTS, 'sort') ?? 'newest';
    const assignee = uidFilter(query.assignee, 'assignee');
    const cid = uidFilter(query.cid, 'cid');
    const reporterId = uidFilter(query.reporterId, 'reporterId');
    const targetUid = uidFilter(query.targetUid, 'targetUid');
    Object.assign(filters, { state, type, quick, assignee, cid, reporterId, targetUid });
    for (const k of Object.keys(filters) as (keyof FlagFilters)[]) if (filters[k] === undefined) delete filters[k];
    const { rows, count, moderated } = await ctx.flags.list(viewer, { state, type, quick, assignee, cid, reporterId, targetUid, sort, page, perPage: PER_PAGE });
    const pageCount = Math.max(1, Math.ceil(count / PER_PAGE));
    if (page > pageCount) throw notFound();
    const forum = { uid: 0, groups: [ADMINISTRATORS], isAdmin: true, isGlobalMod: true };
    const all = await ctx.categories.list(forum);
    const categories = all.filter((c) => moderated === null || moderated.includes(c.cid)).map((c) => ({ cid: c.cid, name: c.name }));
    const chosen = cid !== undefined ? all.find((c) => c.cid === cid) : undefined;
    const picked = await ctx.users.getMany([assignee, reporterId, targetUid].filter((u): u is number => u !== undefined));
    const one = (uid: number | undefined) => (uid !== undefined && picked.has(uid) ? [flagUser(picked.get(uid), uid)] : []);
    return {
      title: '[[pages:flags]]',
      breadcrumbs: [{ text: '[[pages:flags]]' }],
      flags: await presentFlagList(ctx, rows),
      count,
      analytics: await ctx.flags.dailyCounts(moderated),
      hasFilter: Object.keys(filters).length > 2,
      filters,
      expanded: Object.keys(filters).some((k) => !['page', 'perPage', 'state', 'quick'].includes(k)),
      sort,
      selectedCategory: chosen ? { icon: chosen.icon, name: chosen.name, bgColor: chosen.bg_color } : null,
      selected: { assignee: one(assignee), reporterId: one(reporterId), targetUid: one(targetUid) },
      categories,
      pagination: pagination(page, pageCount, query),
    };
  },
});

const detailPage = definePage<FlagDetailsPage>({
  path: '/flags/:flagId',
  template: 'flags/detail',
  requireLogin: true,
  async load({ ctx, viewer, params }) {
    const flagId = pathId(params.flagId);
    if (flagId === null) throw notFound('error:no-flag');
    const flag = await ctx.flags.load(viewer, flagId);
    const [object, assignable] = await Promise.all([presentFlag(ctx, flag), ctx.flags.assignable(flag)]);
    const users = await ctx.users.getMany(assignable);
    const empty = Object.keys(object.target).length === 0;
    return {
      ...object,
      title: `[[flags:flag-title, ${flag.flag_id}]]`,
      breadcrumbs: [{ text: '[[pages:flags]]', url: '/flags' }, { text: `[[flags:flag-title, ${flag.flag_id}]]` }],
      type_path: flag.type === 'user' ? 'user' : flag.type,
      assignees: assignable.filter((uid) => users.has(uid)).map((uid) => flagUser(users.get(uid), uid)),
      type_bool: { post: flag.type === 'post', user: flag.type === 'user', empty },
      privileges: { isAdminOrGlobalMod: viewer.isAdmin || viewer.isGlobalMod, isAdmin: viewer.isAdmin, 'flags:delete': viewer.isAdmin || viewer.isGlobalMod },
      states: flagStates(),
      actions: await flagActions(ctx, viewer, flag, object.target.deleted === 1, empty),
    };
  },
});

/**
 * What the viewer may do from a flag: the same checks the actions make (moderators delete a
 * post in their categories; the ban and mute privileges; never an administrator or oneself).
 */
async function flagActions(ctx: PageRequest['ctx'], viewer: Viewer, flag: { type: string; cid: number; target_uid: number }, postDeleted: boolean, empty: boolean): Promise<FlagDetailsPage['actions']> {
  const uid = flag.target_uid;
  const [author, authorIsAdmin, canBan, canMute, mute, settings, moderates] = await Promise.all([
    uid > 0 ? ctx.users.get(uid) : null,
    uid > 0 ? ctx.groups.isAdmin(uid) : false,
    ctx.privileges.can(viewer, 'ban'),
    ctx.privileges.can(viewer, 'mute'),
    uid > 0 ? ctx.moderation.muteOf(uid) : null,
    ctx.settings.get(),
    flag.type === 'post' ? ctx.privileges.isModerator(viewer, flag.cid) : false,
  ]);
  const sanctionable = !!author && author.deleted !== 1 && !authorIsAdmin && uid !== viewer.uid;
  return {
    deletePost: flag.type === 'post' && !empty && !postDeleted && moderates,
    ban: sanctionable && canBan,
    mute: sanctionable && canMute,
    banned: !!author && author.banned === 1 && (author.banned_until === 0 || author.banned_until > Date.now()),
    muted: mute !== null,
    banReasons: settings.banReasons
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  };
}

/** The flags pages: the moderators' list and one flag with its target in context. */
export const flagPages = [listPage, detailPage];
