import { pagePath, parseUrl } from './url';

function trimSlashes(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}

/**
 * Spec §2: a navigation link is active when its path equals the current path or is a parent
 * of it, and every query parameter of the link matches the current query.
 */
export function isActive(linkHref: string, currentHref: string, relativePath: string): boolean {
  const link = parseUrl(linkHref, currentHref);
  const current = parseUrl(currentHref, currentHref);
  if (!link || !current || link.origin !== current.origin) return false;
  const linkPath = trimSlashes(pagePath(new URL(link.pathname, link.origin), relativePath));
  const curPath = trimSlashes(pagePath(new URL(current.pathname, current.origin), relativePath));
  const pathMatches = linkPath === curPath || (linkPath !== '' && curPath.startsWith(`${linkPath}/`));
  if (!pathMatches) return false;
  for (const [key, value] of link.searchParams) {
    if (current.searchParams.get(key) !== value) return false;
  }
  return true;
}
