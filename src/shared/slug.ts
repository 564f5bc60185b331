/** Makes a URL slug the way forums do: lowercase, unicode letters kept, spaces to hyphens. */
export function slugify(input: string): string {
  const slug = input
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]+/gu, '')
    .trim()
    .replace(/[\s_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120);
  return slug || 'untitled';
}
