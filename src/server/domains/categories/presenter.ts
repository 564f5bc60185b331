import type { CategoryObject, CategoryRef, CategoryView, Teaser } from '../../../shared/types.js';

export type { CategoryObject };
import type { CategoryRow } from './store.js';

/** The short reference topic lists carry. */
export function presentRef(row: CategoryRow): CategoryRef {
  return { cid: row.cid, name: row.name, handle: row.handle, slug: row.slug, icon: row.icon, bgColor: row.bg_color, color: row.color };
}

/** The full category fields, without tree data. */
export function presentCategory(row: CategoryRow): CategoryObject {
  return {
    ...presentRef(row),
    description: row.description,
    descriptionParsed: row.description_parsed,
    parentCid: row.parent_cid,
    order: row.position,
    link: row.link,
    disabled: row.disabled === 1,
    topic_count: row.topic_count,
    post_count: row.post_count,
  };
}

/** A category node of the tree: own fields, visible children, totals over them, latest teaser. */
export function presentView(row: CategoryRow, children: CategoryView[], teaser: Teaser | null): CategoryView {
  return {
    ...presentCategory(row),
    totalTopicCount: children.reduce((n, c) => n + c.totalTopicCount, row.topic_count),
    totalPostCount: children.reduce((n, c) => n + c.totalPostCount, row.post_count),
    children,
    posts: teaser ? [teaser] : [],
  };
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
