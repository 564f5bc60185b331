import { readFileSync } from 'node:fs';
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
}

/** The index as served to the client (compact JSON, UTF-8), with its ETag. */
export interface EmojiIndex {
  body: Buffer;
  etag: string;
}

let shortcodes: Map<string, string> | null = null;
let index: EmojiIndex | null = null;

/**
 * One of emojibase-data's files, parsed. Read, not `require`d: require's cache would keep the
 * three parsed files (1.6 MB of heap) for the life of the process, where the forum keeps only
 * the shortcode map (posts) and, once the client asks for it, the served index.
 */
function readData<T>(file: string): T {
  const require = createRequire(import.meta.url);
  return JSON.parse(readFileSync(require.resolve(`emojibase-data/${file}`), 'utf8')) as T;
}

/** The emoji table from emojibase-data (English names, GitHub and emojibase shortcodes), made anew. */
export function emojiTable(): EmojiTable {
  const compact = readData<CompactEmoji[]>('en/compact.json');
  const github = readData<Record<string, string | string[]>>('en/shortcodes/github.json');
  const base = readData<Record<string, string | string[]>>('en/shortcodes/emojibase.json');
  const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  const entries: EmojiEntry[] = [];
  const byShortcode = new Map<string, string>();
  // Regional indicators and skin-tone components (group 2) are not emoji one picks.
  for (const e of compact.filter((x) => x.group !== undefined && x.group !== 2).sort((a, b) => (a.order ?? 0) - (b.order ?? 0))) {
    const codes = [...new Set([...list(github[e.hexcode]), ...list(base[e.hexcode])])];
    if (!codes.length) continue;
    for (const c of codes) if (!byShortcode.has(c)) byShortcode.set(c, e.unicode);
    entries.push({ u: e.unicode, s: codes, n: e.label, k: e.tags ?? [] });
  }
  return { entries, byShortcode };
}

/** `:shortcode:` → emoji, for rendering posts: made at start and kept. */
export function emojiShortcodes(): Map<string, string> {
  return (shortcodes ??= emojiTable().byShortcode);
}

/** The index the client loads for `:` autocomplete and the picker: made on its first request and kept. */
export function emojiIndex(): EmojiIndex {
  if (index) return index;
  const { entries } = emojiTable();
  const json = JSON.stringify(entries);
  let hash = 0;
  for (let i = 0; i < json.length; i++) hash = (Math.imul(hash, 31) + json.charCodeAt(i)) | 0;
  index = { body: Buffer.from(json), etag: `"emoji-${(hash >>> 0).toString(36)}-${entries.length}"` };
  return index;
}

/** `:shortcode:` → the emoji, in escaped text (unknown shortcodes stay as written). */
export function replaceShortcodes(text: string, byShortcode: Map<string, string>): string {
  if (!text.includes(':')) return text;
  return text.replace(/:([a-z0-9_+-]{1,50}):/gi, (whole, code: string) => byShortcode.get(code.toLowerCase()) ?? whole);
}
