import type {
  AdminCategoriesPage,
  AdminCategoryAnalyticsPage,
  AdminCategoryChoice,
  AdminCategoryFederationPage,
  AdminCategoryNode,
  AdminCategoryPage,
} from '../../../shared/schemas/admin-categories.js';
import type { Breadcrumb } from '../../../shared/types.js';
import { notFound } from '../../http/errors.js';
import { pathId } from '../../http/input.js';
import { definePage, type PageDef, type PageRequest } from '../../http/pages.js';
import { presentCategory, presentWritten, tagWhitelistOf, type TagLimits } from './presenter.js';
import type { CategoryRow } from './store.js';

const TITLE = '[[admin-manage:categories.title]]';
const LIST = '/admin/manage/categories';

async function tagLimits({ ctx }: PageRequest): Promise<TagLimits> {
  const s = await ctx.settings.get();
  return { minTags: s.minimumTagsPerTopic, maxTags: s.maximumTagsPerTopic };
}

/** Every category (admins see disabled ones), parents before children, with its depth. */
async function treeRows(req: PageRequest): Promise<(CategoryRow & { level: number })[]> {
  const rows = await req.ctx.categories.list(req.viewer);
  const depth = new Map<number, number>();
  return rows.map((r) => {
    const level = r.parent_cid && depth.has(r.parent_cid) ? depth.get(r.parent_cid)! + 1 : 0;
    depth.set(r.cid, level);
    return { ...r, level };
  });
}

const choice = (r: CategoryRow & { level: number }): AdminCategoryChoice => ({ cid: r.cid, name: r.name, level: r.level, link: r.link });

async function loadCategory(req: PageRequest): Promise<CategoryRow> {
  const cid = pathId(req.params.cid);
  const row = cid === null ? null : await req.ctx.categories.get(cid);
  if (!row) throw notFound('error:no-category');
  return row;
}

function crumbs(row: CategoryRow, last?: string): Breadcrumb[] {
  return [{ text: TITLE, url: LIST }, last ? { text: row.name, url: `${LIST}/${row.cid}` } : { text: row.name }, ...(last ? [{ text: last }] : [])];
}

const listPage = definePage<AdminCategoriesPage>({
  path: LIST,
  template: 'admin/manage/categories',
  access: 'admin',
  async load(req) {
    const categoriesTree: AdminCategoryNode[] = (await treeRows(req)).map((r) => ({
      cid: r.cid,
      name: r.name,
      description: r.description,
      icon: r.icon,
      bgColor: r.bg_color,
      color: r.color,
      link: r.link,
      parentCid: r.parent_cid,
      order: r.position,
      disabled: r.disabled ? 1 : 0,
      topic_count: r.topic_count,
      post_count: r.post_count,
      level: r.level,
    }));
    return { title: TITLE, breadcrumbs: [{ text: TITLE }], categoriesTree, selectCategoryLabel: '[[admin-manage:categories.parent-none]]' };
  },
});

const editPage = definePage<AdminCategoryPage>({
  path: `${LIST}/:cid`,
  template: 'admin/manage/category',
  access: 'admin',
  async load(req) {
    const row = await loadCategory(req);
    const limits = await tagLimits(req);
    const parent = row.parent_cid ? await req.ctx.categories.get(row.parent_cid) : null;
    const settings = await req.ctx.settings.get();
    return {
      title: row.name,
      breadcrumbs: crumbs(row),
      category: { ...presentWritten(row, limits), tagWhitelist: tagWhitelistOf(row), ...(parent ? { parent: presentCategory(parent, limits) } : {}) },
      ownTagLimits: { minTags: row.min_tags, maxTags: row.max_tags },
      selectedCategory: presentCategory(row, limits),
      categories: (await treeRows(req)).map(choice),
      customClasses: [],
      postQueueEnabled: !!settings.postQueue,
    };
  },
});

const analyticsPage = definePage<AdminCategoryAnalyticsPage>({
  path: `${LIST}/:cid/analytics`,
  template: 'admin/manage/category-analytics',
  access: 'admin',
  async load(req) {
    const row = await loadCategory(req);
    const analytics = await req.ctx.categories.analytics(req.viewer, row.cid);
    return {
      title: row.name,
      breadcrumbs: crumbs(row, '[[admin-manage:analytics.title]]'),
      name: row.name,
      cid: row.cid,
      analytics,
      selectedCategory: presentCategory(row, await tagLimits(req)),
    };
  },
});

const federationPage = definePage<AdminCategoryFederationPage>({
  path: `${LIST}/:cid/federation`,
  template: 'admin/manage/category-federation',
  access: 'admin',
  async load(req) {
    const row = await loadCategory(req);
    return {
      title: row.name,
      breadcrumbs: crumbs(row, '[[admin-manage:federation.title]]'),
      name: row.name,
      cid: row.cid,
      federationEnabled: false as const,
      selectedCategory: presentCategory(row, await tagLimits(req)),
    };
  },
});

/** The admin category pages: the tree, one category's settings, its analytics, its federation placeholder. */
export const adminCategoryPages: PageDef<any>[] = [listPage, editPage, analyticsPage, federationPage];
