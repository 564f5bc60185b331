import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import type { UserRow } from '../users/store.js';
import { makeCategory, postReply, postTopic } from './testing.js';

let forum: TestForum;
let cid: number;
let alice: { client: HttpClient; user: UserRow };
let bob: { client: HttpClient; user: UserRow };
let carol: { client: HttpClient; user: UserRow };
let tid: number;
let slug: string;
let main: number;
const replies: number[] = [];

const sortBy = (c: { client: HttpClient; user: UserRow }, topicPostSort: string) => c.client.put(`/api/v3/users/${c.user.uid}/settings`, { settings: { topicPostSort } });
const pidsOf = (body: { posts: { pid: number }[] }) => body.posts.map((p) => p.pid);
const indexesOf = (body: { posts: { index: number }[] }) => body.posts.map((p) => p.index);

beforeAll(async () => {
  forum = await startTestForum({ settings: { postsPerPage: 3 } });
  cid = await makeCategory(forum.ctx, 'Sorting');
  alice = await forum.loginAs();
  bob = await forum.loginAs();
  carol = await forum.loginAs();
  for (const c of [alice, bob, carol]) await c.client.put(`/api/v3/users/${c.user.uid}/settings`, { settings: { postsPerPage: 3 } });
  const t = await postTopic(alice.client, cid, { title: 'A topic to sort', content: 'The main post of the sorted topic' });
  tid = t.tid;
  slug = t.slug;
  main = t.mainPid;
  // Four replies in time order r0..r3; votes: r2 +2, r0 +1, r1 and r3 none.
  for (let i = 0; i < 4; i++) replies.push((await postReply(bob.client, tid, `Reply number ${i} in order`)).pid);
  for (const voter of [alice, carol]) expect((await voter.client.put(`/api/v3/posts/${replies[2]}/vote`, { delta: 1 })).status).toBe(200);
  expect((await carol.client.put(`/api/v3/posts/${replies[0]}/vote`, { delta: 1 })).status).toBe(200);
});
afterAll(async () => {
  await forum.close();
});

describe("a member's topicPostSort orders the topic page", () => {
  it('oldest first by default: the main post, then the replies in time order', async () => {
    const res = await carol.client.get(`/api/topic/${slug}`);
    expect(pidsOf(res.body)).toEqual([main, replies[0], replies[1]]);
    expect(indexesOf(res.body)).toEqual([0, 1, 2]);
    expect(res.body.events).toBeDefined();
  });

  it('newest first: the main post stays first, the newest replies follow; each keeps its index in time', async () => {
    expect((await sortBy(carol, 'newest_to_oldest')).status).toBe(200);
    const first = await carol.client.get(`/api/topic/${slug}`);
    expect(pidsOf(first.body)).toEqual([main, replies[3], replies[2]]);
    expect(indexesOf(first.body)).toEqual([0, 4, 3]);
    const second = await carol.client.get(`/api/topic/${slug}?page=2`);
    expect(pidsOf(second.body)).toEqual([replies[1], replies[0]]);
    expect(indexesOf(second.body)).toEqual([2, 1]);
    // Another member's order is their own.
    expect(pidsOf((await bob.client.get(`/api/topic/${slug}`)).body)).toEqual([main, replies[0], replies[1]]);
  });

  it('most votes first, ties oldest first', async () => {
    expect((await sortBy(carol, 'most_votes')).status).toBe(200);
    const first = await carol.client.get(`/api/topic/${slug}`);
    expect(pidsOf(first.body)).toEqual([main, replies[2], replies[0]]);
    const second = await carol.client.get(`/api/topic/${slug}?page=2`);
    expect(pidsOf(second.body)).toEqual([replies[1], replies[3]]);
  });

  it("a post's permalink (its index in time) opens the page where the member's order puts it", async () => {
    // replies[1] is #3 in time (index 2); by votes it is on page 2.
    const byVotes = await carol.client.get(`/api/topic/${tid}/${slug.split('/')[1]}/3`);
    expect(byVotes.body.pagination.currentPage).toBe(2);
    expect(pidsOf(byVotes.body)).toContain(replies[1]);
    await sortBy(carol, 'newest_to_oldest');
    // replies[3] is #5 in time: first among the replies, newest first.
    const newest = await carol.client.get(`/api/topic/${tid}/${slug.split('/')[1]}/5`);
    expect(newest.body.pagination.currentPage).toBe(1);
    expect(pidsOf(newest.body)).toContain(replies[3]);
    const oldestReply = await carol.client.get(`/api/topic/${tid}/${slug.split('/')[1]}/2`);
    expect(pidsOf(oldestReply.body)).toContain(replies[0]);
  });

  it('refuses an order that does not exist', async () => {
    expect((await sortBy(carol, 'random')).status).toBe(400);
  });
});
