import { createRequire } from 'node:module';
import type { EmojiEntry } from '../../../shared/emoji.js';

export { searchEmoji, type EmojiEntry } from '../../../shared/emoji.js';

interface CompactEmoji {
  hexcode: string;
  label: string;
  unicode: string;
  group?: number;
  order?: number;
  tags?: string[];
}

export interface EmojiTable {
  entries: EmojiEntry[];
  byShortcode: Map<string, string>;
  /** The index as served to the client (compact JSON), with its ETag. */
  json: string;
  etag: string;
}

let table: EmojiTable | null = null;

/** The emoji table from emojibase-data (English names, GitHub and emojibase shortcodes), loaded once. */
export function emojiTable(): EmojiTable {
  if (table) return table;
  const require = createRequire(import.meta.url);
  const compact = require('emojibase-data/en/compact.json') as CompactEmoji[];
  const github = require('emojibase-data/en/shortcodes/github.json') as Record<string, string | string[]>;
  const base = require('emojibase-data/en/shortcodes/emojibase.json') as Record<string, string | string[]>;
  const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  const entries: EmojiEntry[] = [];
  const byShortcode = new Map<string, string>();
  // Regional indicators and skin-tone components (group 2) are not emoji one picks.
  for (const e of [...compact].filter((x) => x.group !== undefined && x.group !== 2).sort((a, b) => (a.order ?? 0) - (b.order ?? 0))) {
    const codes = [...new Set([...list(github[e.hexcode]), ...list(base[e.hexcode])])];
    if (!codes.length) continue;
    for (const c of codes) if (!byShortcode.has(c)) byShortcode.set(c, e.unicode);
    entries.push({ u: e.unicode, s: codes, n: e.label, k: e.tags ?? [] });
  }
  const json = JSON.stringify(entries);
  let hash = 0;
  for (let i = 0; i < json.length; i++) hash = (Math.imul(hash, 31) + json.charCodeAt(i)) | 0;
  table = { entries, byShortcode, json, etag: `"emoji-${(hash >>> 0).toString(36)}-${entries.length}"` };
  return table;
}

/** `:shortcode:` → the emoji, in escaped text (unknown shortcodes stay as written). */
export function replaceShortcodes(text: string, byShortcode: Map<string, string>): string {
  if (!text.includes(':')) return text;
  return text.replace(/:([a-z0-9_+-]{1,50}):/gi, (whole, code: string) => byShortcode.get(code.toLowerCase()) ?? whole);
}
