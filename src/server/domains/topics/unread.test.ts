import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum, CACHE_OFF } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import type { UserRow } from '../users/store.js';
import * as store from './store.js';
import { makeCategory, postReply, postTopic } from './testing.js';

// A member's unread list (list.ts unreadTopics): its total is the watched categories' shared
// count corrected by the member's own reads and follows, its page read in list order, its
// topics' summaries shared per topic. Whatever the member did, it must equal the plain query
// over every topic (store.listTopics / countTopics with unreadFor), and change at once.
let forum: TestForum;
let watched: number;
let quiet: number;
let ignoredCat: number;
let alice: { client: HttpClient; user: UserRow };
let bob: { client: HttpClient; user: UserRow };

beforeAll(async () => {
  forum = await startTestForum();
  watched = await makeCategory(forum.ctx, 'Unread watched');
  quiet = await makeCategory(forum.ctx, 'Unread not watched');
  ignoredCat = await makeCategory(forum.ctx, 'Unread ignored');
  alice = await forum.loginAs();
  bob = await forum.loginAs();
});
afterAll(async () => {
  await forum.close();
});

/** The unread list as the old single query gave it: every page's tids in order, and the total. */
async function plainUnread(uid: number, tag?: string): Promise<{ tids: number[]; count: number }> {
  const viewer = await forum.ctx.privileges.viewer(uid);
  const readable = await forum.ctx.categories.readableCids(viewer);
  const states = await forum.ctx.categories.watchStates(viewer, readable);
  const watchedCids = readable.filter((cid) => ['watching', 'tracking'].includes(states.get(cid)!));
  const q = { cids: readable, deletedCids: [], sort: 'recent' as const, offset: 0, limit: 10_000, unreadFor: uid, watchedCids, tag };
  const rows = await store.listTopics(forum.ctx.db, q);
  return { tids: rows.map((r) => r.tid), count: await store.countTopics(forum.ctx.db, q) };
}

/** The unread list as the service gives it now, page by page. */
async function servedUnread(uid: number, perPage: number, tag?: string): Promise<{ tids: number[]; count: number; flags: Record<number, object> }> {
  const viewer = await forum.ctx.privileges.viewer(uid);
  const readable = await forum.ctx.categories.readableCids(viewer);
  const states = await forum.ctx.categories.watchStates(viewer, readable);
  const watchedCids = readable.filter((cid) => ['watching', 'tracking'].includes(states.get(cid)!));
  const tids: number[] = [];
  const flags: Record<number, object> = {};
  let count = -1;
  for (let page = 1; page < 100; page++) {
    const res = await forum.ctx.topics.list(viewer, { cids: readable, sort: 'recent', page, perPage, unreadOnly: true, watchedCids, tag });
    if (count === -1) count = res.count;
    expect(res.count, `page ${page}'s total`).toBe(count);
    for (const t of res.topics) {
      tids.push(t.tid);
      flags[t.tid] = { unread: t.unread, ignored: t.ignored, followed: t.followed, isOwner: t.isOwner };
    }
    if (res.topics.length < perPage) break;
  }
  return { tids, count, flags };
}

async function expectSame(uid: number, perPage = 3, tag?: string) {
  const plain = await plainUnread(uid, tag);
  const served = await servedUnread(uid, perPage, tag);
  expect(served.tids).toEqual(plain.tids);
  expect(served.count).toBe(plain.count);
  expect(served.count).toBe(plain.tids.length);
  return served;
}

