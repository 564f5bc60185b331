import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Full-text search. Every post is one document (rowid / key = pid): its markdown and, for a
 * topic's main post, the topic's title. Database triggers keep the documents in step with
 * `posts` and `topics` inside the writing transaction, so no create, edit, purge, move or
 * merge (whichever domain makes it) can leave the index behind; deleted state, category,
 * author and tags are read from the live rows when searching.
 *
 * SQLite: two FTS5 tables over the same text, one by words (unicode61 with the porter
 * stemmer: "running" finds "run", Arabic and other spaced scripts by word) and one by
 * trigrams (substrings: CJK without spaces, German compounds, partial words).
 * PostgreSQL: one table with generated `tsvector`s (english stemming) and `pg_trgm` GIN
 * indexes for the substring matches.
 */
export function search(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect === 'postgres') await upPostgres(db);
      else await upSqlite(db);
    },
    async down(db: Kysely<any>): Promise<void> {
      if (dialect === 'postgres') {
        await sql`DROP TRIGGER IF EXISTS search_posts_sync ON posts`.execute(db);
        await sql`DROP TRIGGER IF EXISTS search_topics_sync ON topics`.execute(db);
        await sql`DROP FUNCTION IF EXISTS search_posts_sync()`.execute(db);
        await sql`DROP FUNCTION IF EXISTS search_topics_sync()`.execute(db);
        await sql`DROP TABLE IF EXISTS search_docs`.execute(db);
      } else {
        for (const t of ['search_posts_ai', 'search_posts_au', 'search_posts_ad', 'search_topics_au']) await sql.raw(`DROP TRIGGER IF EXISTS ${t}`).execute(db);
        await sql`DROP TABLE IF EXISTS search_words`.execute(db);
        await sql`DROP TABLE IF EXISTS search_grams`.execute(db);
      }
      await sql`DROP TABLE IF EXISTS search_counts`.execute(db);
    },
  };
}

/** The title a post carries in the index: its topic's, when it is the main post. */
const TITLE_OF = (pid: string, tid: string) => `coalesce((SELECT title FROM topics WHERE tid = ${tid} AND main_pid = ${pid}), '')`;

async function upSqlite(db: Kysely<any>): Promise<void> {
  await sql`CREATE VIRTUAL TABLE search_words USING fts5(title, content, tokenize = 'porter unicode61 remove_diacritics 2')`.execute(db);
  await sql`CREATE VIRTUAL TABLE search_grams USING fts5(title, content, tokenize = 'trigram')`.execute(db);
  const both = (stmt: (table: string) => string) => ['search_words', 'search_grams'].map(stmt).join('\n');
  await sql
    .raw(
      `CREATE TRIGGER search_posts_ai AFTER INSERT ON posts BEGIN
${both((t) => `INSERT INTO ${t}(rowid, title, content) VALUES (new.pid, ${TITLE_OF('new.pid', 'new.tid')}, new.content);`)}
END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER search_posts_au AFTER UPDATE OF content ON posts BEGIN
${both((t) => `UPDATE ${t} SET content = new.content WHERE rowid = new.pid;`)}
END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER search_posts_ad AFTER DELETE ON posts BEGIN
${both((t) => `DELETE FROM ${t} WHERE rowid = old.pid;`)}
END`,
    )
    .execute(db);
  // A topic's title lives on its main post's document; a new title or a new main post
  // (creation sets it after the post, a merge may change it) moves it.
  await sql
    .raw(
      `CREATE TRIGGER search_topics_au AFTER UPDATE OF title, main_pid ON topics BEGIN
${both((t) => `UPDATE ${t} SET title = '' WHERE rowid = old.main_pid AND old.main_pid <> new.main_pid;`)}
${both((t) => `UPDATE ${t} SET title = new.title WHERE rowid = new.main_pid;`)}
END`,
    )
    .execute(db);
  await sql`INSERT INTO search_words(rowid, title, content) SELECT p.pid, coalesce(t.title, ''), p.content FROM posts p LEFT JOIN topics t ON t.tid = p.tid AND t.main_pid = p.pid`.execute(db);
  await sql`INSERT INTO search_grams(rowid, title, content) SELECT p.pid, coalesce(t.title, ''), p.content FROM posts p LEFT JOIN topics t ON t.tid = p.tid AND t.main_pid = p.pid`.execute(db);
  await createCounts(db, 'integer');
}

async function upPostgres(db: Kysely<any>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`CREATE TABLE search_docs (
    pid integer PRIMARY KEY,
    title text NOT NULL DEFAULT '',
    content text NOT NULL DEFAULT '',
    tsv_title tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, title)) STORED,
    tsv_content tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, content)) STORED
  )`.execute(db);
  await sql`CREATE INDEX search_docs_tsv_title ON search_docs USING gin (tsv_title)`.execute(db);
  await sql`CREATE INDEX search_docs_tsv_content ON search_docs USING gin (tsv_content)`.execute(db);
  await sql`CREATE INDEX search_docs_trgm_title ON search_docs USING gin (title gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX search_docs_trgm_content ON search_docs USING gin (content gin_trgm_ops)`.execute(db);
  await sql
    .raw(
      `CREATE FUNCTION search_posts_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM search_docs WHERE pid = OLD.pid;
    RETURN OLD;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO search_docs(pid, title, content) VALUES (NEW.pid, ${TITLE_OF('NEW.pid', 'NEW.tid')}, NEW.content)
      ON CONFLICT (pid) DO UPDATE SET title = EXCLUDED.title, content = EXCLUDED.content;
  ELSIF NEW.content IS DISTINCT FROM OLD.content THEN
    UPDATE search_docs SET content = NEW.content WHERE pid = NEW.pid;
  END IF;
  RETURN NEW;
END $$`,
    )
    .execute(db);
  await sql`CREATE TRIGGER search_posts_sync AFTER INSERT OR UPDATE OF content OR DELETE ON posts FOR EACH ROW EXECUTE FUNCTION search_posts_sync()`.execute(db);
  await sql
    .raw(
      `CREATE FUNCTION search_topics_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.main_pid <> NEW.main_pid THEN
    UPDATE search_docs SET title = '' WHERE pid = OLD.main_pid;
  END IF;
  IF OLD.main_pid <> NEW.main_pid OR OLD.title IS DISTINCT FROM NEW.title THEN
    UPDATE search_docs SET title = NEW.title WHERE pid = NEW.main_pid;
  END IF;
  RETURN NEW;
END $$`,
    )
    .execute(db);
  await sql`CREATE TRIGGER search_topics_sync AFTER UPDATE OF title, main_pid ON topics FOR EACH ROW EXECUTE FUNCTION search_topics_sync()`.execute(db);
  await sql`INSERT INTO search_docs(pid, title, content) SELECT p.pid, coalesce(t.title, ''), p.content FROM posts p LEFT JOIN topics t ON t.tid = p.tid AND t.main_pid = p.pid`.execute(db);
  await createCounts(db, 'bigint');
}

/** Searches made per day (for the admin dashboard), written in batches. */
async function createCounts(db: Kysely<any>, ts: 'integer' | 'bigint'): Promise<void> {
  await db.schema
    .createTable('search_counts')
    .addColumn('day', ts, (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
