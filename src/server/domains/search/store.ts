import { sql, type RawBuilder } from 'kysely';
import type { Dialect, Queryable } from '../../db/index.js';
import { fts5String, likePattern, trigramReady, type Term } from './query.js';

/** Where the terms must appear: NodeBB's `in` values for content. */
export type SearchIn = 'titles' | 'posts' | 'titlesposts';

/** NodeBB's `sortBy` values that Palaver sorts by. */
export const SORTS = ['relevance', 'timestamp', 'votes', 'topic.timestamp', 'topic.lastposttime', 'topic.postcount', 'topic.votes', 'topic.viewcount', 'topic.title'] as const;
export type SortKey = (typeof SORTS)[number];

/** One search over posts, its filters already checked and privileges applied (`cids`). */
export interface PostQuery {
  terms: Term[];
  in: SearchIn;
  /** true: any term may match (NodeBB's matchWords=any); false: all of them. */
  any: boolean;
  /** The categories searched: the readable ones the member chose. Never empty. */
  cids: number[];
  uids?: number[];
  tags?: string[];
  since?: number;
  until?: number;
  minReplies?: number;
  maxReplies?: number;
  sort: SortKey;
  direction: 'asc' | 'desc';
  /** One row per topic (its best post) instead of one per post. */
  byTopic: boolean;
  offset: number;
  limit: number;
  /** PostgreSQL: the text-search configuration of the forum's language (the index's), `english` when not given. */
  config?: string;
}

/** A page of matching posts (or topics' best posts) and how many match in all. */
export interface PostHits {
  pids: number[];
  count: number;
}

const ORDER: Record<SortKey, RawBuilder<unknown>> = {
  relevance: sql`score`,
  timestamp: sql`created`,
  votes: sql`votes`,
  'topic.timestamp': sql`t_created`,
  'topic.lastposttime': sql`t_last`,
  'topic.postcount': sql`t_posts`,
  'topic.votes': sql`t_votes`,
  'topic.viewcount': sql`t_views`,
  'topic.title': sql`t_title`,
};

/**
 * The documents that match: by words (stemmed, ranked) or by substrings (trigrams: CJK,
 * compounds, partial words). A word match ranks above a substring-only one. `score` is
 * lower for better matches.
 */
function hits(dialect: Dialect, q: PostQuery): RawBuilder<unknown> {
  return dialect === 'postgres' ? pgHits(q) : sqliteHits(q);
}

function sqliteHits(q: PostQuery): RawBuilder<unknown> {
  const join = q.any ? ' OR ' : ' ';
  const scope = q.in === 'titles' ? '{title} : ' : q.in === 'posts' ? '{content} : ' : '';
  const words = `${scope}(${q.terms.map((t) => fts5String(t.text)).join(join)})`;
  const parts: RawBuilder<unknown>[] = [sql`SELECT rowid AS pid, bm25(search_words, 4.0, 1.0) AS score FROM search_words WHERE search_words MATCH ${words}`];
  const long = q.terms.filter((t) => trigramReady(t.text));
  const short = q.terms.filter((t) => !trigramReady(t.text));
  const conds: RawBuilder<unknown>[] = [];
  if (long.length) conds.push(sql`search_grams MATCH ${`${scope}(${long.map((t) => fts5String(t.text)).join(join)})`}`);
  const col = (c: 'title' | 'content', t: Term) => (c === 'title' ? sql`title LIKE ${likePattern(t.text)} ESCAPE '\\'` : sql`content LIKE ${likePattern(t.text)} ESCAPE '\\'`);
  for (const t of short) {
    const each = q.in === 'titles' ? [col('title', t)] : q.in === 'posts' ? [col('content', t)] : [col('title', t), col('content', t)];
    conds.push(sql`(${sql.join(each, sql` OR `)})`);
  }
  // With matchWords=any a short term may match alone; with all, every condition holds.
  const where = q.any ? sql.join(conds, sql` OR `) : sql.join(conds, sql` AND `);
  parts.push(sql`SELECT rowid AS pid, 0 AS score FROM search_grams WHERE ${where}`);
  return sql`SELECT pid, min(score) AS score FROM (${sql.join(parts, sql` UNION ALL `)}) h GROUP BY pid`;
}

