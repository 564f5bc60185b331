/** Pure URL rules of spec §2: what is internal, where a page's data lives, admin areas. */

/** Parses an href against the current page URL; null when it is not a valid URL. */
export function parseUrl(href: string, base: string): URL | null {
  try {
    return new URL(href, base);
  } catch {
    return null;
  }
}

/** A URL is internal when it is http(s), on our origin, and under the site's relative path. */
export function isInternal(href: string, base: string, relativePath: string): boolean {
  const url = parseUrl(href, base);
  if (!url || !/^https?:$/.test(url.protocol)) return false;
  const origin = new URL(base).origin;
  if (url.origin !== origin) return false;
  if (!relativePath) return true;
  return url.pathname === relativePath || url.pathname.startsWith(`${relativePath}/`);
}

/** The page path of an internal URL: path after relative_path (always starting '/') plus query. */
export function pagePath(url: URL, relativePath: string): string {
  let path = url.pathname;
  if (relativePath && path.startsWith(relativePath)) path = path.slice(relativePath.length);
  if (!path.startsWith('/')) path = `/${path}`;
  return path + url.search;
}

/** Where the page data of a page path is fetched: {relative_path}/api{path}. */
export function apiUrl(path: string, relativePath: string): string {
  return `${relativePath}/api${path.startsWith('/') ? path : `/${path}`}`;
}

/** True for paths of the admin area (which is a separate application). */
export function isAdminPath(path: string): boolean {
  const p = path.split(/[?#]/)[0]!;
  return p === '/admin' || p.startsWith('/admin/');
}

/** Moving between admin and non-admin areas forces a full page load. */
export function crossesAdminBoundary(fromPath: string, toPath: string): boolean {
  return isAdminPath(fromPath) !== isAdminPath(toPath);
}

/** True when only the hash differs between two URLs (and the new one has a hash). */
export function isHashOnlyChange(current: URL, next: URL): boolean {
  return (
    current.origin === next.origin &&
    current.pathname === next.pathname &&
    current.search === next.search &&
    next.hash !== ''
  );
}

/** Pages whose URL must not become the "previous url" (the return-to target after login). */
export function isUnremembered(path: string): boolean {
  const p = path.split(/[?#]/)[0]!;
  return p === '/reset' || p.startsWith('/reset/') || p === '/login' || p === '/register';
}
