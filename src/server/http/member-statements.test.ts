import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledQuery, QueryResult } from 'kysely';
import { startTestForum, type TestForum, type TestMember, CACHE_OFF } from '../test/harness.js';
import { SYSTEM } from '../setup.js';

// Issue 18: a member's page lays their own state over what every reader shares, in batched
// statements, never one per item. These are the statements a member's read costs once the
// shared parts are cached; a page with ten authors costs what a page with one does.
let forum: TestForum;
let statements: string[] | null = null;
beforeAll(async () => {
  forum = await startTestForum();
  const executor = forum.ctx.db.getExecutor();
  const execute = executor.executeQuery.bind(executor);
  executor.executeQuery = <R>(query: CompiledQuery<R>): Promise<QueryResult<R>> => {
    statements?.push(query.sql);
    return execute(query);
  };
});
afterAll(async () => {
  await forum?.close();
});

/** The SQL a member's GET ran (the request repeated first, so shared parts are cached). */
async function statementsOf(m: TestMember, path: string): Promise<string[]> {
  expect((await m.client.get(path)).status).toBe(200);
  // Listeners behind earlier writes (notifications…) finish first: only the request is counted.
  // (Statements inside transactions, such as the view counter's flush, go through their own
  // executor and are not counted.)
  await forum.ctx.hooks.idle();
  statements = [];
  const res = await m.client.get(path);
  const ran = statements;
  statements = null;
  expect(res.status).toBe(200);
  return ran;
}

describe("a member's page reads", () => {
  it.skipIf(CACHE_OFF)('take a fixed number of statements, whatever the number of posts, topics and authors', async () => {
    const cat = await forum.ctx.categories.create(SYSTEM, { name: 'Statements' });
    const reader = await forum.member();
    const writers = [await forum.member(), await forum.member(), await forum.member()];
    const topic = (await writers[0]!.client.post('/api/v3/topics', { cid: cat.cid, title: 'A topic with many authors', content: 'The first post of many.' })).body.response;
    for (let i = 0; i < 9; i++) {
      const w = writers[i % writers.length]!;
      expect((await w.client.post(`/api/v3/topics/${topic.tid}`, { content: `Reply number ${i} from a writer.` })).status).toBe(200);
    }
    for (let i = 0; i < 5; i++) await writers[i % writers.length]!.client.post('/api/v3/topics', { cid: cat.cid, title: `Another topic ${i} here`, content: 'More content.' });
    // The reader voted and bookmarked, follows the topic and has read it.
    const firstReply = topic.mainPid + 1;
    expect((await reader.client.put(`/api/v3/posts/${topic.mainPid}/vote`, { delta: 1 })).status).toBe(200);
    expect((await reader.client.put(`/api/v3/posts/${firstReply}/bookmark`)).status).toBe(200);
    expect((await reader.client.put(`/api/v3/topics/${topic.tid}/follow`)).status).toBe(200);
    const page = (await reader.client.get(`/api/topic/${topic.tid}`)).body as { isFollowing: boolean; posts: { pid: number; upvoted: boolean; bookmarked: boolean }[] };
    expect(page.isFollowing).toBe(true);
    expect(page.posts.filter((p) => p.upvoted).map((p) => p.pid)).toEqual([topic.mainPid]);
    expect(page.posts.filter((p) => p.bookmarked).map((p) => p.pid)).toEqual([firstReply]);

    // A topic of one post costs what the topic of ten posts by four authors costs.
    const single = (await writers[1]!.client.post('/api/v3/topics', { cid: cat.cid, title: 'A topic of one post', content: 'Only this post.' })).body.response;
    const one = await statementsOf(reader, `/api/topic/${single.tid}`);
    const ten = await statementsOf(reader, `/api/topic/${topic.tid}`);
    // The session with the member's row is kept by the process (until a write to either);
    // one batched statement: read time and follow state, votes and bookmarks.
    expect(ten).toHaveLength(1);
    expect(one).toHaveLength(ten.length);
    const batched = ten.filter((q) => /\bunion all\b/i.test(q));
    expect(batched).toHaveLength(1);
    for (const table of ['topic_reads', 'topic_follows', 'votes', 'bookmarks']) expect(batched[0]).toContain(`"${table}"`);
    // Read and follow states of the page's topics (the member's category watch states, which
    // take ignored categories out, are cached).
    expect(await statementsOf(reader, '/api/recent')).toHaveLength(1);
    // As /api/recent: the category's row is shared, the member's watch state of it cached.
    expect(await statementsOf(reader, `/api/category/${cat.cid}`)).toHaveLength(1);
    // Lists by term (the last day, week or month) are shared as /api/recent is: sorting every
    // topic active in the term was a scan of them on each read.
    expect(await statementsOf(reader, '/api/popular?term=month')).toHaveLength(1);
    expect(await statementsOf(reader, '/api/top?term=week')).toHaveLength(1);
    // None: the categories and their teasers are shared.
    expect(await statementsOf(reader, '/api/categories')).toHaveLength(0);
  });
});