function pgHits(q: PostQuery): RawBuilder<unknown> {
  const config = q.config ?? 'english';
  const op = q.any ? sql` || ` : sql` && `;
  const tsq = sql`(${sql.join(
    q.terms.map((t) => (t.phrase ? sql`phraseto_tsquery(${config}::regconfig, ${t.text})` : sql`plainto_tsquery(${config}::regconfig, ${t.text})`)),
    op,
  )})`;
  const vec = q.in === 'titles' ? sql`tsv_title` : q.in === 'posts' ? sql`tsv_content` : sql`(tsv_title || tsv_content)`;
  const conds = q.terms.map((t) => {
    const p = likePattern(t.text);
    if (q.in === 'titles') return sql`title ILIKE ${p}`;
    if (q.in === 'posts') return sql`content ILIKE ${p}`;
    return sql`(title ILIKE ${p} OR content ILIKE ${p})`;
  });
  const where = q.any ? sql.join(conds, sql` OR `) : sql.join(conds, sql` AND `);
  // Each column keeps its own GIN index: test them one by one so the planner can use both.
  const wordWhere = q.in === 'titlesposts' ? sql`(tsv_title @@ ${tsq} OR tsv_content @@ ${tsq})` : sql`${vec} @@ ${tsq}`;
  return sql`SELECT pid, min(score) AS score FROM (
    SELECT pid, -ts_rank(${vec}, ${tsq}) AS score FROM search_docs WHERE ${wordWhere}
    UNION ALL
    SELECT pid, 0 AS score FROM search_docs WHERE ${where}
  ) h GROUP BY pid`;
}

