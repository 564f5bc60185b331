import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LANGUAGE } from '../shared/constants.js';

/** The repository's public/ folder, whether running from src/ or dist/. */
export const publicDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../public');

const cache = new Map<string, Record<string, Record<string, string>>>();

/** Every namespace of a language, read once from public/language/<lang>/. */
export function languageStrings(lang = DEFAULT_LANGUAGE): Record<string, Record<string, string>> {
  let strings = cache.get(lang);
  if (strings) return strings;
  strings = {};
  const dir = path.join(publicDir, 'language', lang);
  if (existsSync(dir)) {
    for (const file of readdirSync(dir)) {
      if (!file.endsWith('.json')) continue;
      strings[file.slice(0, -5)] = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Record<string, string>;
    }
  }
  cache.set(lang, strings);
  return strings;
}

let installed: string[] | null = null;

/** The languages the forum has (the folders of public/language), read once. */
export function installedLanguages(): string[] {
  if (!installed) {
    const dir = path.join(publicDir, 'language');
    installed = existsSync(dir) ? readdirSync(dir).filter((name) => /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(name) && existsSync(path.join(dir, name, 'global.json'))).sort() : [DEFAULT_LANGUAGE];
  }
  return installed;
}

/** A language's own name for itself ("English (United Kingdom)"), from the runtime's locale data. */
export function languageName(code: string): string {
  try {
    return new Intl.DisplayNames([code], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

let zones: Set<string> | null = null;

/** True for an IANA time zone the runtime knows (UTC included). */
export function isTimeZone(name: string): boolean {
  zones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
  return zones.has(name);
}

/** Translates 'namespace:key' with %1, %2 params; an unknown key comes back as the key itself. */
export function translate(key: string, params: (string | number)[] = [], lang = DEFAULT_LANGUAGE): string {
  const [ns, ...rest] = key.split(':');
  const text = languageStrings(lang)[ns!]?.[rest.join(':')];
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
