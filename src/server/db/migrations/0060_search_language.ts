import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';
import { wantedTextSearchConfig } from '../../domains/search/text-config.js';

/**
 * PostgreSQL's search index in the forum's language (issue 56): each document carries the
 * text-search configuration it was indexed with (`search_docs.config`, its default the forum
 * language's: german, french, russian …, `simple` where PostgreSQL has none) and its tsvectors
 * are generated with it. A change of the forum's language re-indexes the documents with the new
 * configuration (the `search.language` job, search/service.ts). SQLite's index is unchanged
 * (unicode61 words and trigrams fit every language).
 */
export function searchLanguage(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect !== 'postgres') return;
      const stored = await sql<{ value: string }>`SELECT value FROM settings WHERE key = 'defaultLang'`.execute(db);
      let lang = 'en-GB';
      try {
        if (stored.rows[0]) lang = String(JSON.parse(stored.rows[0].value));
      } catch {
        // A hand-edited value that is not JSON: the default language.
      }
      const wanted = wantedTextSearchConfig(lang);
      const has = await sql<{ n: number }>`SELECT 1 AS n FROM pg_ts_config WHERE cfgname = ${wanted}`.execute(db);
      const config = has.rows.length ? wanted : 'simple';
      await sql.raw(`ALTER TABLE search_docs ADD COLUMN config regconfig NOT NULL DEFAULT '${config}'::regconfig`).execute(db);
      // The generated columns (and their GIN indexes) again, now by each document's configuration.
      await sql`ALTER TABLE search_docs DROP COLUMN tsv_title, DROP COLUMN tsv_content`.execute(db);
      await sql`ALTER TABLE search_docs
        ADD COLUMN tsv_title tsvector GENERATED ALWAYS AS (to_tsvector(config, title)) STORED,
        ADD COLUMN tsv_content tsvector GENERATED ALWAYS AS (to_tsvector(config, content)) STORED`.execute(db);
      await sql`CREATE INDEX search_docs_tsv_title ON search_docs USING gin (tsv_title)`.execute(db);
      await sql`CREATE INDEX search_docs_tsv_content ON search_docs USING gin (tsv_content)`.execute(db);
    },
    async down(db: Kysely<any>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`ALTER TABLE search_docs DROP COLUMN tsv_title, DROP COLUMN tsv_content`.execute(db);
      await sql`ALTER TABLE search_docs DROP COLUMN config`.execute(db);
      await sql`ALTER TABLE search_docs
        ADD COLUMN tsv_title tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, title)) STORED,
        ADD COLUMN tsv_content tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, content)) STORED`.execute(db);
      await sql`CREATE INDEX search_docs_tsv_title ON search_docs USING gin (tsv_title)`.execute(db);
      await sql`CREATE INDEX search_docs_tsv_content ON search_docs USING gin (tsv_content)`.execute(db);
    },
  };
}
