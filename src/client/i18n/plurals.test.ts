import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../shared/languages';
import { pluralCategory } from '../../shared/plurals';
import { translate as serverTranslate } from '../../server/i18n';
import { formatAbsolute, formatRelative } from '../util/timeago';
import { createI18n, translate } from './index';

// CLDR's examples of each category (unicode.org/cldr/charts, "Language Plural Rules").
const CLDR: Record<string, Record<string, number[]>> = {
  ar: { zero: [0], one: [1], two: [2], few: [3, 10, 103, 110, 1003], many: [11, 26, 99, 111, 1011], other: [100, 101, 102, 200, 1000] },
  pl: { one: [1], few: [2, 3, 4, 22, 23, 24, 102], many: [0, 5, 11, 12, 14, 19, 25, 100, 112], other: [1.5] },
  ru: { one: [1, 21, 31, 101, 1001], few: [2, 3, 4, 22, 24, 102], many: [0, 5, 11, 12, 14, 19, 20, 100, 111], other: [1.5] },
  ja: { other: [0, 1, 2, 5, 11, 100, 1.5] },
  el: { one: [1], other: [0, 2, 3, 16, 100, 1000, 10000, 1.5] },
  hi: { one: [0, 1, 0.5], other: [2, 3, 17, 100, 1000, 1.1, 2.6] },
  id: { other: [0, 1, 2, 15, 100, 1000, 1.5] },
};

const FORMS: Record<string, Record<string, string>> = {
  ar: { zero: 'لا توجد مشاركات (%1)', one: 'مشاركة واحدة', two: 'مشاركتان', few: '%1 مشاركات', many: '%1 مشاركة', other: '%1 مشاركةً' },
  pl: { one: '%1 post', few: '%1 posty', many: '%1 postów', other: '%1 posta' },
  ru: { one: '%1 сообщение', few: '%1 сообщения', many: '%1 сообщений', other: '%1 сообщения (дробь)' },
  ja: { other: '%1件の投稿' },
  el: { one: '%1 ανάρτηση', other: '%1 αναρτήσεις' },
  hi: { one: '%1 पोस्ट (एक)', other: '%1 पोस्ट' },
  id: { other: '%1 kiriman' },
};

const resources = Object.fromEntries(
  Object.entries(FORMS).map(([lang, forms]) => [lang, { topic: Object.fromEntries(Object.entries(forms).map(([cat, text]) => [`posts_${cat}`, text])) }]),
);
resources['en-GB'] = { topic: { posts_one: '%1 post', posts_other: '%1 posts', only_en_one: '%1 reply', only_en_other: '%1 replies' } };

