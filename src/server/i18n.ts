import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LANGUAGE } from '../shared/constants.js';
import { LANGUAGES, languageInfo } from '../shared/languages.js';
import { pluralText } from '../shared/plurals.js';

/** The repository's public/ folder, whether running from src/ or dist/. */
export const publicDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../public');

let languageRoot = path.join(publicDir, 'language');
let generation = 0;

/** Changes each time the language files are read from another folder: what was made from them is stale. */
export function languageGeneration(): number {
  return generation;
}

/** Reads the language files from another folder (tests: a language's fixture beside a copy of en-GB); clears what was read. */
export function useLanguageRoot(dir: string = path.join(publicDir, 'language')): void {
  languageRoot = dir;
  generation++;
  cache.clear();
  installed = null;
}

const cache = new Map<string, Record<string, Record<string, string>>>();

/** Every namespace of a language, read once from public/language/<lang>/. */
export function languageStrings(lang = DEFAULT_LANGUAGE): Record<string, Record<string, string>> {
  let strings = cache.get(lang);
  if (strings) return strings;
  strings = {};
  const dir = path.join(languageRoot, lang);
  // Only the shipped codes name a folder: a member's setting or a URL never picks a path.
  if (languageInfo(lang)?.code === lang && existsSync(dir)) {
    for (const file of readdirSync(dir)) {
      if (!file.endsWith('.json')) continue;
      strings[file.slice(0, -5)] = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Record<string, string>;
    }
  }
  cache.set(lang, strings);
  return strings;
}

let installed: string[] | null = null;

/**
 * The languages the forum offers: those of src/shared/languages.ts whose files are present
 * (public/language/<code>/global.json), en-GB first. Read once.
 */
export function installedLanguages(): string[] {
  if (!installed) {
    const dir = languageRoot;
    installed = LANGUAGES.map((l) => l.code).filter((code) => code === DEFAULT_LANGUAGE || existsSync(path.join(dir, code, 'global.json')));
  }
  return installed;
}

/** The offered language of this code (any letter case), else undefined. */
export function offeredLanguage(code: string | undefined | null): string | undefined {
  const info = languageInfo(code);
  return info && installedLanguages().includes(info.code) ? info.code : undefined;
}

/** A language's own name for itself ("Deutsch"), from src/shared/languages.ts, else the runtime's locale data. */
export function languageName(code: string): string {
  const info = languageInfo(code);
  if (info) return info.name;
  try {
    return new Intl.DisplayNames([code], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * One namespace of a language as served to browsers: every key of en-GB's file, in the
 * language where it has the key, else in English, so a partly translated file never shows a
 * raw key. Undefined when en-GB has no such namespace or the language is not offered.
 */
export function servedNamespace(lang: string, ns: string): Record<string, string> | undefined {
  const code = offeredLanguage(lang);
  const source = languageStrings(DEFAULT_LANGUAGE)[ns];
  if (!code || !source) return undefined;
  if (code === DEFAULT_LANGUAGE) return source;
  const own = languageStrings(code)[ns] ?? {};
  const out: Record<string, string> = {};
  // The language's own plural forms (ar: key_zero … key_other) may differ from en-GB's.
  const base = (k: string) => k.replace(/_(zero|one|two|few|many|other)$/, '');
  const ownBases = new Set(Object.keys(own).map(base));
  for (const [k, v] of Object.entries(source)) if (!ownBases.has(base(k))) out[k] = v;
  for (const [k, v] of Object.entries(own)) if (typeof v === 'string') out[k] = v;
  return out;
}

let zones: Set<string> | null = null;

/** True for an IANA time zone the runtime knows (UTC included). */
export function isTimeZone(name: string): boolean {
  zones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
  return zones.has(name);
}

/** A key's text in one language: its own, else the plural form (key_one, key_few…) of the count in %1. */
function textOf(lang: string, ns: string, name: string, params: readonly (string | number)[]): string | undefined {
  const strings = languageStrings(lang)[ns];
  return strings?.[name] ?? pluralText(strings, name, lang, params);
}

/** Translates 'namespace:key' with %1, %2 params; an unknown key comes back as the key itself. */
export function translate(key: string, params: (string | number)[] = [], lang = DEFAULT_LANGUAGE): string {
  const [ns, ...rest] = key.split(':');
  const name = rest.join(':');
  const text = textOf(lang, ns!, name, params) ?? (lang === DEFAULT_LANGUAGE ? undefined : textOf(DEFAULT_LANGUAGE, ns!, name, params));
  if (text === undefined) return key;
  return text.replace(/%(\d+)/g, (m, i: string) => (params[Number(i) - 1] !== undefined ? String(params[Number(i) - 1]) : m));
}

/** Replaces every [[namespace:key, param…]] token in a text with its translation. */
export function translateText(text: string, lang = DEFAULT_LANGUAGE): string {
  if (!text.includes('[[')) return text;
  return text.replace(/\[\[([\w-]+:[\w\-./]+)((?:, ?[^\]]*)?)\]\]/g, (_m, key: string, rest: string) => {
    const params = rest ? rest.replace(/^, ?/, '').split(/, ?/) : [];
    return translate(key, params, lang);
  });
}
