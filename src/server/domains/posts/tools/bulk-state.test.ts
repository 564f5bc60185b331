import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../../../test/harness.js';
import type { HttpClient } from '../../../test/http-client.js';
import type { UserRow } from '../../users/store.js';
import { categoryCounts, makeCategory, postReply, postTopic, userCounts } from '../../topics/testing.js';

type Actor = { client: HttpClient; user: UserRow };
let forum: TestForum;
let cid: number;
let author: Actor;
let member: Actor;
let mod: Actor;
let admin: Actor;

beforeAll(async () => {
  forum = await startTestForum();
  cid = await makeCategory(forum.ctx, 'Selections');
  author = await forum.loginAs();
  member = await forum.loginAs();
  mod = await forum.loginAs();
  admin = await forum.loginAs({ admin: true });
  await forum.ctx.privileges.give(cid, ['moderate'], `uid:${mod.user.uid}`);
});
afterAll(async () => {
  await forum.close();
});

/** A topic by the author with three replies by the member. */
async function thread() {
  const t = await postTopic(author.client, cid, { title: `Selection ${Math.random().toString(36).slice(2, 8)} thread` });
  const replies: number[] = [];
  for (let i = 0; i < 3; i++) replies.push((await postReply(member.client, t.tid, `Reply ${i} of the selection thread.`)).pid);
  return { tid: t.tid, mainPid: t.mainPid, replies };
}

const postsOf = (tid: number) => forum.ctx.db.selectFrom('posts').select(['pid', 'deleted']).where('tid', '=', tid).orderBy('pid').execute();
const topicCount = async (tid: number) => (await forum.ctx.db.selectFrom('topics').select('post_count').where('tid', '=', tid).executeTakeFirstOrThrow()).post_count;

describe("a moderator's post selection, in one request", () => {
  it('deletes several posts in one action: rows, counts, the topic page', async () => {
    const { tid, replies } = await thread();
    const [catBefore, userBefore, topicBefore] = [await categoryCounts(forum.ctx, cid), await userCounts(forum.ctx, member.user.uid), await topicCount(tid)];
    const res = await mod.client.post('/api/v3/topic-tools/delete-posts', { pids: [replies[0], replies[2]] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.response).toEqual({ count: 2 });
    expect((await postsOf(tid)).filter((p) => p.deleted === 1).map((p) => p.pid)).toEqual([replies[0], replies[2]]);
    expect(await topicCount(tid)).toBe(topicBefore - 2);
    expect((await categoryCounts(forum.ctx, cid)).post_count).toBe(catBefore.post_count - 2);
    expect((await userCounts(forum.ctx, member.user.uid)).postcount).toBe(userBefore.postcount - 2);
    // A member reading the topic sees them deleted (no content).
    const page = await author.client.get(`/api/topic/${tid}`);
    const shown = page.body.posts.filter((p: { pid: number; deleted: number }) => p.deleted === 1).map((p: { pid: number }) => p.pid);
    expect(shown).toEqual([replies[0], replies[2]]);

    // Deleting again changes nothing; restoring brings both back.
    expect((await mod.client.post('/api/v3/topic-tools/delete-posts', { pids: [replies[0], replies[2]] })).body.response).toEqual({ count: 0 });
    expect((await mod.client.post('/api/v3/topic-tools/restore-posts', { pids: [replies[0], replies[1], replies[2]] })).body.response).toEqual({ count: 2 });
    expect((await postsOf(tid)).every((p) => p.deleted === 0)).toBe(true);
    expect(await topicCount(tid)).toBe(topicBefore);
    expect((await userCounts(forum.ctx, member.user.uid)).postcount).toBe(userBefore.postcount);
  });

  it('purges several posts for ever, and refuses one who may not purge', async () => {
    const { tid, mainPid, replies } = await thread();
    const userBefore = await userCounts(forum.ctx, member.user.uid);
    const refused = await member.client.post('/api/v3/topic-tools/purge-posts', { pids: [replies[0]] });
    expect(refused.status).toBe(403);
    const res = await admin.client.post('/api/v3/topic-tools/purge-posts', { pids: [replies[0], replies[1]] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.response).toEqual({ count: 2 });
    expect((await postsOf(tid)).map((p) => p.pid)).toEqual([mainPid, replies[2]]);
    expect((await userCounts(forum.ctx, member.user.uid)).postcount).toBe(userBefore.postcount - 2);
    const page = await author.client.get(`/api/topic/${tid}`);
    expect(page.body.posts.map((p: { pid: number }) => p.pid)).toEqual([mainPid, replies[2]]);
  });

  it('refuses the main post, a member, a guest and a missing post, changing nothing', async () => {
    const { tid, mainPid, replies } = await thread();
    const main = await mod.client.post('/api/v3/topic-tools/delete-posts', { pids: [replies[0], mainPid] });
    expect([main.status, main.body.status.key]).toEqual([400, 'error:cant-delete-main-post']);
    expect((await member.client.post('/api/v3/topic-tools/delete-posts', { pids: [replies[0]] })).status).toBe(403);
    expect((await author.client.post('/api/v3/topic-tools/delete-posts', { pids: [replies[0]] })).status).toBe(403);
    expect((await forum.client().post('/api/v3/topic-tools/delete-posts', { pids: [replies[0]] })).status).toBe(401);
    expect((await mod.client.post('/api/v3/topic-tools/delete-posts', { pids: [replies[0], 999999] })).status).toBe(404);
    expect((await mod.client.post('/api/v3/topic-tools/delete-posts', { pids: [] })).status).toBe(400);
    expect((await postsOf(tid)).every((p) => p.deleted === 0)).toBe(true);
  });
});
