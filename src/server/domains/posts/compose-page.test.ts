import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../../test/harness.js';
import { makeCategory, postReply, postTopic } from '../topics/testing.js';

let forum: TestForum;

beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum.close();
});

describe('/compose (spec routes table)', () => {
  it('serves new topic, reply, quote and edit page data, checked against what the member may do', async () => {
    const cid = await makeCategory(forum.ctx, 'Compose here');
    const author = await forum.loginAs();
    const other = await forum.loginAs();
    const t = await postTopic(author.client, cid, { title: 'Compose page topic' });
    const r = await postReply(other.client, t.tid, 'A reply by the other member.');

    const fresh = await author.client.get(`/api/compose?cid=${cid}&title=Hi&body=There`);
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ template: { name: 'compose' }, action: 'topics.post', cid, title: 'Compose' });

    const reply = await other.client.get(`/api/compose?tid=${t.tid}&toPid=${t.mainPid}&quoted=1&username=x`);
    expect(reply.body).toMatchObject({ action: 'posts.reply', tid: t.tid, toPid: t.mainPid, cid, topicTitle: 'Compose page topic' });

    const edit = await author.client.get(`/api/compose?pid=${t.mainPid}`);
    expect(edit.body).toMatchObject({ action: 'posts.edit', pid: t.mainPid, tid: t.tid, isMain: true });
    // Someone else's post: not theirs to edit.
    expect((await author.client.get(`/api/compose?pid=${r.pid}`)).status).toBe(403);

    const html = await author.client.get(`/compose?tid=${t.tid}`);
    expect(html.status).toBe(200);
    expect(html.text).toContain('"template":{"name":"compose"');
  });

  it('refuses guests, missing topics, and a reply to a locked topic', async () => {
    const cid = await makeCategory(forum.ctx, 'Compose refused');
    const admin = await forum.loginAs({ admin: true });
    const member = await forum.loginAs();
    const t = await postTopic(admin.client, cid);
    expect((await forum.client().get(`/api/compose?tid=${t.tid}`)).status).toBe(401);
    expect((await member.client.get('/api/compose?tid=999999')).status).toBe(404);
    expect((await admin.client.put(`/api/v3/topics/${t.tid}/lock`)).status).toBe(200);
    const locked = await member.client.get(`/api/compose?tid=${t.tid}`);
    expect(locked.status).toBe(403);
    expect(locked.body.error).toBe('Topic Locked');
  });
});
