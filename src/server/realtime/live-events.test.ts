import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REGISTERED } from '../domains/groups/service.js';
import type { Viewer } from '../domains/privileges/service.js';
import { SYSTEM } from '../setup.js';
import { call, collect, connectLive, nextEvent, delivered, type LiveClient } from '../test/live-client.js';
import { startTestForum, type TestForum } from '../test/harness.js';
import type { HttpClient } from '../test/http-client.js';
import type { LivePost, TopicStatePayload, VotePayload } from './events.js';

let forum: TestForum;
let openCid: number;
let staffCid: number;
let admin: Viewer;
const open: LiveClient[] = [];

/** A member with an HTTP client and a socket in the given page room. */
async function reader(room: string | null, opts: { admin?: boolean } = {}): Promise<{ client: HttpClient; socket: LiveClient; uid: number }> {
  const { client, user } = await forum.loginAs(opts);
  const socket = await connectLive(client);
  open.push(socket);
  if (room) await call(socket, 'meta.rooms.enter', { enter: room });
  return { client, socket, uid: user.uid };
}

async function newTopic(cid = openCid) {
  return forum.ctx.topics.create(admin, { cid, title: `Topic ${Date.now()}`, content: 'The first post of a topic' });
}

beforeAll(async () => {
  forum = await startTestForum();
  admin = await forum.ctx.privileges.viewer((await forum.createUser({ admin: true })).uid);
  openCid = (await forum.ctx.categories.create(SYSTEM, { name: 'Open' })).cid;
  staffCid = (await forum.ctx.categories.create(SYSTEM, { name: 'Staff' })).cid;
  await forum.ctx.privileges.take(staffCid, ['find', 'read', 'topics:read'], REGISTERED);
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(async () => {
  await forum.close();
});

describe('new posts and topics', () => {
  it('pushes a reply to the topic room as event:new_post, presented like the topic page', async () => {
    const { topic } = await newTopic();
    const watcher = await reader(`topic_${topic.tid}`);
    const poster = await reader(null);
    const got = nextEvent<{ posts: LivePost[] }>(watcher.socket, 'event:new_post');
    const res = await poster.client.post(`/api/v3/topics/${topic.tid}`, { content: 'A **live** reply arrives' });
    expect(res.status).toBe(200);
    const { posts } = await got;
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      pid: res.body.response.pid,
      tid: topic.tid,
      uid: poster.uid,
      index: 1,
      isMainPost: false,
      deleted: 0,
      topic: { tid: topic.tid, cid: openCid, titleRaw: topic.title },
      category: { cid: openCid, name: 'Open' },
      user: { uid: poster.uid },
    });
    expect(posts[0]!.content).toContain('<strong>live</strong>');
    // Nothing personal to the reader rides along: the client adds its own flags.
    expect(posts[0]).toMatchObject({ selfPost: false, upvoted: false, display_edit_tools: false });
  });

  it('sends recent_topics and category readers only what they may read', async () => {
    const member = await reader('recent_topics');
    const staff = await reader('recent_topics', { admin: true });
    const memberPosts = collect<{ posts: LivePost[] }>(member.socket, 'event:new_post');
    const memberTopics = collect(member.socket, 'event:new_topic');
    const staffGot = nextEvent<{ posts: LivePost[] }>(staff.socket, 'event:new_post');
    const staffTopic = nextEvent<{ tid: number }>(staff.socket, 'event:new_topic');

    const secret = await newTopic(staffCid);
    expect((await staffTopic).tid).toBe(secret.topic.tid);
    await forum.ctx.posts.reply(admin, secret.topic.tid, { content: 'Staff only reply here' });
    expect((await staffGot).posts[0]!.tid).toBe(secret.topic.tid);

    const visible = await newTopic(openCid);
    await forum.ctx.posts.reply(admin, visible.topic.tid, { content: 'Everyone may read this' });
    await delivered(forum, member.socket);
    expect(memberTopics.map((t) => (t as { tid: number }).tid)).toEqual([visible.topic.tid]);
    expect(memberPosts.map((p) => p.posts[0]!.tid)).toEqual([visible.topic.tid]);
  });

  it('pushes event:new_topic to the unread list room', async () => {
    const watcher = await reader('unread_topics');
    const got = nextEvent<{ tid: number }>(watcher.socket, 'event:new_topic');
    const { topic } = await newTopic();
    expect((await got).tid).toBe(topic.tid);
  });

  it('pushes event:new_topic to the category room', async () => {
    const watcher = await reader(`category_${openCid}`);
    const got = nextEvent<{ tid: number; cid: number; titleRaw: string; user: { uid: number } }>(watcher.socket, 'event:new_topic');
    const { topic } = await newTopic();
    expect(await got).toMatchObject({ tid: topic.tid, cid: openCid, titleRaw: topic.title, user: { uid: admin.uid } });
  });

  it('stops pushing to a member who lost the read privilege after entering', async () => {
    const cid = (await forum.ctx.categories.create(SYSTEM, { name: 'Soon closed' })).cid;
    const { topic } = await newTopic(cid);
    const watcher = await reader(`topic_${topic.tid}`);
    const seen = collect(watcher.socket, 'event:new_post');
    await forum.ctx.privileges.take(cid, ['read', 'topics:read'], REGISTERED);
    await forum.ctx.posts.reply(admin, topic.tid, { content: 'Said after the door closed' });
    await delivered(forum, watcher.socket);
    expect(seen).toEqual([]);
  });
});

