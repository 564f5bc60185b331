import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { LoggedInUser, PageBase } from '../../shared/types';
import { translate, translateText } from '../i18n';
import { useStore } from '../state/store';
import { useRuntime } from './runtime';

export interface Translator {
  /** Translates "ns:key" with %1-style arguments. */
  t: (key: string, ...args: (string | number)[]) => string;
  /** Translates [[ns:key]] markers inside a server text. */
  tx: (text: string) => string;
  lang: string;
}

/** Translation helpers bound to the app's i18n instance. */
export function useT(): Translator {
  const rt = useRuntime();
  // Subscribes to language changes through react-i18next.
  const { i18n } = useTranslation();
  return useMemo(
    () => ({
      t: (key: string, ...args: (string | number)[]) => translate(i18n ?? rt.i18n, key, args),
      tx: (text: string) => translateText(i18n ?? rt.i18n, text),
      lang: (i18n ?? rt.i18n).language || rt.config.userLang,
    }),
    [i18n, rt],
  );
}

/** The page data currently shown. */
export function usePage<T extends PageBase = PageBase>(): T {
  return useStore(useRuntime().page).page as T;
}

/** The logged-in member, or null for a visitor. */
export function useUser(): LoggedInUser | null {
  const page = usePage();
  return page.loggedInUser && page.loggedInUser.uid > 0 ? page.loggedInUser : null;
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
