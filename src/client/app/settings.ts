import { DARK_SKINS, isKnownSkin, skinStylesheetPath, stylesheetHref, type TextDirection } from '../../shared/skins';
import type { Runtime } from './runtime';
import { api } from './api';
import { errorText } from '../i18n';

const GUEST_KEY = 'palaver:settings';

/** Guest settings kept in this browser. */
export function guestSettings(): Record<string, string> {
  try {
    return JSON.parse(localStorage.getItem(GUEST_KEY) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

/** Saves one member setting with PUT /api/v3/users/{uid}/settings, or locally for guests. */
export async function saveSetting(rt: Runtime, key: 'openSidebars' | 'bootswatchSkin', value: string): Promise<void> {
  const user = rt.page.get().page.loggedInUser;
  if (!user || user.uid <= 0) {
    localStorage.setItem(GUEST_KEY, JSON.stringify({ ...guestSettings(), [key]: value }));
    return;
  }
  try {
    await api(rt.config, 'PUT', `/users/${user.uid}/settings`, { settings: { [key]: value } });
  } catch (err) {
    rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
  }
}

/** The stylesheet URL of a skin in the page's direction, under the assets directory. */
export function skinHref(assetBase: string, skin: string, buster: string, dir: TextDirection): string {
  return stylesheetHref(assetBase, skinStylesheetPath(skin, dir), buster);
}

/** The direction of the page in this tab (the server set it on <html> from the reader's language). */
function pageDirection(): TextDirection {
  return document.documentElement.dir === 'rtl' ? 'rtl' : 'ltr';
}

/** Switches the skin stylesheet (and Bootstrap's colour mode) without a reload. */
export function applySkin(rt: Runtime, skin: string): void {
  const valid = isKnownSkin(skin) ? skin : '';
  let link = document.getElementById('skin-css') as HTMLLinkElement | null;
  if (valid) {
    if (!link) {
      link = document.createElement('link');
      link.id = 'skin-css';
      link.rel = 'stylesheet';
      document.head.appendChild(link);
    }
    link.href = skinHref(rt.config.asset_base_url, valid, rt.config['cache-buster'], pageDirection());
  } else {
    link?.remove();
  }
  document.documentElement.setAttribute('data-bs-theme', DARK_SKINS.includes(valid) ? 'dark' : 'light');
  rt.ui.set((s) => ({ ...s, skin: valid }));
}
