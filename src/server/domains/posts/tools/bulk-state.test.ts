import { beforeAll, describe, expect, it } from 'vitest';
import { categoryCounts, postReply, postTopic, userCounts } from '../../topics/testing.js';
import { useForum } from '../../../test/forum-kit.js';

const kit = useForum({ category: 'Selections', members: ['author', 'member', 'mod'] });
beforeAll(async () => {
  await kit.forum.ctx.privileges.give(kit.cid, ['moderate'], `uid:${kit.mod.user.uid}`);
});

/** A topic by the author with three replies by the member. */
async function thread() {
  const t = await postTopic(kit.author.client, kit.cid, { title: `Selection ${Math.random().toString(36).slice(2, 8)} thread` });
  const replies: number[] = [];
  for (let i = 0; i < 3; i++) replies.push((await postReply(kit.member.client, t.tid, `Reply ${i} of the selection thread.`)).pid);
  return { tid: t.tid, mainPid: t.mainPid, replies };
}

const postsOf = (tid: number) => kit.forum.ctx.db.selectFrom('posts').select(['pid', 'deleted']).where('tid', '=', tid).orderBy('pid').execute();
const topicCount = async (tid: number) =>
  (await kit.forum.ctx.db.selectFrom('topics').select('post_count').where('tid', '=', tid).executeTakeFirstOrThrow()).post_count;

describe("a moderator's post selection, in one request", () => {
  it('deletes several posts in one action: rows, counts, the topic page', async () => {
    const { tid, replies } = await thread();
    const [catBefore, userBefore, topicBefore] = [
      await categoryCounts(kit.forum.ctx, kit.cid),
      await userCounts(kit.forum.ctx, kit.member.user.uid),
      await topicCount(tid),
    ];
    const res = await kit.mod.client.post('/api/v3/topic-tools/delete-posts', { pids: [replies[0], replies[2]] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.response).toEqual({ count: 2 });
    expect((await postsOf(tid)).filter((p) => p.deleted === 1).map((p) => p.pid)).toEqual([replies[0], replies[2]]);
    expect(await topicCount(tid)).toBe(topicBefore - 2);
    expect((await categoryCounts(kit.forum.ctx, kit.cid)).post_count).toBe(catBefore.post_count - 2);
    expect((await userCounts(kit.forum.ctx, kit.member.user.uid)).postcount).toBe(userBefore.postcount - 2);
    // A member reading the topic sees them deleted (no content).
    const page = await kit.author.client.get(`/api/topic/${tid}`);
    const shown = page.body.posts.filter((p: { pid: number; deleted: number }) => p.deleted === 1).map((p: { pid: number }) => p.pid);
    expect(shown).toEqual([replies[0], replies[2]]);

    // Deleting again changes nothing; restoring brings both back.
    expect((await kit.mod.client.post('/api/v3/topic-tools/delete-posts', { pids: [replies[0], replies[2]] })).body.response).toEqual({ count: 0 });
    expect((await kit.mod.client.post('/api/v3/topic-tools/restore-posts', { pids: [replies[0], replies[1], replies[2]] })).body.response).toEqual({
      count: 2,
    });
    expect((await postsOf(tid)).every((p) => p.deleted === 0)).toBe(true);
    expect(await topicCount(tid)).toBe(topicBefore);
    expect((await userCounts(kit.forum.ctx, kit.member.user.uid)).postcount).toBe(userBefore.postcount);
  });

  it('purges several posts for ever, and refuses one who may not purge', async () => {
    const { tid, mainPid, replies } = await thread();
    const userBefore = await userCounts(kit.forum.ctx, kit.member.user.uid);
    const refused = await kit.member.client.post('/api/v3/topic-tools/purge-posts', { pids: [replies[0]] });
    expect(refused.status).toBe(403);
    const res = await kit.admin.client.post('/api/v3/topic-tools/purge-posts', { pids: [replies[0], replies[1]] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.response).toEqual({ count: 2 });
    expect((await postsOf(tid)).map((p) => p.pid)).toEqual([mainPid, replies[2]]);
    expect((await userCounts(kit.forum.ctx, kit.member.user.uid)).postcount).toBe(userBefore.postcount - 2);
    const page = await kit.author.client.get(`/api/topic/${tid}`);
    expect(page.body.posts.map((p: { pid: number }) => p.pid)).toEqual([mainPid, replies[2]]);
  });

  it('refuses the main post, a member, a guest and a missing post, changing nothing', async () => {
    const { tid, mainPid, replies } = await thread();
    const main = await kit.mod.client.post('/api/v3/topic-tools/delete-posts', { pids: [replies[0], mainPid] });
    expect([main.status, main.body.status.key]).toEqual([400, 'error:cant-delete-main-post']);
    expect((await kit.member.client.post('/api/v3/topic-tools/delete-posts', { pids: [replies[0]] })).status).toBe(403);
    expect((await kit.author.client.post('/api/v3/topic-tools/delete-posts', { pids: [replies[0]] })).status).toBe(403);
    expect((await kit.forum.client().post('/api/v3/topic-tools/delete-posts', { pids: [replies[0]] })).status).toBe(401);
    expect((await kit.mod.client.post('/api/v3/topic-tools/delete-posts', { pids: [replies[0], 999999] })).status).toBe(404);
    expect((await kit.mod.client.post('/api/v3/topic-tools/delete-posts', { pids: [] })).status).toBe(400);
    expect((await postsOf(tid)).every((p) => p.deleted === 0)).toBe(true);
  });
});
