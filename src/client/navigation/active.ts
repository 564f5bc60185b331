import { pagePath, parseUrl } from './url';

function trimSlashes(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}

/**
 * Answers by link, page and forum path: every page render asks for each navigation link
 * (some 15 of them, four URL parses each), and the server renders the same few pages again
 * and again.
 */
const answers = new Map<string, boolean>();
const MAX_ANSWERS = 1000;

/**
 * Spec §2: a navigation link is active when its path equals the current path or is a parent
 * of it, and every query parameter of the link matches the current query.
 */
export function isActive(linkHref: string, currentHref: string, relativePath: string): boolean {
  const key = `${relativePath}\u0000${currentHref}\u0000${linkHref}`;
  let answer = answers.get(key);
  if (answer === undefined) {
    answer = compute(linkHref, currentHref, relativePath);
    if (answers.size >= MAX_ANSWERS) answers.clear();
    answers.set(key, answer);
  }
  return answer;
}

function compute(linkHref: string, currentHref: string, relativePath: string): boolean {
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
