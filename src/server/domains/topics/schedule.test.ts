import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../../setup.js';
import { startTestForum, type TestForum, type TestMember } from '../../test/harness.js';
import { JobRunner } from '../../jobs/runner.js';
import { defineScheduleJob } from './schedule.js';

let forum: TestForum;
let cid: number;

type Member = TestMember;

const member = (opts: { admin?: boolean } = {}): Promise<Member> => forum.member(opts);

const HOUR = 3600_000;

async function listed(m: Member, path: string): Promise<string[]> {
  const res = await m.client.get(path);
  expect(res.status).toBe(200);
  return (res.body.topics as { title: string }[]).map((t) => t.title);
}

beforeAll(async () => {
  forum = await startTestForum();
  cid = (await forum.ctx.categories.create(SYSTEM, { name: 'Announcements' })).cid;
});
afterAll(async () => {
  await forum?.close();
});

describe('scheduled topics', () => {
  it('stay invisible (lists, counts, unread, reads) until the job publishes them, once', async () => {
    const author = await member();
    await forum.ctx.privileges.give(cid, ['topics:schedule'], `uid:${author.user.uid}`);
    const reader = await member();
    const admin = await member({ admin: true });
    const at = Date.now() + 2 * HOUR;
    const res = await author.client.post('/api/v3/topics', { cid, title: 'Scheduled announcement', content: 'Published later by the job.', tags: ['launch'], timestamp: at });
    expect(res.status).toBe(200);
    const tid = res.body.response.tid as number;
    expect(res.body.response.timestamp).toBe(at);
    // NodeBB's `scheduled` is true while it waits, in the answer and in the topic's own reads.
    expect(res.body.response.scheduled).toBe(true);
    expect((await author.client.get(`/api/v3/topics/${tid}`)).body.response.scheduled).toBe(true);

    const category = await forum.ctx.categories.get(cid);
    expect(category).toMatchObject({ topic_count: 0, post_count: 0 });
    for (const path of ['/api/recent', `/api/category/${cid}`, '/api/unread', '/api/tags/launch']) expect(await listed(reader, path)).not.toContain('Scheduled announcement');
    expect(await listed(admin, '/api/recent')).not.toContain('Scheduled announcement');
    // Reading: 404 to others; its author (with the privilege) and admins see it.
    expect((await reader.client.get(`/api/topic/${tid}`)).status).toBe(404);
    expect((await reader.client.get(`/api/v3/topics/${tid}`)).status).toBe(404);
    expect((await author.client.get(`/api/topic/${tid}`)).status).toBe(200);
    expect((await admin.client.get(`/api/topic/${tid}`)).status).toBe(200);
    expect((await reader.client.post(`/api/v3/topics/${tid}`, { content: 'Replying before it exists' })).status).toBe(404);

    // Nothing is due now; two runners at the publication time publish it once.
    expect(await forum.ctx.jobs.runDue(Date.now())).toBe(0);
    const second = new JobRunner(forum.ctx.db, forum.ctx.log);
    defineScheduleJob({ ...forum.ctx, jobs: second });
    let saves = 0;
    forum.ctx.hooks.action('action:topic.save', 'schedule-test', async ({ topic }) => {
      if (topic.tid === tid) saves += 1;
    });
    const runs = await Promise.all([forum.ctx.jobs.runDue(at + 1000), second.runDue(at + 1000)]);
    expect(runs[0] + runs[1]).toBe(1);
    await forum.ctx.hooks.idle();
    expect(saves).toBe(1);
    // A second publication (a retried lease) changes nothing.
    expect(await forum.ctx.topics.publishScheduled(tid)).toBeNull();

    expect(await forum.ctx.categories.get(cid)).toMatchObject({ topic_count: 1, post_count: 1 });
    expect(await listed(reader, '/api/recent')).toContain('Scheduled announcement');
    expect(await listed(reader, '/api/tags/launch')).toContain('Scheduled announcement');
    expect((await reader.client.get(`/api/topic/${tid}`)).status).toBe(200);
    expect((await forum.ctx.users.get(author.user.uid))!.topiccount).toBe(1);
  });

  it('deleting or purging a topic before its time leaves every counter as it was', async () => {
    const author = await member({ admin: true });
    const before = (await forum.ctx.categories.get(cid))!;
    const create = (title: string) => forum.ctx.topics.create(author.viewer, { cid, title, content: 'Not yet published content.', timestamp: Date.now() + HOUR });
    const { topic: gone } = await create('Purged before its time');
    expect((await author.client.del(`/api/v3/topics/${gone.tid}`)).status).toBe(200);
    const { topic: hidden } = await create('Deleted before its time');
    expect((await author.client.del(`/api/v3/topics/${hidden.tid}/state`)).status).toBe(200);
    // Published while deleted: still not counted; its restore counts it once.
    await forum.ctx.topics.publishScheduled(hidden.tid);
    expect(await forum.ctx.categories.get(cid)).toMatchObject({ topic_count: before.topic_count, post_count: before.post_count });
    expect((await forum.ctx.users.get(author.user.uid))!).toMatchObject({ topiccount: 0, postcount: 1 });
    expect((await author.client.put(`/api/v3/topics/${hidden.tid}/state`)).status).toBe(200);
    expect(await forum.ctx.categories.get(cid)).toMatchObject({ topic_count: before.topic_count + 1, post_count: before.post_count + 1 });
    expect((await forum.ctx.users.get(author.user.uid))!).toMatchObject({ topiccount: 1, postcount: 1 });
  });

  it('publishes at once with a time in the past (as NodeBB), refuses members without topics:schedule (403) and a time that is not a number', async () => {
    const author = await member();
    const before = Date.now();
    const past = await author.client.post('/api/v3/topics', { cid, title: 'Back in time', content: 'Not scheduled: published now.', timestamp: before - 60_000 });
    expect(past.status).toBe(200);
    expect(past.body.response.timestamp).toBeGreaterThanOrEqual(before);
    expect(await listed(author, '/api/recent')).toContain('Back in time');
    const res = await author.client.post('/api/v3/topics', { cid, title: 'Not allowed to schedule', content: 'No privilege for this.', timestamp: Date.now() + HOUR });
    expect(res.status).toBe(403);
    const bad = await author.client.post('/api/v3/topics', { cid, title: 'Not a time', content: 'A string for a time.', timestamp: 'tomorrow' });
    expect(bad.status).toBe(400);
  });
});

describe('scheduled in topic and post data', () => {
  it("say scheduled: true in topic and post data while their time is to come (NodeBB's rule), false otherwise", async () => {
    const admin = await member({ admin: true });
    // A category of its own: the other tests count the topics of theirs.
    const own = (await forum.ctx.categories.create(SYSTEM, { name: 'Said scheduled' })).cid;
    const later = await admin.client.post('/api/v3/topics', { cid: own, title: 'Said to be scheduled', content: 'Published in an hour.', timestamp: Date.now() + HOUR });
    const now = await admin.client.post('/api/v3/topics', { cid: own, title: 'Said to be published', content: 'Published right now.' });
    const page = (await admin.client.get(`/api/topic/${later.body.response.tid}`)).body;
    expect(page.scheduled).toBe(true);
    expect((await admin.client.get(`/api/v3/topics/${later.body.response.tid}`)).body.response.scheduled).toBe(true);
    expect((await admin.client.get(`/api/topic/${now.body.response.tid}`)).body.scheduled).toBe(false);
  });
});
