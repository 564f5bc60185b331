// Test-only helpers for the content domains (imported by *.test.ts files only).
import type { AppContext } from '../../context.js';
import { SYSTEM } from '../../setup.js';
import type { HttpClient } from '../../test/http-client.js';

let n = 0;
/** A new category with the default privileges, made through the categories service. */
export async function makeCategory(ctx: AppContext, name = `Category ${++n}`): Promise<number> {
  return (await ctx.categories.create(SYSTEM, { name })).cid;
}

/** A category row's counters. */
export async function categoryCounts(ctx: AppContext, cid: number): Promise<{ topic_count: number; post_count: number }> {
  return ctx.db.selectFrom('categories').select(['topic_count', 'post_count']).where('cid', '=', cid).executeTakeFirstOrThrow();
}

/** A member's counters. */
export async function userCounts(ctx: AppContext, uid: number): Promise<{ postcount: number; topiccount: number; reputation: number }> {
  return ctx.db.selectFrom('users').select(['postcount', 'topiccount', 'reputation']).where('uid', '=', uid).executeTakeFirstOrThrow();
}

/** Posts a topic through the API and returns its response (asserting success). */
export async function postTopic(client: HttpClient, cid: number, over: Record<string, unknown> = {}) {
  const res = await client.post('/api/v3/topics', { cid, title: 'A topic title here', content: 'Some content that is long enough.', ...over });
  if (res.status !== 200) throw new Error(`topic create failed: ${res.status} ${res.text}`);
  return res.body.response as { tid: number; mainPid: number; slug: string; cid: number; mainPost: { pid: number } };
}

/** Replies through the API and returns the new post (asserting success). */
export async function postReply(client: HttpClient, tid: number, content = 'A reply that is long enough.', toPid?: number) {
  const res = await client.post(`/api/v3/topics/${tid}`, { content, ...(toPid ? { toPid } : {}) });
  if (res.status !== 200) throw new Error(`reply failed: ${res.status} ${res.text}`);
  return res.body.response as { pid: number; index: number };
}

/** Row counts of every table a read must never write. */
export async function writeSnapshot(ctx: AppContext): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of ['topics', 'posts', 'topic_reads', 'topic_follows', 'votes', 'bookmarks', 'events', 'sessions'] as const) {
    const row = await ctx.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    out[table] = Number(row?.n ?? 0);
  }
  const v = await ctx.db.selectFrom('topics').select((eb) => eb.fn.sum<number>('view_count').as('v')).executeTakeFirst();
  out.view_count_sum = Number(v?.v ?? 0);
  return out;
}
