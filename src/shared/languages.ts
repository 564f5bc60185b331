/** One language Palaver ships: its code (the folder under public/language), its own name, its direction and the Intl locale of its numbers, dates and plurals. */
export interface LanguageInfo {
  code: string;
  /** The language's name in itself, as its readers look for it in a menu. */
  name: string;
  dir: 'ltr' | 'rtl';
  /** The BCP 47 locale given to Intl (PluralRules, DateTimeFormat, RelativeTimeFormat, NumberFormat). */
  locale: string;
}

/** The languages Palaver ships (issue 56), en-GB first (the source of every other file). */
export const LANGUAGES: readonly LanguageInfo[] = Object.freeze([
  { code: 'en-GB', name: 'English (United Kingdom)', dir: 'ltr', locale: 'en-GB' },
  { code: 'en-US', name: 'English (United States)', dir: 'ltr', locale: 'en-US' },
  { code: 'de', name: 'Deutsch', dir: 'ltr', locale: 'de' },
  { code: 'fr', name: 'Français', dir: 'ltr', locale: 'fr' },
  { code: 'es', name: 'Español', dir: 'ltr', locale: 'es' },
  { code: 'it', name: 'Italiano', dir: 'ltr', locale: 'it' },
  { code: 'pt-BR', name: 'Português (Brasil)', dir: 'ltr', locale: 'pt-BR' },
  { code: 'nl', name: 'Nederlands', dir: 'ltr', locale: 'nl' },
  { code: 'pl', name: 'Polski', dir: 'ltr', locale: 'pl' },
  { code: 'cs', name: 'Čeština', dir: 'ltr', locale: 'cs' },
  { code: 'sv', name: 'Svenska', dir: 'ltr', locale: 'sv' },
  { code: 'tr', name: 'Türkçe', dir: 'ltr', locale: 'tr' },
  { code: 'ru', name: 'Русский', dir: 'ltr', locale: 'ru' },
  { code: 'uk', name: 'Українська', dir: 'ltr', locale: 'uk' },
  { code: 'el', name: 'Ελληνικά', dir: 'ltr', locale: 'el' },
  { code: 'ar', name: 'العربية', dir: 'rtl', locale: 'ar' },
  { code: 'he', name: 'עברית', dir: 'rtl', locale: 'he' },
  { code: 'fa', name: 'فارسی', dir: 'rtl', locale: 'fa' },
  { code: 'hi', name: 'हिन्दी', dir: 'ltr', locale: 'hi' },
  { code: 'ja', name: '日本語', dir: 'ltr', locale: 'ja' },
  { code: 'ko', name: '한국어', dir: 'ltr', locale: 'ko' },
  { code: 'zh-CN', name: '简体中文', dir: 'ltr', locale: 'zh-CN' },
  { code: 'zh-TW', name: '繁體中文', dir: 'ltr', locale: 'zh-TW' },
  { code: 'id', name: 'Bahasa Indonesia', dir: 'ltr', locale: 'id' },
] satisfies LanguageInfo[]);

const byCode = new Map(LANGUAGES.map((l) => [l.code.toLowerCase(), l]));

/** The shipped language of this code (any letter case), or undefined. */
export function languageInfo(code: string | undefined | null): LanguageInfo | undefined {
  return code ? byCode.get(code.toLowerCase()) : undefined;
}

/** The text direction of a language: rtl for Arabic, Hebrew and Persian. */
export function languageDir(code: string | undefined | null): 'ltr' | 'rtl' {
  return languageInfo(code)?.dir ?? 'ltr';
}

/** The Intl locale of a language code (the code itself for one Palaver does not ship). */
export function intlLocale(code: string | undefined | null): string {
  return languageInfo(code)?.locale ?? code ?? 'en-GB';
}

/**
 * The best of `offered` for an Accept-Language header, by its q-values: an exact match
 * ("pt-BR"), else the same base language ("de-AT" → "de", "zh-Hant-TW" → "zh-TW", "en" → the
 * first offered English), else undefined.
 */
export function pickLanguage(header: string | undefined | null, offered: readonly string[]): string | undefined {
  if (!header) return undefined;
  const wanted = header
    .split(',')
    .slice(0, 32)
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim().toLowerCase(), q: Number.isFinite(weight) ? weight : 0, i };
    })
    .filter((w) => w.tag && w.tag !== '*' && w.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  const lower = offered.map((o) => o.toLowerCase());
  for (const { tag } of wanted) {
    const exact = lower.indexOf(tag);
    if (exact >= 0) return offered[exact];
    const parts = tag.split('-');
    const base = parts[0]!;
    // Chinese: the script or region tells simplified from traditional.
    if (base === 'zh') {
      const traditional = parts.some((p) => p === 'hant' || p === 'tw' || p === 'hk' || p === 'mo');
      const pick = lower.indexOf(traditional ? 'zh-tw' : 'zh-cn');
      if (pick >= 0) return offered[pick];
    }
    const same = lower.findIndex((o) => o === base || o.split('-')[0] === base);
    if (same >= 0) return offered[same];
  }
  return undefined;
}

/** The name of the cookie that keeps a guest's choice from the footer's language menu. */
export const LANGUAGE_COOKIE = 'palaver_lang';
