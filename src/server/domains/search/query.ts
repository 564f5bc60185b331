import { badRequest } from '../../http/errors.js';

/** The longest search text accepted (characters); longer is a 400, never a slow query. */
export const MAX_QUERY_LENGTH = 500;
/** Terms beyond this many are ignored (each one costs an index lookup). */
export const MAX_TERMS = 12;

/** One thing to find: a word, or a "quoted phrase" that must appear as written. */
export interface Term {
  text: string;
  phrase: boolean;
}

/**
 * Splits what a member typed into terms: "quoted phrases" stay whole, the rest splits on
 * white space. Nothing of it is ever passed to a database as query syntax: the stores quote
 * every term themselves, so `"`, `*`, `OR`, `NEAR(`, `'` and `\` are only text to find.
 */
export function parseTerms(input: string): Term[] {
  if (input.length > MAX_QUERY_LENGTH) throw badRequest('error:search-term-too-long', MAX_QUERY_LENGTH);
  // Control characters never help a search and some break tokenizers.
  const text = input.normalize('NFC').replace(/\p{Cc}/gu, ' ');
  const terms: Term[] = [];
  const seen = new Set<string>();
  const add = (raw: string, phrase: boolean) => {
    const t = raw.replace(/\s+/g, ' ').trim();
    // A term needs a letter or a digit: "*" or "(" alone finds nothing anyway.
    if (!t || !/[\p{L}\p{N}]/u.test(t)) return;
    const key = `${phrase ? 'p' : 'w'}:${t.toLowerCase()}`;
    if (seen.has(key) || terms.length >= MAX_TERMS) return;
    seen.add(key);
    terms.push({ text: t, phrase });
  };
  const re = /"([^"]*)"|(\S+)/g;
  for (const m of text.matchAll(re)) {
    if (m[1] !== undefined) add(m[1], true);
    else add(m[2]!.replace(/^"+|"+$/g, ''), false);
  }
  return terms;
}

/** Quotes a term as an FTS5 string (its only special character is the double quote). */
export function fts5String(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** Escapes LIKE's wild cards (with `ESCAPE '\'`). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Trigram indexes match substrings of three characters or more; shorter ones need LIKE. */
export function trigramReady(text: string): boolean {
  return [...text].length >= 3;
}

/**
 * The words to mark in a snippet: each term, and for single words their stem-like prefix, so
 * "running" also marks "runs" found by the stemmer.
 */
export function highlightTerms(terms: Term[]): string[] {
  const out = new Set<string>();
  for (const t of terms) {
    out.add(t.text.toLowerCase());
    if (!t.phrase && /^[a-z]{6,}$/i.test(t.text)) out.add(t.text.toLowerCase().slice(0, Math.max(4, t.text.length - 3)));
  }
  return [...out].sort((a, b) => b.length - a.length);
}
