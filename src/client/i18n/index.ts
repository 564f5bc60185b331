import i18next, { type i18n as I18n, type Resource } from 'i18next';
import { DEFAULT_LANGUAGE } from '../../shared/constants';
import { fillArgs, translateBrackets } from '../util/brackets';

/** Every namespace the client uses; the server reads the same list for SSR. */
export const NAMESPACES = [
  'global', 'pages', 'topic', 'category', 'register', 'login', 'user', 'modules', 'error',
  'reset_password', 'users', 'search', 'recent', 'unread', 'spam-be-gone', 'tags',
] as const;

/** Namespace name → flat key/value map, as in public/language/{lang}/{ns}.json. */
export type NamespaceResources = Record<string, Record<string, string>>;

const reported = new Set<string>();

/** Creates an i18next instance from preloaded resources; init is synchronous. */
export function createI18n(lang: string, resources: Record<string, NamespaceResources>): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: lang,
    fallbackLng: DEFAULT_LANGUAGE,
    resources: resources as Resource,
    ns: [...NAMESPACES],
    defaultNS: 'global',
    // Keys such as "alert.unbanned" contain dots: keys are flat.
    keySeparator: false,
    nsSeparator: ':',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  } as Parameters<I18n['init']>[0]);
  return instance;
}

/** Translates "ns:key" with %1-style args; a missing key is logged once and shows as its key. */
export function translate(i18n: I18n, key: string, args: readonly (string | number)[] = []): string {
  const full = key.includes(':') ? key : `global:${key}`;
  if (!i18n.exists(full)) {
    if (!reported.has(full)) {
      reported.add(full);
      console.warn(`[i18n] missing translation: ${full}`);
    }
    return fillArgs(key, args);
  }
  return fillArgs(i18n.t(full), args);
}

/** Translates every [[ns:key, args]] inside a server text. */
export function translateText(i18n: I18n, text: string): string {
  return translateBrackets(text, (key, args) => translate(i18n, key, args));
}

/** Fetches one namespace; rejects with the status text on failure (spec §8). */
async function fetchNamespace(base: string, lang: string, ns: string, buster: string): Promise<Record<string, string>> {
  const res = await fetch(`${base}/language/${encodeURIComponent(lang)}/${ns}.json?v=${encodeURIComponent(buster)}`);
  if (!res.ok) throw new Error(res.statusText || String(res.status));
  return (await res.json()) as Record<string, string>;
}

/** Loads all namespaces of a language (and of en-GB for fallback); failures are logged, not fatal. */
export async function loadLanguages(base: string, lang: string, buster: string): Promise<Record<string, NamespaceResources>> {
  const langs = lang === DEFAULT_LANGUAGE ? [lang] : [lang, DEFAULT_LANGUAGE];
  const out: Record<string, NamespaceResources> = {};
  await Promise.all(
    langs.flatMap((l) =>
      NAMESPACES.map(async (ns) => {
        try {
          (out[l] ??= {})[ns] = await fetchNamespace(base, l, ns, buster);
        } catch (err) {
          console.error(`[i18n] could not load ${l}/${ns}:`, (err as Error).message);
        }
      }),
    ),
  );
  return out;
}
