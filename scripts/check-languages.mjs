#!/usr/bin/env node
// Checks every language directory of public/language against en-GB (the source): a missing or
// extra namespace or key, a %n placeholder set that differs, [[ns:key]] markers that differ,
// plural forms that are not the language's CLDR categories, a value that is not a string,
// invalid JSON, or a directory that is not a shipped language. Exits 1 on any problem.
// Usage: node scripts/check-languages.mjs [language-root]   (npm run check:languages)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(process.argv[2] ?? path.join(here, '../public/language'));
const SOURCE = 'en-GB';
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** The shipped languages (code → Intl locale), read from src/shared/languages.ts. */
function shipped() {
  const text = readFileSync(path.join(here, '../src/shared/languages.ts'), 'utf8');
  const out = new Map();
  for (const m of text.matchAll(/\{ code: '([^']+)', name: '[^']*', dir: '(?:ltr|rtl)', locale: '([^']+)' \}/g)) out.set(m[1], m[2]);
  return out;
}

const problems = [];
const report = (lang, ns, msg) => problems.push(`${lang}/${ns}.json: ${msg}`);

function readNamespace(lang, file) {
  let data;
  try {
    data = JSON.parse(readFileSync(path.join(root, lang, file), 'utf8'));
  } catch (err) {
    report(lang, file.replace(/\.json$/, ''), `invalid JSON (${err.message})`);
    return null;
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    report(lang, file.replace(/\.json$/, ''), 'not an object of keys');
    return null;
  }
  return data;
}

const placeholders = (s) => [...new Set(s.match(/%\d+/g) ?? [])].sort().join(',');
const markers = (s) => [...(s.match(/\[\[[\w-]+:[\w\-./]+/g) ?? [])].sort().join(',');

/** The namespaces of a language directory, parsed (a broken one is reported and left out). */
function load(lang) {
  const out = new Map();
  for (const file of readdirSync(path.join(root, lang))) {
    if (!file.endsWith('.json')) continue;
    const data = readNamespace(lang, file);
    if (data) out.set(file.slice(0, -5), data);
  }
  return out;
}

const languages = shipped();
const source = load(SOURCE);
const sourcePlural = (ns) => new Set(Object.keys(source.get(ns) ?? {}).filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, '')));

// en-GB itself: strings only, and its plural keys in English's forms (one, other).
for (const [ns, data] of source) {
  for (const [k, v] of Object.entries(data)) if (typeof v !== 'string') report(SOURCE, ns, `${k}: not a string`);
  for (const base of sourcePlural(ns)) {
    for (const cat of ['one', 'other']) if (!(`${base}_${cat}` in data)) report(SOURCE, ns, `${base}: no ${base}_${cat}`);
  }
}

for (const lang of readdirSync(root).sort()) {
  if (lang === SOURCE || !statSync(path.join(root, lang)).isDirectory()) continue;
  const locale = languages.get(lang);
  if (!locale) {
    problems.push(`${lang}/: not a shipped language (src/shared/languages.ts)`);
    continue;
  }
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  const own = load(lang);
  for (const ns of own.keys()) if (!source.has(ns)) report(lang, ns, `extra namespace (en-GB has no ${ns}.json)`);
  for (const [ns, en] of source) {
    if (!existsSync(path.join(root, lang, `${ns}.json`))) {
      report(lang, ns, 'missing namespace');
      continue;
    }
    const data = own.get(ns);
    if (!data) continue;
    const plurals = sourcePlural(ns);
    const expected = new Map();
    for (const [k, v] of Object.entries(en)) {
      if (PLURAL.test(k) && plurals.has(k.replace(PLURAL, ''))) continue;
      expected.set(k, v);
    }
    // A plural key: the language's own CLDR forms, each with en-GB's "other" placeholders (or fewer: "one" may spell the number).
    for (const base of plurals) for (const cat of categories) expected.set(`${base}_${cat}`, en[`${base}_other`]);
    for (const [k, v] of Object.entries(data)) {
      if (!expected.has(k)) {
        report(lang, ns, PLURAL.test(k) && plurals.has(k.replace(PLURAL, '')) ? `${k}: not a plural form of ${locale} (its forms: ${categories.join(', ')})` : `${k}: extra key`);
        continue;
      }
      if (typeof v !== 'string') {
        report(lang, ns, `${k}: not a string`);
        continue;
      }
      const want = expected.get(k);
      const isForm = PLURAL.test(k) && plurals.has(k.replace(PLURAL, ''));
      const got = placeholders(v);
      if (isForm && !k.endsWith('_other')) {
        const allowed = new Set(placeholders(want).split(',').filter(Boolean));
        if (got.split(',').some((p) => p && !allowed.has(p))) report(lang, ns, `${k}: placeholders ${got} not among en-GB's ${placeholders(want)}`);
      } else if (got !== placeholders(want)) {
        report(lang, ns, `${k}: placeholders "${got}" differ from en-GB's "${placeholders(want)}"`);
      }
      if (markers(v) !== markers(want)) report(lang, ns, `${k}: [[…]] markers differ from en-GB's`);
    }
    for (const k of expected.keys()) if (!(k in data)) report(lang, ns, `${k}: missing key`);
  }
}

if (problems.length) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} problem(s) in the language files.`);
  process.exit(1);
}
console.log(`language files: ${readdirSync(root).filter((d) => statSync(path.join(root, d)).isDirectory()).length} language(s) checked against en-GB, no problems`);