describe('edits, deletes and votes', () => {
  it('pushes edits, deletes and restores to the topic room', async () => {
    const { topic } = await newTopic();
    const author = await reader(null);
    const { post } = await forum.ctx.posts.reply(await forum.ctx.privileges.viewer(author.uid), topic.tid, { content: 'First version of it' });
    const watcher = await reader(`topic_${topic.tid}`);

    const edited = nextEvent<{ post: LivePost; topic: { tid: number } }>(watcher.socket, 'event:post_edited');
    expect((await author.client.put(`/api/v3/posts/${post.pid}`, { content: 'Second version of it' })).status).toBe(200);
    expect(await edited).toMatchObject({ post: { pid: post.pid, content: expect.stringContaining('Second version') }, topic: { tid: topic.tid } });

    const deleted = nextEvent<LivePost>(watcher.socket, 'event:post_deleted');
    expect((await author.client.del(`/api/v3/posts/${post.pid}/state`, {})).status).toBe(200);
    expect(await deleted).toMatchObject({ pid: post.pid, deleted: 1, content: '' });

    const restored = nextEvent<LivePost>(watcher.socket, 'event:post_restored');
    expect((await author.client.put(`/api/v3/posts/${post.pid}/state`, {})).status).toBe(200);
    expect(await restored).toMatchObject({ pid: post.pid, deleted: 0, content: expect.stringContaining('Second version') });
  });

  it('shows an edit of a deleted post only to those who may see deleted posts', async () => {
    const { topic } = await newTopic();
    const { post } = await forum.ctx.posts.reply(admin, topic.tid, { content: 'Soon to be removed' });
    await forum.ctx.posts.delete(admin, post.pid);
    const member = await reader(`topic_${topic.tid}`);
    const staff = await reader(`topic_${topic.tid}`, { admin: true });
    const memberSeen = collect(member.socket, 'event:post_edited');
    const staffGot = nextEvent(staff.socket, 'event:post_edited');
    await forum.ctx.posts.edit(admin, post.pid, { content: 'Edited while deleted' });
    await staffGot;
    await delivered(forum, member.socket);
    expect(memberSeen).toEqual([]);
  });

  it("tells the voter posts.upvote / posts.unvote and the topic's readers event:voted", async () => {
    const { topic, post } = await newTopic();
    const voter = await reader(null);
    const watcher = await reader(`topic_${topic.tid}`);
    const mine = nextEvent<VotePayload>(voter.socket, 'posts.upvote');
    const theirs = nextEvent<VotePayload>(watcher.socket, 'event:voted');
    expect((await voter.client.put(`/api/v3/posts/${post.pid}/vote`, { delta: 1 })).status).toBe(200);
    const expected = { post: { pid: post.pid, uid: admin.uid, tid: topic.tid, votes: 1, upvotes: 1, downvotes: 0 }, fromuid: voter.uid };
    expect(await mine).toMatchObject(expected);
    expect(await theirs).toMatchObject(expected);
    expect((await mine).user.reputation).toBe((await forum.ctx.users.get(admin.uid))!.reputation);

    const unvote = nextEvent<VotePayload>(voter.socket, 'posts.unvote');
    expect((await voter.client.del(`/api/v3/posts/${post.pid}/vote`, {})).status).toBe(200);
    expect(await unvote).toMatchObject({ post: { pid: post.pid, votes: 0, upvotes: 0 } });

    const down = nextEvent<VotePayload>(voter.socket, 'posts.downvote');
    await voter.client.put(`/api/v3/posts/${post.pid}/vote`, { delta: -1 });
    expect(await down).toMatchObject({ post: { votes: -1, downvotes: 1 } });
  });
});

describe('topic tools', () => {
  it('tells the topic and category rooms of locks, pins, deletes and restores', async () => {
    const { topic } = await newTopic();
    const inTopic = await reader(`topic_${topic.tid}`);
    const inCategory = await reader(`category_${openCid}`);
    const state = { tid: topic.tid, cid: openCid, uid: admin.uid };
    const steps: [string, () => Promise<unknown>, Partial<TopicStatePayload>][] = [
      ['event:topic_locked', () => forum.ctx.topics.lock(admin, topic.tid, true), { isLocked: true }],
      ['event:topic_unlocked', () => forum.ctx.topics.lock(admin, topic.tid, false), { isLocked: false }],
      ['event:topic_pinned', () => forum.ctx.topics.pin(admin, topic.tid, true), { isPinned: true }],
      ['event:topic_unpinned', () => forum.ctx.topics.pin(admin, topic.tid, false), { isPinned: false }],
      ['event:topic_deleted', () => forum.ctx.topics.delete(admin, topic.tid), { isDelete: true }],
      ['event:topic_restored', () => forum.ctx.topics.restore(admin, topic.tid), { isDelete: false }],
    ];
    for (const [event, act, extra] of steps) {
      const a = nextEvent(inTopic.socket, event);
      const b = nextEvent(inCategory.socket, event);
      await act();
      expect(await a).toEqual({ ...state, ...extra });
      expect(await b).toEqual({ ...state, ...extra });
    }
  });

  it('does not tell a category room the member cannot read', async () => {
    const { topic } = await newTopic(staffCid);
    const member = await reader('recent_topics');
    // Entering is refused, so the member cannot listen in on the staff category.
    await expect(call(member.socket, 'meta.rooms.enter', { enter: `category_${staffCid}` })).rejects.toMatchObject({ key: 'error:no-category' });
    const seen = collect(member.socket, 'event:topic_locked');
    await forum.ctx.topics.lock(admin, topic.tid, true);
    await delivered(forum, member.socket);
    expect(seen).toEqual([]);
  });
});
