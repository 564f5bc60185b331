import type { LoggedInUser, PageBase } from '../../shared/types';
import { translate, translateText } from '../i18n';
import { useStore } from '../state/store';
import { useRuntime, type Runtime } from './runtime';

export interface Translator {
  /** Translates "ns:key" with %1-style arguments. */
  t: (key: string, ...args: (string | number)[]) => string;
  /** Translates [[ns:key]] markers inside a server text. */
  tx: (text: string) => string;
  lang: string;
}

/** Translation helpers bound to the app's i18n instance. */
export function useT(): Translator {
  // The language is fixed for the page's life (a change of language reloads the page), so the
  // helpers depend on the runtime only. (react-i18next's useTranslation copied the i18n
  // instance's properties on every call: 10% of a server render.)
  return translatorFor(useRuntime());
}

const translators = new WeakMap<Runtime, Translator>();
function translatorFor(rt: Runtime): Translator {
  let tr = translators.get(rt);
  if (!tr) {
    const { i18n } = rt;
    tr = {
      t: (key: string, ...args: (string | number)[]) => translate(i18n, key, args),
      tx: (text: string) => translateText(i18n, text),
      lang: i18n.language || rt.config.userLang,
    };
    translators.set(rt, tr);
  }
  return tr;
}

/** The page data currently shown. */
export function usePage<T extends PageBase = PageBase>(): T {
  return useStore(useRuntime().page).page as T;
}

/** The logged-in member, or null for a visitor. */
export function useUser(): LoggedInUser | null {
  return memberOf(usePage());
}

/** The page's logged-in member, or null for a visitor (also outside a render). */
export function memberOf(page: PageBase): LoggedInUser | null {
  // A visitor's loggedInUser is NodeBB's guest object (uid 0, no settings), not null.
  const user = page.loggedInUser;
  return user?.settings && user.uid > 0 ? user : null;
}

/** The current page's path relative to relative_path (with query), e.g. "/recent?page=2". */
export function useCurrentPath(): string {
  const rt = useRuntime();
  const { url } = useStore(rt.page);
  return currentPath(url, rt.config.relative_path);
}

/** Path of a URL (absolute or a path) relative to relative_path, with its query. */
export function currentPath(url: string, relativePath: string): string {
  const u = new URL(url || '/', 'http://placeholder.invalid');
  let path = u.pathname;
  if (relativePath && (path === relativePath || path.startsWith(`${relativePath}/`))) path = path.slice(relativePath.length) || '/';
  return path + u.search;
}
