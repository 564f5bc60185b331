/** Page paths of forum objects, relative to relative_path. */

/** A topic's path; slug may already start with "tid/" (NodeBB style). index is the 1-based post position. */
export function topicPath(tid: number, slug: string, index?: number): string {
  const base = slug.startsWith(`${tid}/`) ? `/topic/${slug}` : `/topic/${tid}/${slug}`;
  return index && index > 1 ? `${base}/${index}` : base;
}

/** A category's path; slug may already start with "cid/". */
export function categoryPath(cid: number, slug: string): string {
  return slug.startsWith(`${cid}/`) ? `/category/${slug}` : `/category/${cid}/${slug}`;
}

/** A member's profile path. */
export function userPath(userslug: string): string {
  return `/user/${encodeURIComponent(userslug)}`;
}

/** Adds or replaces one query parameter in a page path. */
export function withQuery(path: string, key: string, value: string | number | null): string {
  const [p, q = ''] = path.split('?');
  const params = new URLSearchParams(q);
  if (value === null) params.delete(key);
  else params.set(key, String(value));
  const s = params.toString();
  return s ? `${p}?${s}` : p!;
}
