import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const script = path.join(import.meta.dirname, '../../scripts/check-languages.mjs');
const dirs: string[] = [];

/** A language root of the given files: { 'en-GB': { global: {…} }, fr: { global: '{broken' } }. */
function root(files: Record<string, Record<string, Record<string, unknown> | string>>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'palaver-langcheck-'));
  dirs.push(dir);
  for (const [lang, namespaces] of Object.entries(files)) {
    mkdirSync(path.join(dir, lang));
    for (const [ns, data] of Object.entries(namespaces)) writeFileSync(path.join(dir, lang, `${ns}.json`), typeof data === 'string' ? data : JSON.stringify(data));
  }
  return dir;
}
const check = (dir: string) => {
  const run = spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const EN = { global: { home: 'Home', greet: 'Hello %1, see [[global:home]]', posts_one: '%1 post', posts_other: '%1 posts' } };

describe('scripts/check-languages.mjs', () => {
  it("passes the shipped files, and a language with every key and its own plural forms", () => {
    expect(check(path.join(import.meta.dirname, '../../public/language')).code).toBe(0);
    const ok = root({
      'en-GB': EN,
      ja: { global: { home: 'ホーム', greet: '%1さん、[[global:home]]', posts_other: '%1件の投稿' } },
      pl: { global: { home: 'Start', greet: 'Cześć %1, [[global:home]]', posts_one: 'jeden post', posts_few: '%1 posty', posts_many: '%1 postów', posts_other: '%1 posta' } },
    });
    expect(check(ok)).toMatchObject({ code: 0 });
  });

  it('fails on a missing key, an extra key, other placeholders or markers, wrong plural forms, invalid JSON, an unknown language', () => {
    const bad = root({
      'en-GB': EN,
      fr: { global: { home: 'Accueil', greet: 'Bonjour %2, [[global:home]]', posts_one: '%1 message', posts_other: '%1 messages', extra: 'x' } },
      de: { global: { home: 'Start', greet: 'Hallo %1', posts_one: '%1 Beitrag', posts_other: '%1 Beiträge' } },
      ar: { global: { home: 'الرئيسية', greet: 'مرحبا %1 [[global:home]]', posts_one: '%1', posts_other: '%1' } },
      ru: { global: '{"home": ' },
      xx: { global: { home: 'x' } },
      it: { global: { home: 'Home', greet: 'Ciao %1 [[global:home]]' } },
    });
    const { code, out } = check(bad);
    expect(code).toBe(1);
    expect(out).toContain('fr/global.json: greet: placeholders "%2" differ');
    expect(out).toContain('fr/global.json: extra: extra key');
    expect(out).toContain('de/global.json: greet: [[…]] markers differ');
    expect(out).toContain('ar/global.json: posts_few: missing key');
    expect(out).toContain('ar/global.json: posts_zero: missing key');
    expect(out).toContain('ru/global.json: invalid JSON');
    expect(out).toContain('xx/: not a shipped language');
    expect(out).toContain('it/global.json: posts_other: missing key');
  });
});
