#!/usr/bin/env node
// Checks translated language files against the en-GB source.
// Usage: node scripts/check-languages-basic.mjs <code>... [--ref <git-ref>]
// Source: public/language/en-GB of <git-ref> (default: the working tree).
// Checks per namespace: the file parses; the keys are en-GB's keys in the same order
// (a plural group key_one/key_other becomes exactly the CLDR categories of the language);
// the multisets of %n placeholders, [[ns:key]] references, {name} tokens and HTML tags
// equal en-GB's (zero/one/two plural forms may leave out a placeholder).
// Warns (does not fail) on values identical to en-GB.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
let ref = null;
const codes = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--ref') ref = args[++i];
  else codes.push(args[i]);
}
const root = new URL('..', import.meta.url).pathname;
const langDir = join(root, 'public/language');

function sourceNamespaces() {
  if (!ref) return readdirSync(join(langDir, 'en-GB')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
  const out = execFileSync('git', ['-C', root, 'ls-tree', '--name-only', `${ref}:public/language/en-GB/`], { encoding: 'utf8' });
  return out.split('\n').filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
}
function sourceText(ns) {
  if (!ref) return readFileSync(join(langDir, 'en-GB', `${ns}.json`), 'utf8');
  return execFileSync('git', ['-C', root, 'show', `${ref}:public/language/en-GB/${ns}.json`], { encoding: 'utf8' });
}

const CATS = ['zero', 'one', 'two', 'few', 'many', 'other'];
const pluralRe = new RegExp(`^(.*)_(${CATS.join('|')})$`);

function tokens(s) {
  const t = [];
  for (const m of s.matchAll(/%\d+/g)) t.push(m[0]);
  for (const m of s.matchAll(/\[\[[^\]]*\]\]/g)) t.push(m[0]);
  for (const m of s.matchAll(/\{[A-Za-z_][\w.]*\}/g)) t.push(m[0]);
  for (const m of s.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g)) t.push(`<${m[0].startsWith('</') ? '/' : ''}${m[1].toLowerCase()}>`);
  return t.sort();
}
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const subset = (a, b) => {
  const rest = [...b];
  for (const x of a) {
    const i = rest.indexOf(x);
    if (i < 0) return false;
    rest.splice(i, 1);
  }
  return true;
};

let failures = 0;
let warnings = 0;
const fail = (msg) => { failures++; console.log(`FAIL ${msg}`); };

for (const code of codes) {
  const cats = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
  const ordered = CATS.filter((c) => cats.includes(c));
  const namespaces = sourceNamespaces();
  const present = existsSync(join(langDir, code)) ? readdirSync(join(langDir, code)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)) : [];
  for (const extra of present.filter((n) => !namespaces.includes(n))) fail(`${code}/${extra}.json: not in en-GB`);
  for (const ns of namespaces) {
    const file = join(langDir, code, `${ns}.json`);
    if (!existsSync(file)) { fail(`${code}/${ns}.json: missing`); continue; }
    let src, tr;
    src = JSON.parse(sourceText(ns));
    try { tr = JSON.parse(readFileSync(file, 'utf8')); } catch (e) { fail(`${code}/${ns}.json: does not parse: ${e.message}`); continue; }
    // expected keys, plural groups expanded
    const expected = []; // [key, sourceValueForTokens, optionalTokens]
    const seenGroups = new Set();
    const srcKeys = Object.keys(src);
    for (const k of srcKeys) {
      const m = k.match(pluralRe);
      if (m && srcKeys.includes(`${m[1]}_other`)) {
        if (seenGroups.has(m[1])) continue;
        seenGroups.add(m[1]);
        const other = src[`${m[1]}_other`];
        for (const c of ordered) expected.push([`${m[1]}_${c}`, other, ['zero', 'one', 'two'].includes(c), src[`${m[1]}_${c}`]]);
      } else expected.push([k, src[k], false, src[k]]);
    }
    const trKeys = Object.keys(tr);
    const exp = expected.map((e) => e[0]);
    for (const k of exp) if (!(k in tr)) fail(`${code}/${ns}: missing key ${k}`);
    for (const k of trKeys) if (!exp.includes(k)) fail(`${code}/${ns}: extra key ${k}`);
    if (trKeys.length === exp.length && exp.every((k) => k in tr) && !same(trKeys, exp)) fail(`${code}/${ns}: keys not in en-GB's order`);
    for (const [k, sv, optional, literal] of expected) {
      if (!(k in tr)) continue;
      const v = tr[k];
      if (typeof v !== 'string') { fail(`${code}/${ns}: ${k} is not a string`); continue; }
      const a = tokens(v);
      const b = tokens(sv);
      if (optional ? !subset(a, b) : !same(a, b)) fail(`${code}/${ns}: ${k}: tokens ${JSON.stringify(a)} differ from en-GB ${JSON.stringify(b)}`);
      if (!code.startsWith('en') && literal !== undefined && v === literal && /[a-z]{4,}/i.test(v)) { warnings++; console.log(`warn ${code}/${ns}: ${k} equals en-GB: ${JSON.stringify(v)}`); }
    }
  }
}
console.log(`${failures} failure(s), ${warnings} warning(s)`);
process.exit(failures ? 1 : 0);
