/** Server texts carry translation keys as "[[namespace:key, arg1, arg2]]". */
const BRACKETS = /\[\[([a-zA-Z0-9_-]+:[^\],]+)((?:,[^\]]*)?)\]\]/g;

/** Replaces every [[ns:key, args]] in a text with its translation from `lookup`. */
export function translateBrackets(text: string, lookup: (key: string, args: string[]) => string): string {
  if (!text || !text.includes('[[')) return text;
  return text.replace(BRACKETS, (_m, key: string, rest: string) => {
    const args = rest ? rest.slice(1).split(',').map((a) => a.trim()) : [];
    return lookup(key.trim(), args);
  });
}

/** Fills NodeBB-style %1, %2 placeholders. */
export function fillArgs(text: string, args: readonly (string | number)[]): string {
  return text.replace(/%(\d+)/g, (m, n: string) => {
    const v = args[Number(n) - 1];
    return v === undefined ? m : String(v);
  });
}

/** True when a text is exactly one bracketed key. */
export function isBracketKey(text: string): boolean {
  return /^\[\[[^\]]+\]\]$/.test(text.trim());
}
