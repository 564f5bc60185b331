import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import { makeCategory, postTopic } from '../topics/testing.js';
import type { UserRow } from '../users/store.js';

let forum: TestForum;
let cid: number;
let author: { client: HttpClient; user: UserRow };
let stranger: { client: HttpClient; user: UserRow };
let mod: { client: HttpClient; user: UserRow };

const tick = () => new Promise((r) => setTimeout(r, 5));

async function history(client: HttpClient, pid: number) {
  const res = await client.get(`/api/v3/posts/${pid}/diffs`);
  expect(res.status).toBe(200);
  return res.body.response as { timestamps: string[]; revisions: { timestamp: string; uid: number; username: string; title?: string }[]; editable: boolean; deletable: boolean };
}

beforeAll(async () => {
  forum = await startTestForum();
  cid = await makeCategory(forum.ctx, 'History');
  author = await forum.loginAs();
  stranger = await forum.loginAs();
  mod = await forum.loginAs();
  await forum.ctx.privileges.give(cid, ['moderate'], `uid:${mod.user.uid}`);
});
afterAll(async () => {
  await forum.close();
});

describe('edit history', () => {
  it('lists every version; a moderator restores one (a new edit) and deletes one', async () => {
    const t = await postTopic(author.client, cid, { title: 'First title here', content: 'Version one of the post' });
    await tick();
    expect((await author.client.put(`/api/v3/posts/${t.mainPid}`, { content: 'Version two of the post', title: 'Second title here' })).status).toBe(200);
    await tick();
    expect((await mod.client.put(`/api/v3/posts/${t.mainPid}`, { content: 'Version three, by a moderator' })).status).toBe(200);

    let h = await history(author.client, t.mainPid);
    expect(h.revisions.map((r) => r.uid)).toEqual([mod.user.uid, author.user.uid, author.user.uid]);
    // The main post's history carries the title of each version: the change shows.
    expect(h.revisions.map((r) => r.title)).toEqual(['Second title here', 'Second title here', 'First title here']);
    const [, second, first] = h.timestamps;

    // Restore the first version: the post reads as it did, title included, and the history grows.
    await tick();
    const restored = await mod.client.put(`/api/v3/posts/${t.mainPid}/diffs/${first}`);
    expect(restored.status).toBe(200);
    expect((await forum.ctx.posts.get(t.mainPid))!.content).toBe('Version one of the post');
    expect((await forum.ctx.topics.get(t.tid))!.title).toBe('First title here');
    h = await history(author.client, t.mainPid);
    expect(h.timestamps).toHaveLength(4);
    expect(h.revisions[0]!.uid).toBe(mod.user.uid);

    // Members may not delete a version; moderators may, not the current one.
    expect((await stranger.client.del(`/api/v3/posts/${t.mainPid}/diffs/${second}`)).status).toBe(403);
    expect((await author.client.del(`/api/v3/posts/${t.mainPid}/diffs/${second}`)).status).toBe(403);
    const deleted = await mod.client.del(`/api/v3/posts/${t.mainPid}/diffs/${second}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.response.timestamps).toHaveLength(3);
    expect(deleted.body.response.timestamps).not.toContain(second);
    expect((await mod.client.del(`/api/v3/posts/${t.mainPid}/diffs/${h.timestamps[0]}`)).status).toBe(400);
    expect((await mod.client.del(`/api/v3/posts/${t.mainPid}/diffs/12345`)).status).toBe(404);
  });

  it('a reply\'s history carries no title', async () => {
    const t = await postTopic(author.client, cid, { content: 'A topic with a reply to edit' });
    const reply = await author.client.post(`/api/v3/topics/${t.tid}`, { content: 'The reply as first written' });
    const pid = reply.body.response.pid as number;
    await tick();
    expect((await author.client.put(`/api/v3/posts/${pid}`, { content: 'The reply as edited later' })).status).toBe(200);
    const h = await history(author.client, pid);
    expect(h.revisions).toHaveLength(2);
    expect(h.revisions.some((r) => 'title' in r)).toBe(false);
  });

  it('refuses a restore to a member who may not edit the post', async () => {
    const t = await postTopic(author.client, cid, { content: 'Only the author edits this' });
    await tick();
    await author.client.put(`/api/v3/posts/${t.mainPid}`, { content: 'Edited by the author once' });
    const h = await history(stranger.client, t.mainPid);
    expect(h.revisions.every((r) => r.title !== undefined)).toBe(true);
    expect((await stranger.client.put(`/api/v3/posts/${t.mainPid}/diffs/${h.timestamps[1]}`)).status).toBe(403);
    expect((await forum.ctx.posts.get(t.mainPid))!.content).toBe('Edited by the author once');
  });
});
