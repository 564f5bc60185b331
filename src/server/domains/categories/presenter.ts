import type { CategoryObject, CategoryRef, CategoryView, CategoryWrite, Teaser } from '../../../shared/types.js';

export type { CategoryObject };
import type { CategoryRow } from './store.js';
import { withFields } from '../../http/objects.js';

/** The short reference topic lists carry. */
export function presentRef(row: CategoryRow): CategoryRef {
  return {
    cid: row.cid,
    name: row.name,
    slug: row.slug,
    icon: row.icon,
    backgroundImage: null,
    imageClass: 'cover',
    bgColor: row.bg_color,
    color: row.color,
    disabled: row.disabled ? 1 : 0,
  };
}

/** The forum's tag limits, which a category without its own limits follows (NodeBB's default). */
export interface TagLimits {
  minTags: number;
  maxTags: number;
}

// NodeBB's defaults for minimumTagsPerTopic / maximumTagsPerTopic.
const DEFAULT_TAG_LIMITS: TagLimits = { minTags: 0, maxTags: 5 };

/**
 * NodeBB's CategoryObject. Palaver has no per-category setting for the display fields, so they
 * carry NodeBB's defaults for a new category (docs/api.md); the totals are the
 * category's own counts here (the tree's presentView sums the children).
 */
export function presentCategory(row: CategoryRow, tags: TagLimits = DEFAULT_TAG_LIMITS): CategoryObject {
  return {
    cid: row.cid,
    name: row.name,
    nickname: row.name,
    handle: row.handle,
    description: row.description,
    descriptionParsed: row.description_parsed,
    icon: row.icon,
    bgColor: row.bg_color,
    color: row.color,
    slug: row.slug,
    parentCid: row.parent_cid,
    topic_count: row.topic_count,
    post_count: row.post_count,
    disabled: row.disabled ? 1 : 0,
    order: row.position,
    link: row.link,
    numRecentReplies: 1,
    class: 'col-md-3 col-6',
    imageClass: 'cover',
    isSection: 0,
    // A category's own limits narrow the forum's (TagsService.checkForCategory).
    minTags: Math.max(row.min_tags ?? 0, tags.minTags),
    maxTags: Math.min(row.max_tags ?? tags.maxTags, tags.maxTags),
    postQueue: row.post_queue,
    totalPostCount: row.post_count,
    totalTopicCount: row.topic_count,
    subCategoriesPerPage: 10,
  };
}

/** The category's allowed tags (empty: any tag). */
export function tagWhitelistOf(row: Pick<CategoryRow, 'tag_whitelist'>): string[] {
  return row.tag_whitelist ? row.tag_whitelist.split(',') : [];
}

/** What POST and PUT answer: the category with its tag whitelist, no unread class. */
export function presentWritten(row: CategoryRow, tags?: TagLimits): CategoryWrite {
  return withFields(presentCategory(row, tags), { tagWhitelist: tagWhitelistOf(row), 'unread-class': '' });
}

/** A category node of the tree: own fields, visible children, totals over them, latest teaser. */
export function presentView(row: CategoryRow, children: CategoryView[], teaser: Teaser | null): CategoryView {
  return withFields(presentCategory(row), {
    totalTopicCount: children.reduce((n, c) => n + c.totalTopicCount, row.topic_count),
    totalPostCount: children.reduce((n, c) => n + c.totalPostCount, row.post_count),
    children,
    posts: teaser ? [teaser] : [],
  });
}

/** The newest of a category's own teaser and its children's (the home page shows one per category). */
export function latestTeaser(own: Teaser | undefined, children: CategoryView[]): Teaser | null {
  let best = own ?? null;
  for (const child of children) {
    const t = child.posts[0];
    if (t && (!best || t.timestamp > best.timestamp)) best = t;
  }
  return best;
}

/** Parts of the account pages' batched read (users/account-fields.ts). */
export { watchedCategoryCountPart } from './store.js';