describe("a member's unread list", () => {
  it('equals the plain query whatever the member read, ignored, followed or stopped watching', async () => {
    const uid = bob.user.uid;
    const a: number[] = [];
    for (let i = 0; i < 4; i++) a.push((await postTopic(alice.client, watched, { title: `Unread watched topic ${i}`, tags: i % 2 ? ['unreadtag'] : [] })).tid);
    const q1 = (await postTopic(alice.client, quiet, { title: 'Unread quiet topic followed' })).tid;
    const q2 = (await postTopic(alice.client, quiet, { title: 'Unread quiet topic not followed' })).tid;
    const g1 = (await postTopic(alice.client, ignoredCat, { title: 'Unread ignored category topic' })).tid;
    const deleted = (await postTopic(alice.client, watched, { title: 'Unread deleted topic here' })).tid;
    await expectSame(uid);

    // Bob stops watching one category and ignores another; he follows a topic in the first.
    expect((await bob.client.put(`/api/v3/categories/${quiet}/watch`, { state: 'notwatching' })).status).toBe(200);
    expect((await bob.client.put(`/api/v3/categories/${ignoredCat}/watch`, { state: 'ignoring' })).status).toBe(200);
    expect((await bob.client.put(`/api/v3/topics/${q1}/follow`)).status).toBe(200);
    // He reads two topics, one of which then has a new reply; he ignores another.
    expect((await bob.client.get(`/api/topic/${a[0]}`)).status).toBe(200);
    expect((await bob.client.get(`/api/topic/${a[1]}`)).status).toBe(200);
    await postReply(alice.client, a[1]!, 'A reply after Bob read the topic.');
    expect((await bob.client.put(`/api/v3/topics/${a[2]}/ignore`)).status).toBe(200);
    // A deleted topic and his own topic.
    await forum.ctx.topics.delete(await forum.ctx.privileges.viewer(alice.user.uid), deleted);
    const own = (await postTopic(bob.client, watched, { title: 'Unread own topic of Bob' })).tid;

    const served = await expectSame(uid);
    expect(served.tids).toContain(q1);
    expect(served.tids).not.toContain(q2);
    expect(served.tids).not.toContain(g1);
    expect(served.tids).not.toContain(a[0]);
    expect(served.tids).toContain(a[1]);
    expect(served.tids).not.toContain(a[2]);
    expect(served.tids).not.toContain(deleted);
    expect(served.tids).not.toContain(own);
    expect(served.flags[q1]).toEqual({ unread: true, ignored: false, followed: true, isOwner: false });
    expect(served.flags[a[1]!]).toEqual({ unread: true, ignored: false, followed: false, isOwner: false });
    // A page size that splits it differently, and a tag.
    await expectSame(uid, 1);
    await expectSame(uid, 100);
    await expectSame(uid, 2, 'unreadtag');
    // Nothing watched: only followed topics.
    expect((await bob.client.put(`/api/v3/categories/${watched}/watch`, { state: 'notwatching' })).status).toBe(200);
    const onlyFollowed = await expectSame(uid);
    expect(onlyFollowed.tids).toContain(q1);
    expect((await bob.client.put(`/api/v3/categories/${watched}/watch`, { state: 'watching' })).status).toBe(200);
    // The author's own reads (her topics are read by her) and a member who read nothing.
    await expectSame(alice.user.uid);
    const carol = await forum.loginAs();
    await expectSame(carol.user.uid);
  });

  it('changes at once when the member reads a topic, and when someone replies to it', async () => {
    const t = await postTopic(alice.client, watched, { title: 'Unread topic read at once' });
    const page = async () => (await bob.client.get('/api/unread')).body as { topics: { tid: number }[]; pagination: { pageCount: number } };
    const before = await servedUnread(bob.user.uid, 100);
    expect(before.tids).toContain(t.tid);
    expect((await page()).topics.map((x) => x.tid)).toContain(t.tid);
    // Reading it takes it out of the list and the total, at once (no cached copy of either).
    expect((await bob.client.get(`/api/topic/${t.tid}`)).status).toBe(200);
    const after = await servedUnread(bob.user.uid, 100);
    expect(after.tids).not.toContain(t.tid);
    expect(after.count).toBe(before.count - 1);
    expect((await page()).topics.map((x) => x.tid)).not.toContain(t.tid);
    // A reply brings it back, first, with the reply's teaser (the shared summary was dropped).
    const reply = await postReply(alice.client, t.tid, 'A reply that makes it unread again.');
    const again = (await bob.client.get('/api/unread')).body as { topics: { tid: number; teaser: { pid: number } | null; postcount: number }[] };
    expect(again.topics[0]).toMatchObject({ tid: t.tid, postcount: 2, teaser: { pid: reply.pid } });
    expect((await servedUnread(bob.user.uid, 100)).count).toBe(before.count);
    await expectSame(bob.user.uid);
  });

  it.skipIf(CACHE_OFF)("is kept per member: another member's read leaves it, the member's own read drops it", async () => {
    const t1 = (await postTopic(alice.client, watched, { title: 'Unread kept per member one' })).tid;
    const t2 = (await postTopic(alice.client, watched, { title: 'Unread kept per member two' })).tid;
    const carol = await forum.loginAs();
    expect((await bob.client.get(`/api/topic/${t1}`)).status).toBe(200);
    const before = await servedUnread(bob.user.uid, 100);
    expect(before.tids).toContain(t2);
    expect(before.tids).not.toContain(t1);
    // A change no write hook sees (raw SQL): Bob's read of t1 forgotten. His kept page still shows it read…
    await sql`delete from topic_reads where uid = ${bob.user.uid} and tid = ${t1}`.execute(forum.ctx.db);
    // …while Carol reads (her write drops her page, not Bob's).
    expect((await carol.client.get(`/api/topic/${t2}`)).status).toBe(200);
    expect((await servedUnread(bob.user.uid, 100)).tids).toEqual(before.tids);
    // Bob's own read drops his page: it is read again, with the forgotten read.
    expect((await bob.client.get(`/api/topic/${t2}`)).status).toBe(200);
    const after = await servedUnread(bob.user.uid, 100);
    expect(after.tids).toContain(t1);
    expect(after.tids).not.toContain(t2);
    expect(after.count).toBe(before.count);
    await expectSame(bob.user.uid, 100);
  });
});
