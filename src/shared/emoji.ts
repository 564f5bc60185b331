/** One emoji of the autocomplete index: its character, shortcodes (first = main) and keywords. */
export interface EmojiEntry {
  /** The Unicode character(s). */
  u: string;
  /** Shortcodes without colons, the main one first. */
  s: string[];
  /** The English name. */
  n: string;
  /** Keywords (emojibase tags). */
  k: string[];
}

/** Searches by shortcode, name and keyword: exact shortcode, then shortcode prefix, then the rest. */
export function searchEmoji(entries: readonly EmojiEntry[], query: string, limit = 10): EmojiEntry[] {
  const q = query.toLowerCase();
  if (!q) return entries.slice(0, limit);
  const scored: [number, number, EmojiEntry][] = [];
  entries.forEach((e, i) => {
    const name = e.n.toLowerCase();
    let score = -1;
    if (e.s.includes(q)) score = 0;
    else if (e.s.some((s) => s.startsWith(q))) score = 1;
    else if (name.startsWith(q) || e.k.includes(q)) score = 2;
    else if (e.s.some((s) => s.includes(q)) || name.includes(q) || e.k.some((k) => k.startsWith(q))) score = 3;
    if (score >= 0) scored.push([score, i, e]);
  });
  return scored
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .slice(0, limit)
    .map((x) => x[2]);
}
