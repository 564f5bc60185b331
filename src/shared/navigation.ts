/**
 * The forum's main navigation (the sidebar and the phone's bottom bar), as the admin's
 * navigation editor keeps it in the setting `navigation` (JSON text; empty: the built-in list).
 * `text` may hold [[ns:key]] tokens, translated in the reader's language.
 */
export interface NavEntry {
  /** A forum path ('/recent') or an http(s) address. */
  route: string;
  text: string;
  /** One of the client's icon names; an unknown one shows a default icon. */
  icon: string;
  enabled: boolean;
  /** Only for logged-in members. */
  members: boolean;
  /** Also in the phone's bottom bar. */
  mobile: boolean;
  /** Opens in a new tab (for addresses outside the forum). */
  newTab: boolean;
}

/** The built-in navigation (the setting left empty). */
export const DEFAULT_NAVIGATION: NavEntry[] = [
  { route: '/', icon: 'grid', text: '[[global:header.categories]]', enabled: true, members: false, mobile: true, newTab: false },
  { route: '/recent', icon: 'clock', text: '[[global:header.recent]]', enabled: true, members: false, mobile: true, newTab: false },
  { route: '/unread', icon: 'inbox', text: '[[global:header.unread]]', enabled: true, members: true, mobile: true, newTab: false },
  { route: '/popular', icon: 'trending', text: '[[global:header.popular]]', enabled: true, members: false, mobile: false, newTab: false },
  { route: '/top', icon: 'award', text: '[[global:header.top]]', enabled: true, members: false, mobile: false, newTab: false },
  { route: '/tags', icon: 'tag', text: '[[global:header.tags]]', enabled: true, members: false, mobile: false, newTab: false },
  { route: '/users', icon: 'users', text: '[[global:header.users]]', enabled: true, members: false, mobile: false, newTab: false },
  { route: '/groups', icon: 'user-plus', text: '[[global:header.groups]]', enabled: true, members: false, mobile: false, newTab: false },
];

export const MAX_NAV_ENTRIES = 30;

/** True for a route an entry may link to: a forum path, or an http(s) address. */
export function isNavRoute(route: string): boolean {
  if (route.startsWith('/')) return !route.startsWith('//') && !/[\s<>"\\]/.test(route) && route.length <= 500;
  try {
    const u = new URL(route);
    return (u.protocol === 'http:' || u.protocol === 'https:') && route.length <= 500;
  } catch {
    return false;
  }
}

/**
 * Reads the setting's text: the built-in list when empty; null when it is not a valid list
 * (not JSON, more than MAX_NAV_ENTRIES entries, a field of the wrong type, a route that is
 * neither a forum path nor an http(s) address, an empty or over-long text).
 */
export function parseNavigation(raw: string): NavEntry[] | null {
  if (!raw.trim()) return DEFAULT_NAVIGATION;
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!Array.isArray(list) || list.length > MAX_NAV_ENTRIES) return null;
  const out: NavEntry[] = [];
  for (const item of list as Record<string, unknown>[]) {
    if (!item || typeof item !== 'object') return null;
    const { route, text, icon, enabled, members, mobile, newTab } = item;
    if (typeof route !== 'string' || !isNavRoute(route)) return null;
    if (typeof text !== 'string' || !text.trim() || text.length > 100) return null;
    if (typeof icon !== 'string' || !/^[a-z][a-z0-9-]{0,30}$/.test(icon)) return null;
    if ([enabled, members, mobile, newTab].some((b) => typeof b !== 'boolean')) return null;
    out.push({ route, text: text.trim(), icon, enabled: enabled as boolean, members: members as boolean, mobile: mobile as boolean, newTab: newTab as boolean });
  }
  return out;
}
