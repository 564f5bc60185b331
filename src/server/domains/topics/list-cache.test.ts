import { beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../../setup.js';
import { ALL } from '../../core/tags.js';
import type { HttpClient } from '../../test/http-client.js';
import type { UserRow } from '../users/store.js';
import { makeCategory, postReply, postTopic } from './testing.js';
import { DAY_MS } from '../../../shared/constants.js';
import { useForum } from '../../test/forum-kit.js';

// Topic lists share their viewer-independent part between members who may read the same
// categories (list.ts, ListCache): each member still gets their own read, follow and owner
// state, and a write shows at once.
let staff: number;
let alice: { client: HttpClient; user: UserRow };
let bob: { client: HttpClient; user: UserRow };
let carol: { client: HttpClient; user: UserRow };

interface Listed {
  tid: number;
  title: string;
  unread: boolean;
  followed: boolean;
  ignored: boolean;
  isOwner: boolean;
  postcount: number;
  followercount: number;
  teaser: { pid: number } | null;
}
const list = async (m: { client: HttpClient }, path: string): Promise<Listed[]> => {
  const res = await m.client.get(path);
  expect(res.status, path).toBe(200);
  return res.body.topics as Listed[];
};
const find = (topics: Listed[], tid: number) => topics.find((t) => t.tid === tid);

const kit = useForum({ category: 'Shared lists' });
beforeAll(async () => {
  staff = await makeCategory(kit.forum.ctx, 'Staff lists');
  for (const group of ['guests', 'registered-users', 'spiders']) {
    await kit.forum.ctx.categories.rescind(SYSTEM, staff, 'groups:topics:read', group).catch(() => undefined);
    await kit.forum.ctx.categories.rescind(SYSTEM, staff, 'groups:read', group).catch(() => undefined);
  }
  alice = await kit.forum.loginAs();
  bob = await kit.forum.loginAs();
  carol = await kit.forum.loginAs();
  // Carol alone (a grant to her uid) reads the staff category.
  await kit.forum.ctx.privileges.give(staff, ['read', 'topics:read', 'topics:create'], `uid:${carol.user.uid}`);
});

describe('topic lists shared between members', () => {
  it('gives each member their own unread, follow and owner state on the same cached page', async () => {
    const t = await postTopic(alice.client, kit.cid, { title: 'Shared list topic one' });
    // Both read the list (the second is served the page the first built).
    const a1 = find(await list(alice, `/api/category/${kit.cid}`), t.tid)!;
    const b1 = find(await list(bob, `/api/category/${kit.cid}`), t.tid)!;
    expect(a1).toMatchObject({ isOwner: true, unread: false });
    expect(b1).toMatchObject({ isOwner: false, unread: true, followed: false, ignored: false });
    // Bob reads the topic and ignores it: his list says so, Alice's does not change.
    expect((await bob.client.get(`/api/topic/${t.tid}`)).status).toBe(200);
    expect((await bob.client.put(`/api/v3/topics/${t.tid}/ignore`)).status).toBe(200);
    const b2 = find(await list(bob, `/api/category/${kit.cid}`), t.tid)!;
    const a2 = find(await list(alice, `/api/category/${kit.cid}`), t.tid)!;
    expect(b2).toMatchObject({ unread: false, ignored: true, followed: false, isOwner: false });
    expect(a2).toMatchObject({ isOwner: true, ignored: false, unread: false });
    // Following changes the follower count every member sees, at once.
    const before = find(await list(alice, '/api/recent'), t.tid)!.followercount;
    expect((await bob.client.put(`/api/v3/topics/${t.tid}/follow`)).status).toBe(200);
    expect(find(await list(alice, '/api/recent'), t.tid)!.followercount).toBe(before + 1);
    expect(find(await list(bob, '/api/recent'), t.tid)).toMatchObject({ followed: true, ignored: false });
  });

  it('shows a new topic and a reply at once to members who had the page', async () => {
    const t = await postTopic(alice.client, kit.cid, { title: 'Shared list topic two' });
    expect(find(await list(bob, `/api/category/${kit.cid}`), t.tid)).toMatchObject({ postcount: 1, unread: true });
    const reply = await postReply(alice.client, t.tid, 'A reply everybody sees in the list at once.');
    const after = find(await list(bob, `/api/category/${kit.cid}`), t.tid)!;
    expect(after.postcount).toBe(2);
    expect(after.teaser?.pid).toBe(reply.pid);
    // A new topic from another member comes first in recent.
    const u = await postTopic(bob.client, kit.cid, { title: 'Shared list topic three' });
    expect((await list(alice, '/api/recent'))[0]!.tid).toBe(u.tid);
    expect((await list(carol, '/api/recent'))[0]!.tid).toBe(u.tid);
  });

  it('keeps a term list to its window, and shows a reply at once', async () => {
    const old = await postTopic(alice.client, kit.cid, { title: 'Shared term list old topic' });
    const recent = await postTopic(alice.client, kit.cid, { title: 'Shared term list recent topic' });
    // The old topic's last post was two days ago (its row is aged directly, as time would).
    await kit.forum.ctx.db
      .updateTable('topics')
      .set({ last_post_time: Date.now() - 2 * DAY_MS })
      .where('tid', '=', old.tid)
      .execute();
    // Aged behind the caches' back: every cache drops, as an administrator's clear would.
    kit.forum.ctx.changes.publish([ALL]);
    const day = await list(bob, '/api/popular?term=day');
    expect(find(day, recent.tid)).toBeDefined();
    expect(find(day, old.tid)).toBeUndefined();
    expect(find(await list(alice, '/api/popular?term=day'), old.tid)).toBeUndefined();
    expect(find(await list(bob, '/api/popular?term=week'), old.tid)).toBeDefined();
    expect(find(await list(bob, '/api/top?term=month'), old.tid)).toBeDefined();
    // A reply brings it back into the day's list, for every member, at once.
    await postReply(bob.client, old.tid, 'A reply that makes the old topic active today.');
    expect(find(await list(alice, '/api/popular?term=day'), old.tid)).toMatchObject({ postcount: 2 });
    expect(find(await list(bob, '/api/popular?term=day'), old.tid)).toMatchObject({ postcount: 2 });
  });

  it('never gives a member a page built for members who may read more categories', async () => {
    const hidden = await postTopic(carol.client, staff, { title: 'Staff only topic here' });
    // Carol builds the page first; Bob's must not be hers.
    expect(find(await list(carol, '/api/recent'), hidden.tid)).toBeDefined();
    expect(find(await list(bob, '/api/recent'), hidden.tid)).toBeUndefined();
    expect(find(await list({ client: kit.forum.client() }, '/api/recent'), hidden.tid)).toBeUndefined();
  });
});

describe('topic pages shared between readers', () => {
  interface PagePost {
    pid: number;
    content: string;
    deleted: number;
    upvotes: number;
    upvoted: boolean;
    bookmarks: number;
    bookmarked: boolean;
    selfPost: boolean;
    display_moderator_tools: boolean;
  }
  const page = async (m: { client: HttpClient }, tid: number): Promise<Map<number, PagePost>> => {
    const res = await m.client.get(`/api/topic/${tid}`);
    expect(res.status).toBe(200);
    return new Map((res.body.posts as PagePost[]).map((p) => [p.pid, p]));
  };

  it("never shows one reader's hidden content, votes, bookmarks or tools to another, and shows writes at once", async () => {
    const admin = await kit.forum.loginAs({ admin: true });
    const t = await postTopic(alice.client, kit.cid, { title: 'Shared topic page', content: 'The main post of the shared page.' });
    const gone = await postReply(bob.client, t.tid, 'A reply that a moderator deletes.');
    const kept = await postReply(alice.client, t.tid, 'A reply that gets a vote and a bookmark.');
    expect((await admin.client.del(`/api/v3/posts/${gone.pid}/state`)).status).toBe(200);
    // The administrator reads first: the page part is built with the deleted post's HTML.
    const adminView = await page(admin, t.tid);
    expect(adminView.get(gone.pid)).toMatchObject({ deleted: 1, display_moderator_tools: true });
    expect(adminView.get(gone.pid)!.content).toContain('moderator deletes');
    // Carol may not see it; Bob, its author, gets his own post flagged as his.
    const carolView = await page(carol, t.tid);
    expect(carolView.get(gone.pid)).toMatchObject({ deleted: 1, content: '', display_moderator_tools: false, selfPost: false });
    expect((await page(bob, t.tid)).get(kept.pid)).toMatchObject({ selfPost: false, upvoted: false });
    // Bob votes and Carol bookmarks: each sees their own mark, everyone the new counts, at once.
    expect((await bob.client.put(`/api/v3/posts/${kept.pid}/vote`, { delta: 1 })).status).toBe(200);
    expect((await page(carol, t.tid)).get(kept.pid)).toMatchObject({ upvotes: 1, upvoted: false, bookmarks: 0 });
    expect((await carol.client.put(`/api/v3/posts/${kept.pid}/bookmark`)).status).toBe(200);
    expect((await page(bob, t.tid)).get(kept.pid)).toMatchObject({ upvotes: 1, upvoted: true, bookmarks: 1, bookmarked: false });
    expect((await page(carol, t.tid)).get(kept.pid)).toMatchObject({ upvotes: 1, upvoted: false, bookmarks: 1, bookmarked: true });
    expect((await page(alice, t.tid)).get(kept.pid)).toMatchObject({ selfPost: true, upvoted: false, bookmarked: false });
    // Carol downvotes the post she bookmarked: her vote and her bookmark come from one statement.
    expect((await carol.client.put(`/api/v3/posts/${kept.pid}/vote`, { delta: -1 })).status).toBe(200);
    expect((await page(carol, t.tid)).get(kept.pid)).toMatchObject({ downvoted: true, upvoted: false, bookmarked: true });
    // An edit shows at once too.
    expect((await alice.client.put(`/api/v3/posts/${kept.pid}`, { content: 'A reply edited after the vote and the bookmark.' })).status).toBe(200);
    expect((await page(carol, t.tid)).get(kept.pid)!.content).toContain('edited after the vote');
  });

  it("shows a topic's editors and its timeline at once, though the row and the page part are shared", async () => {
    const admin = await kit.forum.loginAs({ admin: true });
    const t = await postTopic(alice.client, kit.cid, { title: 'Shared topic with a timeline', content: 'A main post that editors may edit.' });
    const body = async (m: { client: HttpClient }) =>
      (await m.client.get(`/api/topic/${t.tid}`)).body as { posts: PagePost[]; events: { id: number; type: string }[]; locked: number };
    // Bob reads the page (the part is built and shared): no Edit tool on Alice's post, no events.
    expect((await body(bob)).posts[0]).toMatchObject({ display_edit_tools: false });
    expect((await body(bob)).events).toEqual([]);
    // Alice makes Bob an editor: his next read has the tool; Carol's has not.
    expect((await alice.client.put(`/api/v3/topics/${t.tid}/editors`, { uids: [bob.user.uid] })).status).toBe(200);
    expect((await body(bob)).posts[0]).toMatchObject({ display_edit_tools: true });
    expect((await body(carol)).posts[0]).toMatchObject({ display_edit_tools: false });
    // A lock changes the shared row and adds an event; its deletion takes the event away.
    expect((await admin.client.put(`/api/v3/topics/${t.tid}/lock`)).status).toBe(200);
    const locked = await body(carol);
    expect(locked.locked).toBe(1);
    const lock = locked.events.find((e) => e.type === 'lock');
    expect(lock).toBeDefined();
    expect((await admin.client.del(`/api/v3/topics/${t.tid}/events/${lock!.id}`)).status).toBe(200);
    expect((await body(carol)).events.map((e) => e.type)).not.toContain('lock');
  });
});
