import { isInternal, pagePath, parseUrl } from './url';

/** What the click handler needs to know about a link, as plain data. */
export interface LinkInfo {
  /** The raw href attribute (null when absent). */
  href: string | null;
  target: string | null;
  /** The data-ajaxify attribute. */
  ajaxify: string | null;
}

/** What the click handler needs to know about a click event. */
export interface ClickInfo {
  button: number;
  ctrlKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
  defaultPrevented?: boolean;
}

export interface SiteContext {
  /** The current page URL (location.href). */
  base: string;
  relativePath: string;
}

/** True when the raw href goes nowhere: empty, '#' or a javascript: link. */
export function isNonNavigating(href: string | null): boolean {
  if (href === null) return true;
  const h = href.trim();
  return h === '' || h === '#' || /^javascript:/i.test(h);
}

/** True when the click must be left to the browser whatever the link points at. */
export function isBrowserClick(link: LinkInfo, event: ClickInfo): boolean {
  if (event.defaultPrevented) return true;
  if (event.button !== 0 || event.ctrlKey || event.shiftKey || event.metaKey) return true;
  if (link.target !== null && link.target !== '') return true;
  return link.ajaxify === 'false';
}

const EXCLUDED_PATH = [/\.rss$/i, /^\/sitemap(\/.*)?\.xml$/i, /^\/uploads(\/|$)/, /^\/assets\//, /^\/api\//];

/** True when the internal page path is a file or API address, not a page. */
export function isExcludedPath(path: string): boolean {
  const p = path.split(/[?#]/)[0]!;
  return EXCLUDED_PATH.some((re) => re.test(p));
}

/** Spec §2: should this click on this link load the page in-page? */
export function shouldHandleClick(link: LinkInfo, event: ClickInfo, site: SiteContext): boolean {
  if (isNonNavigating(link.href) || isBrowserClick(link, event)) return false;
  const url = parseUrl(link.href!, site.base);
  if (!url || !/^https?:$/.test(url.protocol)) return false;
  if (!isInternal(url.href, site.base, site.relativePath)) return false;
  return !isExcludedPath(pagePath(url, site.relativePath));
}

/** Whitelist entries, separated by spaces or commas. */
export function parseWhitelist(list: string): string[] {
  return list.split(/[\s,]+/).filter(Boolean);
}

/** The outgoing-links page is skipped for addresses containing any whitelist entry. */
export function isWhitelisted(href: string, whitelist: string): boolean {
  return parseWhitelist(whitelist).some((entry) => href.includes(entry));
}

export interface OutgoingOptions {
  useOutgoingLinksPage: boolean;
  openOutgoingLinksInNewTab: boolean;
  outgoingLinksWhitelist: string;
  probe: boolean;
}

export type ExternalAction =
  | { kind: 'navigate'; path: string }
  | { kind: 'new-tab' }
  | { kind: 'default' };

/** What to do with a click on an external http(s) link: probe, interstitial, new tab or nothing. */
export function externalLinkAction(href: string, opts: OutgoingOptions): ExternalAction {
  if (opts.probe) return { kind: 'navigate', path: `/ap?resource=${encodeURIComponent(href)}` };
  if (opts.useOutgoingLinksPage && !isWhitelisted(href, opts.outgoingLinksWhitelist)) {
    return { kind: 'navigate', path: `/outgoing?url=${encodeURIComponent(href)}` };
  }
  if (opts.openOutgoingLinksInNewTab) return { kind: 'new-tab' };
  return { kind: 'default' };
}
