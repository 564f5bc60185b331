import { intlLocale } from './languages.js';

/** The CLDR plural suffixes i18next names its keys with (`key_one`, `key_few`, …). */
export const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

const rules = new Map<string, Intl.PluralRules>();

/** The CLDR plural category of `count` in a language ("one", "few", "many", "other", …). */
export function pluralCategory(lang: string, count: number): Intl.LDMLPluralRule {
  let r = rules.get(lang);
  if (!r) rules.set(lang, (r = new Intl.PluralRules(intlLocale(lang))));
  return r.select(count);
}

/** The count of a plural text: its first parameter (%1), when it is a number. */
export function pluralCount(params: readonly (string | number)[]): number | undefined {
  const first = params[0];
  const n = typeof first === 'number' ? first : typeof first === 'string' && /^-?\d+(\.\d+)?$/.test(first.trim()) ? Number(first) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/**
 * The text of a key with plural forms (`name_one`, `name_other`, … in a namespace), for the
 * count in %1: the language's own form for its CLDR category, else its `_other`; undefined when
 * the namespace has no `name_other`.
 */
export function pluralText(strings: Readonly<Record<string, unknown>> | undefined, name: string, lang: string, params: readonly (string | number)[]): string | undefined {
  if (!strings || typeof strings[`${name}_other`] !== 'string') return undefined;
  const count = pluralCount(params);
  const form = count === undefined ? 'other' : pluralCategory(lang, count);
  const text = strings[`${name}_${form}`] ?? strings[`${name}_other`];
  return typeof text === 'string' ? text : undefined;
}
