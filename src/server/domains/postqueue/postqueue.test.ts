import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationObject } from '../../../shared/schemas/notification.js';
import type { PostQueuePage } from '../../../shared/schemas/post-queue.js';
import { SYSTEM } from '../../setup.js';
import { startTestForum, type TestForum, type TestMember } from '../../test/harness.js';

let forum: TestForum;
let cid: number;
let otherCid: number;

type Member = TestMember;

const member = (opts: { admin?: boolean } = {}): Promise<Member> => forum.member(opts);

/** A member who moderates `cid` only. */
async function moderatorOf(inCid: number): Promise<Member> {
  const m = await member();
  await forum.ctx.privileges.give(inCid, ['moderate'], `uid:${m.user.uid}`);
  return m;
}

async function notifications(m: Member): Promise<NotificationObject[]> {
  await forum.ctx.hooks.idle();
  const res = await m.client.get('/api/v3/notifications');
  expect(res.status).toBe(200);
  return res.body.response.unread as NotificationObject[];
}

async function queuePage(m: Member): Promise<PostQueuePage> {
  const res = await m.client.get('/api/post-queue');
  expect(res.status).toBe(200);
  return res.body as PostQueuePage;
}

async function newTopic(m: Member, title = 'A queued topic title') {
  return m.client.post('/api/v3/topics', { cid, title, content: 'The content of a new member’s first topic.', tags: [] });
}

beforeAll(async () => {
  forum = await startTestForum();
  cid = (await forum.ctx.categories.create(SYSTEM, { name: 'Queued' })).cid;
  otherCid = (await forum.ctx.categories.create(SYSTEM, { name: 'Elsewhere' })).cid;
  await forum.ctx.settings.set({ postQueue: true, postQueueReputationThreshold: 0, postQueuePostCountThreshold: 1 });
});
afterAll(async () => {
  await forum?.close();
});

describe('thresholds', () => {
  it('queues a first post, not a member with posts, reputation over the threshold, a moderator or an exempt group', async () => {
    const newbie = await member();
    const res = await newTopic(newbie);
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ queued: true, type: 'topic' });
    expect(res.body.response.message).toContain('queued for approval');
    // Nothing was written as a topic: the member's list and counters are unchanged.
    expect((await forum.ctx.users.get(newbie.user.uid))!.topiccount).toBe(0);

    const veteran = await member();
    await forum.ctx.settings.set({ postQueue: false });
    expect((await newTopic(veteran)).body.response.queued).toBeUndefined();
    await forum.ctx.settings.set({ postQueue: true });
    // One post made: the post-count threshold (1) is met.
    expect((await newTopic(veteran, 'Second topic of a veteran')).body.response.tid).toBeGreaterThan(0);

    await forum.ctx.settings.set({ postQueueReputationThreshold: 5 });
    expect((await newTopic(veteran, 'Third topic, low reputation')).body.response.queued).toBe(true);
    await forum.ctx.settings.set({ postQueueReputationThreshold: 0 });

    const mod = await moderatorOf(cid);
    expect((await newTopic(mod, 'A moderator never waits')).body.response.tid).toBeGreaterThan(0);

    await forum.ctx.settings.set({ groupsExemptFromPostQueue: 'registered-users' });
    expect((await newTopic(await member(), 'Exempt by group')).body.response.tid).toBeGreaterThan(0);
    await forum.ctx.settings.set({ groupsExemptFromPostQueue: '' });
  });

  it('leaves out a category whose postQueue is off (NodeBB’s per-category flag)', async () => {
    const admin = await member({ admin: true });
    const open = (await admin.client.post('/api/v3/categories', { name: 'No queue here', postQueue: 0 })).body.response;
    expect(open.postQueue).toBe(0);
    const newbie = await member();
    const res = await newbie.client.post('/api/v3/topics', { cid: open.cid, title: 'Straight through', content: 'No queue in this category.' });
    expect(res.body.response.tid).toBeGreaterThan(0);
    expect((await admin.client.put(`/api/v3/categories/${open.cid}`, { postQueue: 1 })).status).toBe(200);
    const next = await (await member()).client.post('/api/v3/topics', { cid: open.cid, title: 'Now it waits', content: 'The queue applies again.' });
    expect(next.body.response.queued).toBe(true);
  });

  it('checks a queued post as the create path does: a short title is refused, not queued', async () => {
    const newbie = await member();
    const res = await newTopic(newbie, 'x');
    expect(res.status).toBe(400);
    expect(res.body.status.key ?? res.body.status.message).toMatch(/title-too-short/);
  });

  it('queues a reply and answers queued: true', async () => {
    const admin = await member({ admin: true });
    const { topic } = await forum.ctx.topics.create(admin.viewer, { cid, title: 'Open discussion', content: 'Say something here please.' });
    const newbie = await member();
    const res = await newbie.client.post(`/api/v3/topics/${topic.tid}`, { content: 'My first reply, waiting for approval.' });
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ queued: true, type: 'reply' });
    expect((await forum.ctx.topics.get(topic.tid))!.post_count).toBe(1);
    // The answer's message is in the writer's own language.
    const indonesian = await member();
    expect((await indonesian.client.put(`/api/v3/users/${indonesian.user.uid}/settings`, { settings: { userLang: 'id' } })).status).toBe(200);
    const queued = await indonesian.client.post(`/api/v3/topics/${topic.tid}`, { content: 'Balasan pertama saya, menunggu persetujuan.' });
    expect(queued.body.response).toMatchObject({ queued: true, type: 'reply' });
    expect(queued.body.response.message).toBe('Kiriman Anda sedang diantrekan untuk disetujui. Anda akan mendapat notifikasi saat kiriman diterima atau ditolak.');
  });
});

