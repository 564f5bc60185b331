import { beforeAll, describe, expect, it } from 'vitest';
import { PostSummarySchema, ReplyAnswerSchema, EditAnswerSchema } from '../../../shared/schemas/post.js';
import { TopicObjectSchema, TopicSlimSchema } from '../../../shared/schemas/topic.js';
import { livePost } from '../posts/live.js';
import type { HttpClient } from '../../test/http-client.js';
import { postReply, postTopic } from './testing.js';
import { useForum } from '../../test/forum-kit.js';

// Issue 9: /api/v3 topics, posts, tags and ping answer NodeBB's documented fields and types;
// issue 17 defect 13: per-viewer post tools match what the server allows.

const keys = (schema: { properties: Record<string, unknown> }) => Object.keys(schema.properties).sort();

const kit = useForum({ category: 'NodeBB fields', members: ['alice', 'bob', 'mod'] });
beforeAll(async () => {
  await kit.forum.ctx.privileges.give(kit.cid, ['moderate'], `uid:${kit.mod.user.uid}`);
});

describe('topics as NodeBB documents them', () => {
  it('POST /api/v3/topics answers a TopicObject (0/1 flags, counts, federation fields) with its main post as a PostObject', async () => {
    const res = await kit.alice.client.post('/api/v3/topics', {
      cid: kit.cid,
      title: 'Fields of a topic',
      content: 'Some content that is long enough.',
      tags: ['nodebb'],
    });
    expect(res.status).toBe(200);
    const topic = res.body.response;
    expect(Object.keys(topic).sort()).toEqual([...keys(TopicObjectSchema), 'mainPost'].sort());
    expect(topic).toMatchObject({
      deleted: 0,
      locked: 0,
      pinned: 0,
      generatedTitle: 0,
      scheduled: false,
      postercount: 1,
      followercount: 1,
      teaserPid: topic.mainPid,
    });
    expect(topic).toMatchObject({
      thumbs: [],
      numThumbs: 0,
      pinExpiry: 0,
      isOwner: true,
      followed: true,
      ignored: false,
      unreplied: true,
      icons: [],
      bookmark: null,
    });
    expect(topic.user).toMatchObject({ uid: kit.alice.user.uid, isLocal: true, banned: false, banned_until: 0, banned_until_readable: 'Not Banned' });
    expect(topic.category).toMatchObject({ cid: kit.cid, disabled: 0, backgroundImage: null, imageClass: 'cover' });
    expect(topic.tags).toEqual([{ value: 'nodebb', valueEscaped: 'nodebb', color: '', bgColor: '', score: 1 }]);
    expect(Object.keys(topic.mainPost).sort()).toEqual(keys(ReplyAnswerSchema));
    expect(topic.mainPost).toMatchObject({ pid: topic.mainPid, toPid: null, deleted: false, isMainPost: true, replies: 0, sourceContent: null, index: 0 });
  });

  it('GET /api/v3/topics/{tid} answers the TopicObjectSlim: flags 0/1, poster and follower counts', async () => {
    const t = await postTopic(kit.alice.client, kit.cid);
    await postReply(kit.bob.client, t.tid);
    await postReply(kit.bob.client, t.tid);
    await kit.bob.client.put(`/api/v3/topics/${t.tid}/follow`);
    await kit.mod.client.put(`/api/v3/topics/${t.tid}/lock`);
    await kit.mod.client.put(`/api/v3/topics/${t.tid}/pin`);
    const res = await kit.forum.client().get(`/api/v3/topics/${t.tid}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.response).sort()).toEqual(keys(TopicSlimSchema));
    expect(res.body.response).toMatchObject({ tid: t.tid, postcount: 3, postercount: 2, followercount: 2, locked: 1, pinned: 1, deleted: 0, deleterUid: 0 });
    await kit.mod.client.del(`/api/v3/topics/${t.tid}/state`);
    expect((await kit.mod.client.get(`/api/v3/topics/${t.tid}`)).body.response).toMatchObject({ deleted: 1, deleterUid: kit.mod.user.uid });
  });

  it('lists carry TopicObjects with the viewer’s follow and read state', async () => {
    const t = await postTopic(kit.alice.client, kit.cid, { title: 'Listed with NodeBB fields' });
    await kit.bob.client.put(`/api/v3/topics/${t.tid}/ignore`);
    const list = (await kit.bob.client.get(`/api/v3/categories/${kit.cid}/topics`)).body.response.topics as { tid: number }[];
    const item = list.find((x) => x.tid === t.tid)!;
    expect(Object.keys(item).sort()).toEqual(keys(TopicObjectSchema));
    expect(item).toMatchObject({ isOwner: false, ignored: true, followed: false, unread: true, deleted: 0, locked: 0, pinned: 0 });
  });

  it('DELETE /api/v3/topics/{tid}/tags answers an object, with or without a body', async () => {
    const t = await postTopic(kit.alice.client, kit.cid, { tags: ['keep', 'drop'] });
    const one = await kit.alice.client.del(`/api/v3/topics/${t.tid}/tags`, { tags: ['drop'], unknownField: 1 });
    expect(one.status).toBe(200);
    expect(one.body.response).toEqual({});
    expect(await kit.forum.ctx.tags.namesOf(t.tid)).toEqual(['keep']);
    expect((await kit.alice.client.del(`/api/v3/topics/${t.tid}/tags`)).body.response).toEqual({});
  });
});

describe('posts as NodeBB documents them', () => {
  it('a reply answers a PostObject with its index; an edit adds edited and deleterUid', async () => {
    const t = await postTopic(kit.alice.client, kit.cid);
    const res = await kit.bob.client.post(`/api/v3/topics/${t.tid}`, { content: 'A reply with NodeBB fields.', toPid: t.mainPid, ignored: 'x' });
    expect(res.status).toBe(200);
    const reply = res.body.response;
    expect(Object.keys(reply).sort()).toEqual(keys(ReplyAnswerSchema));
    expect(reply).toMatchObject({ tid: t.tid, toPid: t.mainPid, index: 1, deleted: false, isMainPost: false, url: `/post/${reply.pid}` });
    expect(Object.keys(reply.user).sort()).toEqual(
      ['icon:bgColor', 'icon:text', 'displayname', 'isLocal', 'picture', 'status', 'uid', 'username', 'userslug'].sort(),
    );
    expect(reply.topic).toMatchObject({ tid: t.tid, cid: kit.cid, deleted: 0, isMainPost: false });
    expect(reply.category).toMatchObject({ cid: kit.cid, parentCid: 0 });
    const main = (await kit.alice.client.get(`/api/v3/posts/${t.mainPid}`)).body.response;
    expect(main.replies).toBe(1);

    const edit = await kit.bob.client.put(`/api/v3/posts/${reply.pid}`, { content: 'An edited reply with fields.' });
    expect(edit.status).toBe(200);
    expect(Object.keys(edit.body.response).sort()).toEqual(keys(EditAnswerSchema));
    expect(edit.body.response.edited).toBeGreaterThan(0);
    expect(edit.body.response.deleterUid).toBe(0);
  });

  it('GET /api/v3/posts/{pid} answers NodeBB’s post fields: deleted 0/1, the viewer’s vote', async () => {
    const t = await postTopic(kit.alice.client, kit.cid);
    const r = await postReply(kit.alice.client, t.tid);
    await kit.bob.client.put(`/api/v3/posts/${r.pid}/vote`, { delta: 1 });
    await kit.alice.client.del(`/api/v3/posts/${r.pid}/state`);
    const res = await kit.bob.client.get(`/api/v3/posts/${r.pid}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.response).sort()).toEqual(keys(PostSummarySchema));
    expect(res.body.response).toMatchObject({ pid: r.pid, deleted: 1, deleterUid: kit.alice.user.uid, upvoted: true, downvoted: false, votes: 1, content: '' });
  });

  it('POST /api/v3/ping answers the uid and the body it received', async () => {
    const res = await kit.alice.client.post('/api/v3/ping', { hello: 'world', n: 1 });
    expect(res.status).toBe(200);
    expect(res.body.response).toEqual({ uid: kit.alice.user.uid, received: { hello: 'world', n: 1 } });
    expect((await kit.alice.client.post('/api/v3/ping')).body.response).toEqual({ uid: kit.alice.user.uid, received: {} });
  });
});