describe('plural forms by the CLDR rules of each language', () => {
  for (const [lang, categories] of Object.entries(CLDR)) {
    it(`${lang}: each of CLDR's examples takes its category's form`, () => {
      const i18n = createI18n(lang, resources);
      for (const [cat, examples] of Object.entries(categories)) {
        for (const n of examples) {
          expect(pluralCategory(lang, n), `${lang} ${n}`).toBe(cat);
          expect(translate(i18n, 'topic:posts', [n]), `${lang} ${n}`).toBe(FORMS[lang]![cat]!.replace('%1', String(n)));
        }
      }
    });
  }

  it("falls back to en-GB's forms, by English rules, for a key the language lacks; a count in a [[…]] string counts too", () => {
    const i18n = createI18n('ar', resources);
    expect(translate(i18n, 'topic:only_en', [1])).toBe('1 reply');
    expect(translate(i18n, 'topic:only_en', [3])).toBe('3 replies');
    expect(translate(createI18n('pl', resources), 'topic:posts', ['22'])).toBe('22 posty');
  });

  it("el, hi and id: the shipped files' plural keys read by each language's CLDR rule (Hindi's one covers 0, Indonesian has only other)", () => {
    expect(serverTranslate('error:title-too-short', [1], 'el')).toBe('Πληκτρολογήστε μεγαλύτερο τίτλο. Οι τίτλοι πρέπει να έχουν τουλάχιστον 1 χαρακτήρα.');
    expect(serverTranslate('error:title-too-short', [0], 'el')).toBe('Πληκτρολογήστε μεγαλύτερο τίτλο. Οι τίτλοι πρέπει να έχουν τουλάχιστον 0 χαρακτήρες.');
    expect(serverTranslate('error:title-too-short', [0], 'hi')).toBe('कृपया लंबा शीर्षक दर्ज करें। शीर्षक में कम से कम 0 अक्षर होना चाहिए।');
    expect(serverTranslate('error:title-too-short', [1], 'hi')).toBe('कृपया लंबा शीर्षक दर्ज करें। शीर्षक में कम से कम 1 अक्षर होना चाहिए।');
    expect(serverTranslate('error:title-too-short', [2], 'hi')).toBe('कृपया लंबा शीर्षक दर्ज करें। शीर्षक में कम से कम 2 अक्षर होने चाहिए।');
    expect(serverTranslate('error:title-too-short', [1], 'id')).toBe('Masukkan judul yang lebih panjang. Judul minimal berisi 1 karakter.');
    expect(serverTranslate('error:title-too-short', [8], 'id')).toBe('Masukkan judul yang lebih panjang. Judul minimal berisi 8 karakter.');
  });

  it("a topic's view and post counts take the language's forms from the shipped files (not \"1 views\")", () => {
    const shipped = (lang: string) => ({ topic: JSON.parse(readFileSync(new URL(`../../../public/language/${lang}/topic.json`, import.meta.url), 'utf8')) as Record<string, string> });
    const en = createI18n('en-GB', { 'en-GB': shipped('en-GB') });
    expect(translate(en, 'topic:view-count', ['1'])).toBe('1 view');
    expect(translate(en, 'topic:view-count', ['2'])).toBe('2 views');
    expect(translate(en, 'topic:post-count', ['1'])).toBe('1 post');
    // A shortened count ("1.2k") is many.
    expect(translate(en, 'topic:view-count', ['1.2k'])).toBe('1.2k views');
    const ru = createI18n('ru', { 'en-GB': shipped('en-GB'), ru: shipped('ru') });
    expect(translate(ru, 'topic:view-count', ['1'])).toBe('1 просмотр');
    expect(translate(ru, 'topic:view-count', ['3'])).toBe('3 просмотра');
    expect(translate(ru, 'topic:view-count', ['5'])).toBe('5 просмотров');
  });

  it('ar: the view and post counts of the shipped files at 0, 1, 2, 3, 11 and 100 say each count once (no "لا مشاهدات (0)")', () => {
    const shipped = (lang: string) => ({ topic: JSON.parse(readFileSync(new URL(`../../../public/language/${lang}/topic.json`, import.meta.url), 'utf8')) as Record<string, string> });
    const ar = createI18n('ar', { 'en-GB': shipped('en-GB'), ar: shipped('ar') });
    // The topic page passes humanReadableNumber's text ("0", "1.2k").
    const say = (key: string, n: number) => translate(ar, `topic:${key}`, [String(n)]);
    expect([0, 1, 2, 3, 11, 100].map((n) => say('view-count', n))).toEqual(['لا مشاهدات', 'مشاهدة واحدة', 'مشاهدتان', '3 مشاهدات', '11 مشاهدة', '100 مشاهدة']);
    expect([0, 1, 2, 3, 11, 100].map((n) => say('post-count', n))).toEqual(['لا مشاركات', 'مشاركة واحدة', 'مشاركتان', '3 مشاركات', '11 مشاركة', '100 مشاركة']);
    expect([0, 1, 2, 3, 11, 100].map((n) => serverTranslate('groups:members-count', [n], 'ar'))).toEqual(['لا أعضاء', 'عضو واحد', 'عضوان', '3 أعضاء', '11 عضوًا', '100 عضو']);
    expect([0, 1, 2, 5].map((n) => serverTranslate('topic:event.fork', [n], 'ar'))).toEqual(['لم يفرّع أي مشاركة إلى موضوع جديد', 'فرّع مشاركة واحدة إلى موضوع جديد', 'فرّع مشاركتين إلى موضوع جديد', 'فرّع 5 مشاركات إلى موضوع جديد']);
  });

  it('no shipped zero, one or two form says its count in words and then the number in brackets ("לא מشاهدات (0)", "צפייה אחת (1)")', () => {
    const found: string[] = [];
    const root = new URL('../../../public/language/', import.meta.url);
    for (const { code } of LANGUAGES) {
      const dir = new URL(`${code}/`, root);
      for (const file of readdirSync(dir)) {
        const strings = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as Record<string, string>;
        // A bracketed count is a style some languages keep in every form ("сообщения (%1)"); in a
        // zero, one or two form alone it is the count said twice.
        const bracketed = (text: string | undefined) => !!text && /[(（]%1[)）]/.test(text);
        for (const [key, text] of Object.entries(strings)) {
          if (/_(zero|one|two)$/.test(key) && bracketed(text) && !bracketed(strings[key.replace(/_(zero|one|two)$/, '_other')])) found.push(`${code}/${file} ${key}: ${text}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it("the server picks the form of the count in en-GB's files (error messages, mails)", () => {
    expect(serverTranslate('error:title-too-short', [1])).toBe('Please enter a longer title. Titles should contain at least 1 character.');
    expect(serverTranslate('error:title-too-short', [8])).toBe('Please enter a longer title. Titles should contain at least 8 characters.');
  });
});

describe('dates in each language', () => {
  const at = Date.UTC(2026, 11, 7, 15, 4);
  it('formats an absolute date in every shipped language, in the reader’s time zone', () => {
    const seen = new Map<string, string>();
    for (const { code } of LANGUAGES) {
      const text = formatAbsolute(at, code, 'UTC');
      expect(text, code).toBeTruthy();
      seen.set(code, text);
    }
    expect(seen.get('de')).toContain('Dez');
    expect(seen.get('fr')).toContain('déc');
    expect(seen.get('ja')).toContain('2026年12月7日');
    expect(seen.get('ru')).toContain('дек');
    expect(seen.get('ar')).toMatch(/ديسمبر/);
    expect(seen.get('el')).toContain('Δεκ');
    expect(seen.get('hi')).toContain('दिस');
    expect(seen.get('id')).toContain('Des 2026');
    expect(seen.get('en-US')).toMatch(/^Dec 7, 2026/);
    expect(seen.get('en-GB')).toMatch(/^7 Dec 2026/);
    // 15:04 UTC is 00:04 the next day in Tokyo.
    expect(formatAbsolute(at, 'ja', 'Asia/Tokyo')).toContain('2026年12月8日');
    expect(new Set(seen.values()).size).toBeGreaterThan(15);
  });

  it('says relative times in the reader’s language', () => {
    const now = at + 3 * 60_000;
    expect(formatRelative(at, now, 'en-GB')).toBe('3 minutes ago');
    expect(formatRelative(at, now, 'de')).toBe('vor 3 Minuten');
    expect(formatRelative(at, now, 'fr')).toBe('il y a 3 minutes');
    expect(formatRelative(at, now, 'ja')).toBe('3 分前');
    expect(formatRelative(at, now, 'pl')).toBe('3 minuty temu');
    expect(formatRelative(at - 2 * 86_400_000, now, 'he')).toBe('שלשום');
    expect(formatRelative(at, now, 'ar')).toMatch(/دقائق/);
    expect(formatRelative(at, now, 'el')).toBe('πριν από 3 λεπτά');
    expect(formatRelative(at, now, 'hi')).toBe('3 मिनट पहले');
    expect(formatRelative(at, now, 'id')).toBe('3 menit yang lalu');
  });
});
