import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { publicDir, useLanguageRoot } from '../i18n.js';

/**
 * Language files for a test: a folder holding a copy of every shipped language directory and,
 * over them, the given namespaces ({ fr: { email: { … } } }); the server reads its languages
 * from there until `restore()`. Call before starting the forum.
 */
export function languageFixture(files: Record<string, Record<string, Record<string, string>>>): { dir: string; restore(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'palaver-lang-'));
  cpSync(path.join(publicDir, 'language'), dir, { recursive: true });
  for (const [lang, namespaces] of Object.entries(files)) {
    mkdirSync(path.join(dir, lang), { recursive: true });
    for (const [ns, strings] of Object.entries(namespaces)) writeFileSync(path.join(dir, lang, `${ns}.json`), JSON.stringify(strings, null, 2));
  }
  useLanguageRoot(dir);
  return {
    dir,
    restore() {
      useLanguageRoot();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
