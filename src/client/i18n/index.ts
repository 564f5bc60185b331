import i18next, { type i18n as I18n, type Resource } from 'i18next';
import { DEFAULT_LANGUAGE } from '../../shared/constants';
import { fillArgs, translateBrackets } from '../util/brackets';
import { pluralText } from '../../shared/plurals';
import { formatAbsolute } from '../util/timeago';
import { ADMIN_FRAME_NAMESPACES, PAGE_NAMESPACES, SHELL_NAMESPACES } from './page-namespaces';

/** Every namespace the client uses; the server reads the same list for SSR. */
export const NAMESPACES = [
  'global', 'pages', 'topic', 'category', 'register', 'login', 'user', 'modules', 'error',
  'reset_password', 'users', 'search', 'recent', 'unread', 'spam-be-gone', 'tags', 'notifications',
  'email', 'flags', 'ip-blacklist', 'groups',
] as const;

/**
 * The admin area's namespaces (one per section of the admin area), fetched only by the admin
 * area's pages and the first-run setup page: members never download them. The server render
 * has every namespace.
 */
export const ADMIN_NAMESPACES = [
  'admin', 'admin-dashboard', 'admin-settings', 'admin-manage', 'admin-privileges', 'admin-people',
  'admin-appearance', 'admin-extend', 'admin-advanced', 'admin-setup',
] as const;

