import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL's text-search configuration for each shipped language that has one (its stemmer
 * and stop words); the others, and any configuration the server lacks, use `simple` (words as
 * written, lower-cased), and every language keeps the trigram match for parts of words (CJK,
 * compounds). Polish, Czech, Ukrainian, Hebrew, Persian and the CJK languages have no
 * configuration in PostgreSQL.
 */
export const PG_TEXT_SEARCH: Readonly<Record<string, string>> = {
  'en-GB': 'english',
  'en-US': 'english',
  de: 'german',
  fr: 'french',
  es: 'spanish',
  it: 'italian',
  'pt-BR': 'portuguese',
  nl: 'dutch',
  sv: 'swedish',
  tr: 'turkish',
  ru: 'russian',
  el: 'greek',
  ar: 'arabic',
  hi: 'hindi',
  id: 'indonesian',
};

/** The configuration a language asks for (before checking that the server has it). */
export function wantedTextSearchConfig(lang: string): string {
  return PG_TEXT_SEARCH[lang] ?? 'simple';
}

/** The configurations this PostgreSQL server has (pg_ts_config), read once per database handle. */
const available = new WeakMap<object, Promise<Set<string>>>();

/** The configuration for a language on this server: its own where the server has it, else `simple`. */
/* Any database handle: the migrations import this module, so it does not import db/index.js. */
export async function textSearchConfig(db: Kysely<any>, lang: string): Promise<string> {
  let names = available.get(db);
  if (!names) {
    names = sql<{ cfgname: string }>`SELECT cfgname FROM pg_ts_config`.execute(db).then((r) => new Set(r.rows.map((row) => row.cfgname)));
    available.set(db, names);
    names.catch(() => available.delete(db));
  }
  const wanted = wantedTextSearchConfig(lang);
  return (await names).has(wanted) ? wanted : 'simple';
}
