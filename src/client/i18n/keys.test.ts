import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN_NAMESPACES, NAMESPACES as PUBLIC } from './index';

const NAMESPACES = [...PUBLIC, ...ADMIN_NAMESPACES];

const root = join(import.meta.dirname, '../../..');
const langDir = join(root, 'public/language/en-GB');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

const dict = (ns: string): Record<string, string> => JSON.parse(readFileSync(join(langDir, `${ns}.json`), 'utf8')) as Record<string, string>;

// Keys built at run time, listed so they are checked too.
const DYNAMIC = [
  ...['recent', 'popular', 'top', 'unread', 'tag'].map((n) => `pages:${n}`),
  ...['400', '403', '404', '500'].flatMap((s) => [`pages:${s}.title`, `pages:${s}.message`]),
  ...['day', 'week', 'month', 'alltime'].map((term) => `recent:${term}`),
  ...['topics.post', 'posts.reply', 'posts.edit'].map((a) => `global:drafts.${a}`),
  ...[0, 1, 2, 3, 4].map((n) => `register:strength-${n}`),
  ...['online', 'offline', 'dnd', 'away'].map((s) => `global:status.${s}`),
  'modules:composer.write', 'modules:composer.preview',
];

describe('translations', () => {
  it('has a file for every namespace the client loads', () => {
    for (const ns of NAMESPACES) expect(() => dict(ns), ns).not.toThrow();
  });
  it('defines every key the client uses', () => {
    const used = new Set(DYNAMIC);
    for (const file of sources(join(root, 'src/client'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/['`]([a-z_-]+):([a-zA-Z0-9._-]+)['`]/g)) {
        if ((NAMESPACES as readonly string[]).includes(m[1]!)) used.add(`${m[1]}:${m[2]}`);
      }
    }
    const missing = [...used].filter((key) => {
      const [ns, k] = key.split(/:(.*)/) as [string, string];
      // A key with plural forms is used by its base name (key_one, key_other… in the file).
      return !(k in dict(ns)) && !(`${k}_other` in dict(ns));
    });
    expect(missing).toEqual([]);
  });
});