/** True on the admin area's pages and the first-run setup page. */
function isAdminPage(path: string, template: string): boolean {
  const p = path.split(/[?#]/)[0]!;
  return /(^|\/)admin(\/|$)/.test(p) || template === 'setup' || template.startsWith('admin');
}

/** The namespaces named by `[[ns:key]]` markers in a page's data (titles, breadcrumbs, notification and event texts). */
export function markerNamespaces(pageJson: string): string[] {
  const known = new Set<string>([...NAMESPACES, ...ADMIN_NAMESPACES]);
  const found = new Set<string>();
  for (const m of pageJson.matchAll(/\[\[([a-z][a-z0-9_-]*):/g)) if (known.has(m[1]!)) found.add(m[1]!);
  return [...found];
}

/**
 * The namespaces a page needs (issue 56): the shell's (bars, menus, composer, dialogs), its
 * page module's, the admin frame's on admin pages, and those its data names in markers
 * (src/client/i18n/page-namespaces.ts, from the sources). The browser downloads only these;
 * a key of another namespace met later (a text the sources build at run time) loads its
 * namespace then (see onMissingNamespace).
 */
export function pageNamespaces(path: string, template: string, pageModule: string | undefined, pageJson = ''): string[] {
  const out = new Set<string>(SHELL_NAMESPACES);
  for (const ns of (pageModule && PAGE_NAMESPACES[pageModule]) || []) out.add(ns);
  if (isAdminPage(path, template)) for (const ns of ADMIN_FRAME_NAMESPACES) out.add(ns);
  for (const ns of markerNamespaces(pageJson)) out.add(ns);
  return [...out];
}

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
    ns: [...NAMESPACES, ...ADMIN_NAMESPACES],
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
  const colon = key.indexOf(':');
  const ns = colon < 0 ? 'global' : key.slice(0, colon);
  const name = colon < 0 ? key : key.slice(colon + 1);
  const value = lookup(i18n, ns, name, args);
  if (value === undefined) {
    // A namespace the page did not load (yet): it is fetched, and the app renders again.
    const load = missingLoaders.get(i18n);
    if (load && !hasNamespace(i18n, ns)) {
      load(ns);
      return '';
    }
    const full = `${ns}:${name}`;
    if (!reported.has(full)) {
      reported.add(full);
      console.warn(`[i18n] missing translation: ${full}`);
    }
    return fillArgs(key, args);
  }
  return fillArgs(value, args);
}

/**
 * The string of ns:key in the instance's language, else in en-GB. Keys are flat and our files
 * use no i18next interpolation or nesting ([[ns:key]] markers are ours), so this reads the
 * store directly: i18next's t() costs several times more per call, and a page calls it
 * hundreds of times in a server render.
 */
function lookup(i18n: I18n, ns: string, key: string, args: readonly (string | number)[] = []): string | undefined {
  const data = i18n.store.data as Record<string, Record<string, Record<string, unknown>> | undefined>;
  for (const lang of i18n.language === DEFAULT_LANGUAGE ? [DEFAULT_LANGUAGE] : [i18n.language, DEFAULT_LANGUAGE]) {
    const strings = data[lang]?.[ns];
    const v = strings?.[key];
    if (typeof v === 'string') return v;
    // A key with plural forms (key_one, key_few, key_other…): the form of the count in %1, by the language's CLDR rules.
    const plural = pluralText(strings, key, lang, args);
    if (plural !== undefined) return plural;
  }
  return undefined;
}

/**
 * The text to show for a failed action, in the member's language: the error's translation key
 * and params (the API's status.key and status.params, which ApiError and socket errors carry),
 * else its message with any [[ns:key]] markers translated. The server's message is English
 * (en-GB) whatever the member reads, so it is only the fallback for a key the client lacks.
 */
export function errorText(i18n: I18n, err: unknown): string {
  const e = (err && typeof err === 'object' ? err : { message: String(err) }) as { key?: unknown; params?: unknown; dates?: unknown; message?: unknown };
  if (typeof e.key === 'string' && hasTranslation(i18n, e.key)) {
    const dates = Array.isArray(e.dates) ? e.dates : [];
    // A param that is a time (a ban's end) reads as a date in the reader's language and time zone.
    const params = Array.isArray(e.params)
      ? e.params.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number').map((p, i) => (dates.includes(i) && typeof p === 'number' ? formatAbsolute(p, i18n.language) : p))
      : [];
    return translate(i18n, e.key, params);
  }
  return translateText(i18n, typeof e.message === 'string' ? e.message : '');
}

/** True when "ns:key" has a string in the instance's language or in en-GB. */
export function hasTranslation(i18n: I18n, key: string): boolean {
  const colon = key.indexOf(':');
  return lookup(i18n, colon < 0 ? 'global' : key.slice(0, colon), colon < 0 ? key : key.slice(colon + 1)) !== undefined;
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

/**
 * Loads the given namespaces of a language from `{asset_base_url}/language/…`; failures are
 * logged, not fatal. The server fills a language's missing keys with en-GB's text, so en-GB
 * itself is fetched only when the language is en-GB.
 */
export async function loadLanguages(base: string, lang: string, buster: string, namespaces: readonly string[]): Promise<Record<string, NamespaceResources>> {
  const out: Record<string, NamespaceResources> = { [lang]: {} };
  await Promise.all(
    namespaces.map(async (ns) => {
      try {
        out[lang]![ns] = await fetchNamespace(base, lang, ns, buster);
      } catch (err) {
        console.error(`[i18n] could not load ${lang}/${ns}:`, (err as Error).message);
      }
    }),
  );
  return out;
}

/** True when the instance holds the namespace (in its language or en-GB). */
function hasNamespace(i18n: I18n, ns: string): boolean {
  const data = i18n.store.data as Record<string, Record<string, unknown> | undefined>;
  return !!(data[i18n.language]?.[ns] ?? data[DEFAULT_LANGUAGE]?.[ns]);
}

const missingLoaders = new WeakMap<I18n, (ns: string) => void>();
const pending = new WeakMap<I18n, Map<string, Promise<void>>>();

/**
 * Loads the namespaces the instance lacks (a page the browser goes to needs more than the
 * first one did); resolves once they are in (a failed one is logged and left out).
 */
export function ensureNamespaces(i18n: I18n, base: string, buster: string, namespaces: readonly string[]): Promise<void> {
  let inFlight = pending.get(i18n);
  if (!inFlight) pending.set(i18n, (inFlight = new Map()));
  const lang = i18n.language;
  const waits: Promise<void>[] = [];
  for (const ns of new Set(namespaces)) {
    if (hasNamespace(i18n, ns)) continue;
    let p = inFlight.get(ns);
    if (!p) {
      const map = inFlight;
      p = fetchNamespace(base, lang, ns, buster)
        .then((strings) => {
          i18n.addResourceBundle(lang, ns, strings, true, true);
        })
        .catch((err: Error) => console.error(`[i18n] could not load ${lang}/${ns}:`, err.message))
        .finally(() => map.delete(ns));
      inFlight.set(ns, p);
    }
    waits.push(p);
  }
  return Promise.all(waits).then(() => undefined);
}

/**
 * What the instance does with a key of a namespace it lacks (the browser's: load it, then
 * render again); until then such a key reads as nothing, not as its name.
 */
export function onMissingNamespace(i18n: I18n, load: (ns: string) => void): void {
  missingLoaders.set(i18n, load);
}