/** Finds a page of posts matching `q` among visible posts of visible topics in `q.cids`. */
export async function searchPosts(db: Queryable, dialect: Dialect, q: PostQuery): Promise<PostHits> {
  if (!q.terms.length || !q.cids.length) return { pids: [], count: 0 };
  const filters: RawBuilder<unknown>[] = [sql`p.deleted = 0`, sql`t.deleted = 0`, sql`t.scheduled = 0`, sql`t.cid IN (${sql.join(q.cids)})`];
  if (q.in === 'titles') filters.push(sql`p.pid = t.main_pid`);
  if (q.uids?.length) filters.push(sql`p.uid IN (${sql.join(q.uids)})`);
  if (q.tags?.length) filters.push(sql`EXISTS (SELECT 1 FROM topic_tags tt WHERE tt.tid = t.tid AND tt.tag IN (${sql.join(q.tags)}))`);
  if (q.since !== undefined) filters.push(sql`p.created >= ${q.since}`);
  if (q.until !== undefined) filters.push(sql`p.created <= ${q.until}`);
  if (q.minReplies !== undefined) filters.push(sql`t.post_count - 1 >= ${q.minReplies}`);
  if (q.maxReplies !== undefined) filters.push(sql`t.post_count - 1 <= ${q.maxReplies}`);
  const dir = q.direction === 'asc' ? sql`ASC` : sql`DESC`;
  // Relevance: the best (lowest) score first whatever the direction; ties newest first.
  const order = q.sort === 'relevance' ? sql`score ASC, created DESC, pid DESC` : sql`${ORDER[q.sort]} ${dir}, pid DESC`;
  const matched = sql`SELECT p.pid AS pid, p.tid AS tid, h.score AS score, p.created AS created, p.upvotes - p.downvotes AS votes,
      t.created AS t_created, t.last_post_time AS t_last, t.post_count AS t_posts, t.upvotes - t.downvotes AS t_votes, t.view_count AS t_views, t.title AS t_title
    FROM (${hits(dialect, q)}) h
    JOIN posts p ON p.pid = h.pid
    JOIN topics t ON t.tid = p.tid
    WHERE ${sql.join(filters, sql` AND `)}`;
  // By topic: each topic's best post (lowest score, then newest) stands for it.
  const rows = q.byTopic
    ? sql`SELECT * FROM (SELECT m.*, row_number() OVER (PARTITION BY tid ORDER BY score ASC, created DESC) AS rn FROM (${matched}) m) b WHERE rn = 1`
    : matched;
  const result = await sql<{ pid: number; total: number | string }>`SELECT pid, count(*) OVER () AS total FROM (${rows}) r ORDER BY ${order} LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db);
  const count = result.rows.length ? Number(result.rows[0]!.total) : q.offset > 0 ? await countOnly(db, rows) : 0;
  return { pids: result.rows.map((r) => Number(r.pid)), count };
}

/** The number of matches when the page asked for lies past them. */
async function countOnly(db: Queryable, rows: RawBuilder<unknown>): Promise<number> {
  const r = await sql<{ n: number | string }>`SELECT count(*) AS n FROM (${rows}) r`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

/** Rebuilds the whole index from the posts, `batch` posts at a time; `progress(done, total)` after each. */
export async function reindex(db: Queryable, dialect: Dialect, progress: (done: number, total: number) => void, batch = 2000): Promise<number> {
  const total = Number((await sql<{ n: number | string }>`SELECT count(*) AS n FROM posts`.execute(db)).rows[0]?.n ?? 0);
  if (dialect === 'postgres') await sql`DELETE FROM search_docs`.execute(db);
  else {
    await sql`DELETE FROM search_words`.execute(db);
    await sql`DELETE FROM search_grams`.execute(db);
  }
  let done = 0;
  let after = 0;
  for (;;) {
    const last = await sql<{ pid: number }>`SELECT pid FROM posts WHERE pid > ${after} ORDER BY pid LIMIT 1 OFFSET ${batch - 1}`.execute(db);
    const upTo = last.rows[0] ? Number(last.rows[0].pid) : 2_147_483_647;
    const select = sql`SELECT p.pid, coalesce(t.title, ''), p.content FROM posts p LEFT JOIN topics t ON t.tid = p.tid AND t.main_pid = p.pid WHERE p.pid > ${after} AND p.pid <= ${upTo}`;
    if (dialect === 'postgres') await sql`INSERT INTO search_docs(pid, title, content) ${select}`.execute(db);
    else {
      await sql`INSERT INTO search_words(rowid, title, content) ${select}`.execute(db);
      await sql`INSERT INTO search_grams(rowid, title, content) ${select}`.execute(db);
    }
    const n = Number((await sql<{ n: number | string }>`SELECT count(*) AS n FROM posts WHERE pid > ${after} AND pid <= ${upTo}`.execute(db)).rows[0]?.n ?? 0);
    done += n;
    progress(done, total);
    if (!last.rows[0]) break;
    after = upTo;
  }
  if (dialect === 'sqlite') {
    await sql`INSERT INTO search_words(search_words) VALUES ('optimize')`.execute(db);
    await sql`INSERT INTO search_grams(search_grams) VALUES ('optimize')`.execute(db);
  }
  return done;
}

/**
 * PostgreSQL: indexes every document with the text-search configuration `config` (a change of
 * the forum's language): new documents take it (the column's default) and the others are
 * re-indexed `batch` at a time (their tsvectors are generated from it). Returns how many
 * documents changed.
 */
export async function useTextConfig(db: Queryable, config: string, batch = 5000): Promise<number> {
  if (!/^[a-z_]+$/.test(config)) throw new Error(`not a text-search configuration: ${config}`);
  await sql.raw(`ALTER TABLE search_docs ALTER COLUMN config SET DEFAULT '${config}'::regconfig`).execute(db);
  let changed = 0;
  for (;;) {
    const r = await sql`UPDATE search_docs SET config = ${config}::regconfig WHERE pid IN (SELECT pid FROM search_docs WHERE config <> ${config}::regconfig LIMIT ${batch})`.execute(db);
    const n = Number(r.numAffectedRows ?? 0);
    changed += n;
    if (n < batch) return changed;
  }
}

/** Adds `n` searches to the count of the UTC day starting at `day`. */
export async function addSearches(db: Queryable, day: number, n: number): Promise<void> {
  await db
    .insertInto('search_counts')
    .values({ day, count: n })
    .onConflict((oc) => oc.column('day').doUpdateSet((eb) => ({ count: eb('search_counts.count', '+', n) })))
    .execute();
}

/** Searches per day from `since` (UTC midnights), oldest first. */
export async function searchCounts(db: Queryable, since: number): Promise<{ day: number; count: number }[]> {
  const rows = await db.selectFrom('search_counts').select(['day', 'count']).where('day', '>=', since).orderBy('day').execute();
  return rows.map((r) => ({ day: Number(r.day), count: Number(r.count) }));
}

/** How many documents the index holds, and how many posts there are (they match after a reindex). */
export async function indexStats(db: Queryable, dialect: Dialect): Promise<{ documents: number; posts: number }> {
  const docs = dialect === 'postgres' ? sql<{ n: number | string }>`SELECT count(*) AS n FROM search_docs` : sql<{ n: number | string }>`SELECT count(*) AS n FROM search_words`;
  const [d, p] = await Promise.all([docs.execute(db), sql<{ n: number | string }>`SELECT count(*) AS n FROM posts`.execute(db)]);
  return { documents: Number(d.rows[0]?.n ?? 0), posts: Number(p.rows[0]?.n ?? 0) };
}