describe('accept and reject', () => {
  it('a moderator sees the post, is notified, accepts it: the topic exists and its author is told', async () => {
    const mod = await moderatorOf(cid);
    const newbie = await member();
    const res = await newTopic(newbie, 'Please accept me');
    const id = Number(res.body.response.id);

    const modNotes = await notifications(mod);
    expect(modNotes.some((n) => n.type === 'post-queue' && n.path === '/post-queue')).toBe(true);

    const page = await queuePage(mod);
    const item = page.posts.find((p) => p.id === String(id))!;
    expect(item).toMatchObject({ type: 'topic', canEdit: true, uid: newbie.user.uid, data: { title: 'Please accept me' } });
    expect(item.data.content).toContain('<p>');
    expect(page.canAccept).toBe(true);

    // The author sees their own waiting post (no accept rights).
    const own = await queuePage(newbie);
    expect(own.posts.map((p) => p.id)).toEqual([String(id)]);
    expect(own.posts[0]!.canEdit).toBe(false);
    expect(own.canAccept).toBe(false);

    const edited = await mod.client.put(`/api/v3/posts/queue/${id}`, { content: 'The content, corrected by a moderator.' });
    expect(edited.status).toBe(200);

    const accepted = await mod.client.post(`/api/v3/posts/queue/${id}`, {});
    expect(accepted.status).toBe(200);
    const { tid, pid, type } = accepted.body.response;
    expect(type).toBe('topic');
    const topic = await forum.ctx.topics.get(tid);
    expect(topic).toMatchObject({ uid: newbie.user.uid, title: 'Please accept me' });
    expect((await forum.ctx.posts.get(pid))!.content).toBe('The content, corrected by a moderator.');
    expect((await queuePage(mod)).posts.some((p) => p.id === String(id))).toBe(false);

    const notes = await notifications(newbie);
    expect(notes.find((n) => n.bodyShort.includes('notifications:post-queue-accepted'))).toMatchObject({ path: `/post/${pid}` });

    // A second accept finds nothing.
    expect((await mod.client.post(`/api/v3/posts/queue/${id}`, {})).status).toBe(404);
  });

  it('rejects with a reason the author reads; bulk accept of several', async () => {
    const mod = await moderatorOf(cid);
    const newbie = await member();
    const id = Number((await newTopic(newbie, 'Reject me please')).body.response.id);
    const rejected = await mod.client.del(`/api/v3/posts/queue/${id}`, { message: 'Off topic here' });
    expect(rejected.status).toBe(200);
    const note = (await notifications(newbie)).find((n) => n.bodyShort.includes('post-queue-rejected-reason'))!;
    expect(note.bodyShort).toContain('Off topic here');
    expect(await forum.ctx.topics.list(mod.viewer, { cids: [cid], sort: 'recent', page: 1, perPage: 50 }).then((l) => l.topics.some((t) => t.title === 'Reject me please'))).toBe(false);

    const others = [await member(), await member(), await member()];
    const ids = [];
    for (const [i, m] of others.entries()) ids.push((await newTopic(m, `Bulk topic number ${i}`)).body.response.id as string);
    const answers = await Promise.all(ids.map((qid) => mod.client.post(`/api/v3/posts/queue/${qid}`, {})));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const titles = (await forum.ctx.topics.list(mod.viewer, { cids: [cid], sort: 'recent', page: 1, perPage: 50 })).topics.map((t) => t.title);
    for (const i of [0, 1, 2]) expect(titles).toContain(`Bulk topic number ${i}`);
  });

  it("the moderators' \"awaiting review\" notification turns read once the category's queue is handled, not before", async () => {
    const cat = (await forum.ctx.categories.create(SYSTEM, { name: `Review ${Math.random().toString(36).slice(2, 7)}` })).cid;
    const mod = await member();
    await forum.ctx.privileges.give(cat, ['moderate'], `uid:${mod.user.uid}`);
    const waitingNote = async () => (await notifications(mod)).filter((n) => n.type === 'post-queue' && n.path === '/post-queue');
    const ids: number[] = [];
    for (const title of ['First one waiting', 'Second one waiting']) {
      const m = await member();
      ids.push(Number((await m.client.post('/api/v3/topics', { cid: cat, title, content: 'The content of a new member’s first topic.', tags: [] })).body.response.id));
    }
    expect(await waitingNote()).toHaveLength(1);
    // One handled, one still waiting: the notification stays unread.
    expect((await mod.client.post(`/api/v3/posts/queue/${ids[0]}`, {})).status).toBe(200);
    expect(await waitingNote()).toHaveLength(1);
    // The last one handled (rejected): read, and the unread count says so.
    expect((await mod.client.del(`/api/v3/posts/queue/${ids[1]}`, { message: '' })).status).toBe(200);
    expect(await waitingNote()).toHaveLength(0);
    const all = (await mod.client.get('/api/v3/notifications')).body.response as { unread: unknown[]; read: { type: string; path: string }[] };
    expect(all.read.some((n) => n.type === 'post-queue' && n.path === '/post-queue')).toBe(true);
  });

  it('accepts a queued reply into its topic', async () => {
    const admin = await member({ admin: true });
    const { topic } = await forum.ctx.topics.create(admin.viewer, { cid, title: 'Replies wait here', content: 'Say something here please.' });
    const newbie = await member();
    const id = (await newbie.client.post(`/api/v3/topics/${topic.tid}`, { content: 'A reply from the queue.' })).body.response.id as string;
    const res = await admin.client.post(`/api/v3/posts/queue/${id}`, {});
    expect(res.body.response).toMatchObject({ type: 'reply', tid: topic.tid });
    expect((await forum.ctx.topics.get(topic.tid))!.post_count).toBe(2);
  });

  it('keeps a post queued, and its author untold, when writing it fails (a reply to a topic purged meanwhile)', async () => {
    const admin = await member({ admin: true });
    const { topic } = await forum.ctx.topics.create(admin.viewer, { cid, title: 'Gone before the accept', content: 'This topic will be purged.' });
    const newbie = await member();
    const id = (await newbie.client.post(`/api/v3/topics/${topic.tid}`, { content: 'A reply that cannot land.' })).body.response.id as string;
    expect((await admin.client.del(`/api/v3/topics/${topic.tid}`)).status).toBe(200);
    const res = await admin.client.post(`/api/v3/posts/queue/${id}`, {});
    expect(res.status).toBeGreaterThanOrEqual(400);
    // Still in the queue, with its content, for the moderator to reject or edit.
    expect((await queuePage(admin)).posts.map((p) => String(p.id))).toContain(String(id));
    expect((await notifications(newbie)).some((n) => n.bodyShort.includes('notifications:post-queue-accepted'))).toBe(false);
  });

  it('refuses members and moderators of other categories (403), and notifies the author on request', async () => {
    const newbie = await member();
    const id = (await newTopic(newbie, 'Not yours to accept')).body.response.id as string;
    const stranger = await member();
    expect((await stranger.client.post(`/api/v3/posts/queue/${id}`, {})).status).toBe(403);
    expect((await stranger.client.del(`/api/v3/posts/queue/${id}`)).status).toBe(403);
    expect((await stranger.client.put(`/api/v3/posts/queue/${id}`, { content: 'Hijacked content here' })).status).toBe(403);
    const otherMod = await moderatorOf(otherCid);
    expect((await otherMod.client.post(`/api/v3/posts/queue/${id}`, {})).status).toBe(403);
    expect((await queuePage(otherMod)).posts.some((p) => p.id === id)).toBe(false);

    const mod = await moderatorOf(cid);
    expect((await mod.client.post(`/api/v3/posts/queue/${id}/notify`, { message: 'Please add a link' })).status).toBe(200);
    expect((await notifications(newbie)).some((n) => n.bodyShort.includes('Please add a link'))).toBe(true);
    expect((await mod.client.put(`/api/v3/posts/queue/${id}`, { content: 'x' })).status).toBe(400);
    expect((await mod.client.post('/api/v3/posts/queue/999999', {})).status).toBe(404);
    // A page id that is not a database id is a missing page, never a database error.
    for (const bad of ['abc', '0', '99999999999']) expect((await mod.client.get(`/api/post-queue/${bad}`)).status).toBe(404);
  });
});