describe('post tools per viewer (issue 17, defect 13)', () => {
  it('the topic page offers only the tools the server allows', async () => {
    const t = await postTopic(kit.alice.client, kit.cid);
    const r = await postReply(kit.alice.client, t.tid);
    const tools = async (client: HttpClient) => {
      const page = (await client.get(`/api/topic/${t.tid}`)).body as { posts: Record<string, unknown>[] };
      return page.posts.map((p) => [p.selfPost, p.display_edit_tools, p.display_delete_tools, p.display_moderator_tools]);
    };
    // The author edits both, deletes only the reply (the main post is not deleted on its own).
    expect(await tools(kit.alice.client)).toEqual([
      [true, true, false, false],
      [true, true, true, false],
    ]);
    expect(await tools(kit.bob.client)).toEqual([
      [false, false, false, false],
      [false, false, false, false],
    ]);
    expect(await tools(kit.mod.client)).toEqual([
      [false, true, false, true],
      [false, true, true, true],
    ]);
    // Locked: the author may no longer edit (the server refuses), a moderator still may.
    await kit.mod.client.put(`/api/v3/topics/${t.tid}/lock`);
    expect((await kit.alice.client.put(`/api/v3/posts/${r.pid}`, { content: 'Trying to edit when locked.' })).status).toBe(403);
    expect((await tools(kit.alice.client))[1]).toEqual([true, false, true, false]);
    expect((await tools(kit.mod.client))[1]).toEqual([false, true, true, true]);
  });

  it('a live post carries no viewer’s tools (each client computes its own)', async () => {
    const t = await postTopic(kit.alice.client, kit.cid);
    const r = await postReply(kit.alice.client, t.tid);
    const post = (await kit.forum.ctx.posts.get(r.pid))!;
    const topic = (await kit.forum.ctx.topics.get(t.tid))!;
    const live = await livePost(kit.forum.ctx, post, topic);
    expect(live).toMatchObject({ selfPost: false, display_edit_tools: false, display_delete_tools: false, display_moderator_tools: false, deleted: 0 });
  });
});
