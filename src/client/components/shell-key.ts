import type { ReactElement } from 'react';
import { DEFAULT_NAVIGATION } from '../../shared/navigation';
import { serverHole, standIn } from '../app/fragments';
import { memberOf } from '../app/hooks';
import type { Runtime } from '../app/runtime';
import { isActive } from '../navigation/active';
import { notificationsOf } from '../state/notifications';
import { chatsOf } from './chats/store';

/**
 * Server render: the fragment-cache key (app/fragments.ts `serverCached`) of the sidebar's or
 * the bottom bar's markup, with their closed menus. Together some 0.4 ms of React a member's
 * page, they look the same on every page of a section for a member whose counts have not
 * changed, and for every visitor. The key names everything they are made of besides the
 * fragment context (language, paths, member or visitor): which bar, the sidebar's open state,
 * the forum's title and logo, registration, the navigation with the entries the page makes
 * active, the member's menu (name, avatar, status) and the three counts. Keep it in step with
 * Sidebar.tsx, BottomBar.tsx, nav-items.tsx and the menus they hold;
 * tests/e2e/server-render.test.ts renders pages with and without the cache, with each of
 * these changed. The menus' toggles carry fixed ids (Dropdown.tsx `toggleId`), as markup
 * rendered on its own would get other `useId` values.
 */
export function shellKey(rt: Runtime, bar: ShellBar): string {
  let state = renderStates.get(rt);
  if (state === undefined) renderStates.set(rt, (state = shellState(rt)));
  return `${bar}${state}`;
}

/**
 * What both bars are made of, per server render (a runtime serves one page render, whose
 * state does not change while it renders): made once for the two bars.
 */
const renderStates = new WeakMap<Runtime, string>();

function shellState(rt: Runtime): string {
  const { page, url } = rt.page.get();
  const { config } = rt;
  const user = memberOf(page);
  const nav = config.navigation ?? DEFAULT_NAVIGATION;
  return JSON.stringify([
    rt.ui.get().sidebarOpen,
    config.siteTitle,
    config.brand?.logo ?? null,
    !!config.allowRegistration,
    navState(nav, config.relative_path, url),
    user ? [user.uid, user.username, user.displayname, user.userslug, user.picture, user['icon:text'], user['icon:bgColor'], user.status] : null,
    notificationsOf(rt).get().unread,
    chatsOf(rt).get().unread,
    rt.drafts.get().length,
  ]);
}

/**
 * The navigation's part of the key: its entries and which of them the page makes active, kept
 * per navigation list (a member's config, and with it its list, is reused by their pages) and
 * page address.
 */
const navStates = new WeakMap<object, Map<string, string>>();
function navState(nav: NonNullable<Runtime['config']['navigation']>, rp: string, url: string): string {
  let byUrl = navStates.get(nav);
  if (!byUrl) navStates.set(nav, (byUrl = new Map()));
  let state = byUrl.get(`${rp} ${url}`);
  if (state === undefined) {
    // As NavLink marks an entry active.
    const here = new URL(url || '/', 'http://placeholder.invalid').href;
    const active = nav.map((e) => (e.route.startsWith('/') && isActive(`${rp}${e.route}`, here, rp) ? 1 : 0)).join('');
    // (The list's 1 KB would otherwise be in both bars' keys, hashed on every page.)
    state = standIn(JSON.stringify([nav, active]));
    if (byUrl.size >= 500) byUrl.clear();
    byUrl.set(`${rp} ${url}`, state);
  }
  return state;
}

/** Whether a bar's markup goes to the cache of members' own fragments (it shows their menu and counts). */
export function shellOwn(rt: Runtime): boolean {
  return !!memberOf(rt.page.get().page);
}

/**
 * A bar's `<nav>` (`element`, with `attrs` on it) through the fragment cache under its shell
 * key; a member's bars show their own menu and counts, so they go to the cache of members'
 * own fragments, apart from what readers share. The bars are the holes of a page's frame
 * (ssr/frames.ts): the rest of a page is the same for every member who may see the same.
 */
export function shellBar(rt: Runtime, bar: ShellBar, attrs: Record<string, unknown>, element: ReactElement): ReactElement {
  return serverHole(rt, bar, 'nav', attrs, () => shellKey(rt, bar), element, shellOwn(rt));
}

/** The holes of a page's frame: the two bars. */
export type ShellBar = 'sidebar' | 'bottombar';
