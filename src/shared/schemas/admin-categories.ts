/** Page data of the admin area's category pages (issue 16 §5 and §9). */
import type { CategoryObject, CategoryWrite, PageBase } from '../types.js';

/** One category of the admin tree (NodeBB's categoriesTree item), flattened with its depth. */
export interface AdminCategoryNode {
  cid: number;
  name: string;
  description: string;
  icon: string;
  bgColor: string;
  color: string;
  link: string;
  parentCid: number;
  order: number;
  disabled: number;
  topic_count: number;
  post_count: number;
  /** 0 at the top level. */
  level: number;
}

/** /admin/manage/categories (NodeBB's /api/admin/manage/categories). */
export interface AdminCategoriesPage extends PageBase {
  categoriesTree: AdminCategoryNode[];
  selectCategoryLabel: string;
}

/** A category to pick (parent, copy from, move topics to). */
export interface AdminCategoryChoice {
  cid: number;
  name: string;
  level: number;
  link: string;
}

/** /admin/manage/categories/:cid (NodeBB's /api/admin/manage/categories/{category_id}). */
export interface AdminCategoryPage extends PageBase {
  category: CategoryWrite & { parent?: CategoryObject };
  selectedCategory: CategoryObject;
  categories: AdminCategoryChoice[];
  customClasses: string[];
  postQueueEnabled: boolean;
  /** The category's own tag limits (null: it follows the forum's). */
  ownTagLimits: { minTags: number | null; maxTags: number | null };
}

/** /admin/manage/categories/:cid/analytics: the last 30 days, oldest first. */
export interface AdminCategoryAnalyticsPage extends PageBase {
  name: string;
  cid: number;
  analytics: { since: number; 'topics:daily': number[]; 'posts:daily': number[] };
  selectedCategory: CategoryObject;
}

/** /admin/manage/categories/:cid/federation: a placeholder while federation is not built. */
export interface AdminCategoryFederationPage extends PageBase {
  name: string;
  cid: number;
  federationEnabled: false;
  selectedCategory: CategoryObject;
}
