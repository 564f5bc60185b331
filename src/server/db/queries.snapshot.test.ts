// The SQL of the main reads, as each dialect compiles it (Immich's query snapshots): a change to
// one of these statements shows in review as a changed snapshot, so a tuned query cannot regress
// unnoticed. Nothing runs: a Kysely with a driver that records each statement and answers no rows.
// Update with `npx vitest run src/server/db/queries.snapshot.test.ts -u` after an intended change.
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type Dialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from './schema.js';
import type { Queryable } from './index.js';
import { slots } from './prepared.js';
import * as topics from '../domains/topics/store.js';
import * as posts from '../domains/posts/store.js';
import * as categories from '../domains/categories/store.js';
import * as users from '../domains/users/store.js';
import * as search from '../domains/search/store.js';

function recorder(kind: 'sqlite' | 'postgres'): { db: Kysely<Database>; sql: string[] } {
  const sql: string[] = [];
  const dialect: Dialect =
    kind === 'sqlite'
      ? { createAdapter: () => new SqliteAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (db) => new SqliteIntrospector(db), createQueryCompiler: () => new SqliteQueryCompiler() }
      : { createAdapter: () => new PostgresAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (db) => new PostgresIntrospector(db), createQueryCompiler: () => new PostgresQueryCompiler() };
  const db = new Kysely<Database>({ dialect, log: (e) => void (e.level === 'query' && sql.push(e.query.sql)) });
  return { db, sql };
}

/** The SQL a read sends, on each dialect. */
async function statements(read: (db: Queryable, kind: 'sqlite' | 'postgres') => Promise<unknown>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const kind of ['sqlite', 'postgres'] as const) {
    const r = recorder(kind);
    await read(r.db, kind).catch(() => undefined);
    out[kind] = r.sql;
  }
  return out;
}

/** A batch part's SQL, built as runBatch builds it (placeholders for the values). */
function partSql(part: { build: (db: Queryable, $: Parameters<typeof slots>[0]) => { compile(): { sql: string } } }, kind: 'sqlite' | 'postgres'): string {
  const { db } = recorder(kind);
  return part.build(db, ((i: number) => ({ slot: i })) as never).compile().sql;
}

const list: topics.ListQuery = { cids: [1, 2, 3], deletedCids: [], sort: 'recent', offset: 0, limit: 20 };

describe('the SQL of the main reads', () => {
  it('topic lists: a page and its total (recent, category, by tag)', async () => {
    expect(await statements((db) => topics.listTopics(db, list))).toMatchSnapshot('recent page');
    expect(await statements((db) => topics.countTopics(db, list))).toMatchSnapshot('recent total');
    expect(await statements((db) => topics.listTopics(db, { ...list, cids: [1], deletedCids: [1], sort: 'category' }))).toMatchSnapshot('category page');
    expect(await statements((db) => topics.listTopics(db, { ...list, tag: 'database' }))).toMatchSnapshot('tag page');
    expect(await statements((db) => topics.latestPerCategory(db, [1, 2, 3]))).toMatchSnapshot('category teasers');
  });

  it("a member's unread page and count correction", () => {
    const q: topics.UnreadQuery = { uid: 7, watched: [1, 2], followedIn: [3], offset: 0, limit: 20 };
    for (const kind of ['sqlite', 'postgres'] as const) {
      expect(partSql(topics.unreadPagePart(q) as never, kind)).toMatchSnapshot(`unread page (${kind})`);
      expect(partSql(topics.unreadDeltaPart(q) as never, kind)).toMatchSnapshot(`unread correction (${kind})`);
    }
  });

  it("a topic page: a page of its posts, its post count; a member's posts", async () => {
    expect(await statements((db) => posts.pageOfTopic(db, 5, 20, 20))).toMatchSnapshot('page of a topic');
    expect(await statements((db) => posts.countInTopic(db, 5))).toMatchSnapshot('post count');
    expect(await statements((db) => posts.recentByUser(db, { uid: 7 }, [1, 2], 20))).toMatchSnapshot("a member's latest posts");
  });

  it('categories and members as pages read them', async () => {
    expect(await statements((db) => categories.all(db))).toMatchSnapshot('every category');
    expect(await statements((db) => users.briefsByUids(db, [1, 2, 3]))).toMatchSnapshot('member briefs');
  });

  it('search for posts', async () => {
    const q = { terms: ['database'], cids: [1, 2], in: 'titlesposts', sort: 'relevance', offset: 0, limit: 10 } as unknown as Parameters<typeof search.searchPosts>[2];
    expect(await statements((db, kind) => search.searchPosts(db, kind, q))).toMatchSnapshot('posts matching a word');
  });
});
