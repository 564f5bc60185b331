import { beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from '../../../test/http-client.js';
import { GLOBAL_MODS } from '../../groups/service.js';
import type { UserRow } from '../../users/store.js';
import { categoryCounts, makeCategory, postReply, postTopic, userCounts } from '../testing.js';
import { useForum } from '../../../test/forum-kit.js';

type Actor = { client: HttpClient; user: UserRow };
let other: number;
let author: Actor;
let member: Actor;
let catMod: Actor;
let outsideMod: Actor;
let globalMod: Actor;
let admin: Actor;

const kit = useForum({ category: 'Tools home' });
beforeAll(async () => {
  other = await makeCategory(kit.forum.ctx, 'Tools elsewhere');
  const third = await makeCategory(kit.forum.ctx, 'Tools third');
  author = await kit.forum.loginAs();
  member = await kit.forum.loginAs();
  catMod = await kit.forum.loginAs();
  outsideMod = await kit.forum.loginAs();
  globalMod = await kit.forum.loginAs();
  admin = await kit.forum.loginAs({ admin: true });
  // The category moderator moderates both categories a tool touches; the outsider only a third one.
  await kit.forum.ctx.privileges.give(kit.cid, ['moderate'], `uid:${catMod.user.uid}`);
  await kit.forum.ctx.privileges.give(other, ['moderate'], `uid:${catMod.user.uid}`);
  await kit.forum.ctx.privileges.give(third, ['moderate'], `uid:${outsideMod.user.uid}`);
  await kit.forum.ctx.groups.join(GLOBAL_MODS, globalMod.user.uid);
});

/** A topic by the author with two replies (by the author and by the member). */
async function thread(c = kit.cid) {
  const t = await postTopic(author.client, c, { title: `Thread ${Math.random().toString(36).slice(2, 8)} for tools` });
  const r1 = await postReply(author.client, t.tid, 'The first reply of the thread.');
  const r2 = await postReply(member.client, t.tid, 'The second reply of the thread.');
  return { tid: t.tid, mainPid: t.mainPid, r1: r1.pid, r2: r2.pid };
}

const topicRow = (tid: number) => kit.forum.ctx.db.selectFrom('topics').selectAll().where('tid', '=', tid).executeTakeFirst();
const eventsOf = async (client: HttpClient, tid: number) =>
  (await client.get(`/api/v3/topics/${tid}/events`)).body.response.events as { id: number; type: string; text: string; uid: number }[];

/** Each tool: a fresh target, then the request an actor makes. */
const TOOLS: [string, () => Promise<[string, string, unknown]>][] = [
  ['lock', async () => ['PUT', `/api/v3/topics/${(await thread()).tid}/lock`, undefined]],
  ['pin with expiry', async () => ['PUT', `/api/v3/topics/${(await thread()).tid}/pin`, { expiry: Date.now() + 3_600_000 }]],
  ['move topic', async () => ['PUT', `/api/v3/topics/${(await thread()).tid}/move`, { cid: other }]],
  ['merge', async () => ['POST', '/api/v3/topic-tools/merge', { tids: [(await thread()).tid, (await thread()).tid] }]],
  ['fork', async () => ['POST', '/api/v3/topic-tools/fork', { title: 'A forked topic title', pids: [(await thread()).r2] }]],
  ['move post', async () => ['PUT', `/api/v3/posts/${(await thread()).r1}/move`, { tid: (await thread()).tid }]],
  ['move posts', async () => ['POST', '/api/v3/topic-tools/move-posts', { pids: [(await thread()).r1], tid: (await thread()).tid }]],
  ['change owner', async () => ['PUT', `/api/v3/posts/${(await thread()).r2}/owner`, { uid: author.user.uid }]],
  ['change owners', async () => ['POST', '/api/v3/posts/owner', { pids: [(await thread()).r2], uid: author.user.uid }]],
];

describe('the privilege matrix of the topic tools', () => {
  const actors: [string, () => Actor | null, number][] = [
    ['a guest', () => null, 401],
    ['a member', () => member, 403],
    ['the author', () => author, 403],
    ['a moderator of another category', () => outsideMod, 403],
    ['a moderator of the category', () => catMod, 200],
    ['a global moderator', () => globalMod, 200],
    ['an administrator', () => admin, 200],
  ];
  for (const [tool, make] of TOOLS) {
    it.each(actors)(`${tool}: %s gets %s`, async (_name, who, status) => {
      const [method, url, body] = await make();
      const actor = who();
      const res = await (actor ? actor.client : kit.forum.client()).request(method, url, body);
      expect(res.status, res.text).toBe(status);
    });
  }

  it('refuses moving a topic into a category the moderator does not moderate, and changes nothing', async () => {
    const { tid } = await thread();
    const third = (await kit.forum.ctx.db.selectFrom('categories').select('cid').where('name', '=', 'Tools third').executeTakeFirstOrThrow()).cid;
    const res = await catMod.client.put(`/api/v3/topics/${tid}/move`, { cid: third });
    expect(res.status).toBe(403);
    expect((await topicRow(tid))!.cid).toBe(kit.cid);
    expect((await eventsOf(admin.client, tid)).map((e) => e.type)).not.toContain('move');
  });

  it('lets only administrators and global moderators delete a timeline event', async () => {
    const { tid } = await thread();
    await catMod.client.put(`/api/v3/topics/${tid}/lock`);
    const [event] = await eventsOf(member.client, tid);
    expect(event!.type).toBe('lock');
    expect((await catMod.client.del(`/api/v3/topics/${tid}/events/${event!.id}`)).status).toBe(403);
    expect((await member.client.del(`/api/v3/topics/${tid}/events/${event!.id}`)).status).toBe(403);
    expect((await admin.client.del(`/api/v3/topics/${tid}/events/${event!.id}`)).status).toBe(200);
    expect(await eventsOf(member.client, tid)).toEqual([]);
    const missing = await admin.client.del(`/api/v3/topics/${tid}/events/${event!.id}`);
    expect([missing.status, missing.body.status.key]).toEqual([404, 'error:no-event']);
  });
});

describe('counts after each tool', () => {
  it('moves a topic: both categories and the event', async () => {
    const { tid } = await thread();
    const [fromBefore, toBefore] = [await categoryCounts(kit.forum.ctx, kit.cid), await categoryCounts(kit.forum.ctx, other)];
    expect((await catMod.client.put(`/api/v3/topics/${tid}/move`, { cid: other })).status).toBe(200);
    expect(await categoryCounts(kit.forum.ctx, kit.cid)).toEqual({ topic_count: fromBefore.topic_count - 1, post_count: fromBefore.post_count - 3 });
    expect(await categoryCounts(kit.forum.ctx, other)).toEqual({ topic_count: toBefore.topic_count + 1, post_count: toBefore.post_count + 3 });
    const events = await eventsOf(member.client, tid);
    expect(events.map((e) => [e.type, e.text, e.uid])).toEqual([['move', '[[topic:event.moved, Tools home, Tools elsewhere]]', catMod.user.uid]]);
    const again = await catMod.client.put(`/api/v3/topics/${tid}/move`, { cid: other });
    expect([again.status, again.body.status.key]).toEqual([400, 'error:cant-move-topic-to-same-category']);
    const missing = await catMod.client.put(`/api/v3/topics/${tid}/move`, { cid: 999999 });
    expect([missing.status, missing.body.status.key]).toEqual([404, 'error:no-category']);
  });

  it('merges topics: posts keep their order by time, the others go and lead to the main topic', async () => {
    const a = await thread();
    const b = await thread(other);
    const before = {
      home: await categoryCounts(kit.forum.ctx, kit.cid),
      other: await categoryCounts(kit.forum.ctx, other),
      author: await userCounts(kit.forum.ctx, author.user.uid),
    };
    const res = await catMod.client.post('/api/v3/topic-tools/merge', { tids: [b.tid], mainTid: a.tid });
    expect(res.status, res.text).toBe(200);
    expect(res.body.response.tid).toBe(a.tid);
    const main = (await topicRow(a.tid))!;
    expect(main.post_count).toBe(6);
    expect(await topicRow(b.tid)).toBeUndefined();
    expect(await categoryCounts(kit.forum.ctx, kit.cid)).toEqual({ topic_count: before.home.topic_count, post_count: before.home.post_count + 3 });
    expect(await categoryCounts(kit.forum.ctx, other)).toEqual({ topic_count: before.other.topic_count - 1, post_count: before.other.post_count - 3 });
    // The author started both: one topic fewer, the same posts.
    expect(await userCounts(kit.forum.ctx, author.user.uid)).toMatchObject({ topiccount: before.author.topiccount - 1, postcount: before.author.postcount });
    const page = (await member.client.get(`/api/topic/${a.tid}`)).body;
    expect(page.posts.map((p: { pid: number }) => p.pid)).toEqual([a.mainPid, a.r1, a.r2, b.mainPid, b.r1, b.r2]);
    expect(page.events.map((e: { type: string }) => e.type)).toEqual(['merge']);
    const teaser = (await member.client.get(`/api/v3/topics/${a.tid}`)).body.response;
    expect(teaser.teaserPid).toBe(b.r2);
    // The merged topic's address leads to the main topic.
    const gone = await member.client.get(`/api/topic/${b.tid}`);
    expect(gone.headers.get('x-redirect')).toBe(`/topic/${a.tid}`);
  });

  it("merges into the topic chosen, under a new title when one is given (NodeBB's newTitle)", async () => {
    const a = await thread();
    const b = await thread();
    const short = await catMod.client.post('/api/v3/topic-tools/merge', { tids: [a.tid, b.tid], mainTid: b.tid, newTitle: 'x' });
    expect([short.status, short.body.status.key]).toEqual([400, 'error:title-too-short']);
    expect(await topicRow(a.tid)).toBeDefined();
    const res = await catMod.client.post('/api/v3/topic-tools/merge', { tids: [a.tid, b.tid], mainTid: b.tid, newTitle: 'Both threads, merged' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.response).toMatchObject({ tid: b.tid, title: 'Both threads, merged', slug: 'both-threads-merged' });
    expect(await topicRow(a.tid)).toBeUndefined();
    const page = (await member.client.get(`/api/topic/${b.tid}`)).body;
    expect(page.titleRaw).toBe('Both threads, merged');
    expect(page.posts.map((p: { pid: number }) => p.pid)).toEqual([a.mainPid, a.r1, a.r2, b.mainPid, b.r1, b.r2]);
  });

  it('refuses a merge into itself and a merge naming a missing topic, changing nothing', async () => {
    const a = await thread();
    const self = await catMod.client.post('/api/v3/topic-tools/merge', { tids: [a.tid], mainTid: a.tid });
    expect([self.status, self.body.status.key]).toEqual([400, 'error:cant-merge-topic-into-itself']);
    const missing = await catMod.client.post('/api/v3/topic-tools/merge', { tids: [a.tid, 999999] });
    expect([missing.status, missing.body.status.key]).toEqual([404, 'error:no-topic']);
    expect((await topicRow(a.tid))!.post_count).toBe(3);
    expect(await eventsOf(admin.client, a.tid)).toEqual([]);
  });

  it('forks selected posts into a new topic in another category', async () => {
    const a = await thread();
    const before = {
      home: await categoryCounts(kit.forum.ctx, kit.cid),
      other: await categoryCounts(kit.forum.ctx, other),
      member: await userCounts(kit.forum.ctx, member.user.uid),
    };
    const res = await catMod.client.post('/api/v3/topic-tools/fork', { title: 'The forked discussion', pids: [a.r2, a.r1], cid: other });
    expect(res.status, res.text).toBe(200);
    const forked = (await topicRow(res.body.response.tid))!;
    // The oldest selected post leads the new topic; its author starts it.
    expect(forked).toMatchObject({ cid: other, main_pid: a.r1, uid: author.user.uid, post_count: 2, teaser_pid: a.r2, title: 'The forked discussion' });
    expect((await topicRow(a.tid))!).toMatchObject({ post_count: 1, teaser_pid: a.mainPid });
    expect(await categoryCounts(kit.forum.ctx, kit.cid)).toEqual({ topic_count: before.home.topic_count, post_count: before.home.post_count - 2 });
    expect(await categoryCounts(kit.forum.ctx, other)).toEqual({ topic_count: before.other.topic_count + 1, post_count: before.other.post_count + 2 });
    expect(await userCounts(kit.forum.ctx, member.user.uid)).toEqual(before.member);
    const source = (await member.client.get(`/api/topic/${a.tid}`)).body;
    expect(source.events).toMatchObject([
      { type: 'fork', text: '[[topic:event.fork, 2]]', href: `/topic/${forked.tid}/${forked.slug}`, hrefText: 'The forked discussion' },
    ]);
    expect((await eventsOf(member.client, forked.tid)).map((e) => e.type)).toEqual(['forked-from']);
    const main = await catMod.client.post('/api/v3/topic-tools/fork', { title: 'Forking the main post', pids: [a.mainPid] });
    expect([main.status, main.body.status.key]).toEqual([400, 'error:cant-move-mainpost']);
    const short = await catMod.client.post('/api/v3/topic-tools/fork', { title: 'x', pids: [a.mainPid] });
    expect([short.status, short.body.status.key]).toEqual([400, 'error:title-too-short']);
  });

  it('moves posts to another topic; refuses a locked or deleted target and the same topic, changing nothing', async () => {
    const a = await thread();
    const b = await thread(other);
    const before = { home: await categoryCounts(kit.forum.ctx, kit.cid), other: await categoryCounts(kit.forum.ctx, other) };
    const res = await catMod.client.post('/api/v3/topic-tools/move-posts', { pids: [a.r1, a.r2], tid: b.tid });
    expect(res.status, res.text).toBe(200);
    expect((await topicRow(a.tid))!.post_count).toBe(1);
    expect((await topicRow(b.tid))!.post_count).toBe(5);
    expect(await categoryCounts(kit.forum.ctx, kit.cid)).toEqual({ topic_count: before.home.topic_count, post_count: before.home.post_count - 2 });
    expect(await categoryCounts(kit.forum.ctx, other)).toEqual({ topic_count: before.other.topic_count, post_count: before.other.post_count + 2 });
    expect((await eventsOf(member.client, a.tid)).map((e) => e.text)).toEqual(['[[topic:event.posts-moved-out, 2]]']);
    expect((await eventsOf(member.client, b.tid)).map((e) => e.text)).toEqual(['[[topic:event.posts-moved-in, 2]]']);

    const c = await thread();
    const locked = await thread();
    await catMod.client.put(`/api/v3/topics/${locked.tid}/lock`);
    const deleted = await thread();
    await catMod.client.del(`/api/v3/topics/${deleted.tid}/state`);
    for (const [tid, key, status] of [
      [locked.tid, 'error:cant-move-to-locked-topic', 400],
      [deleted.tid, 'error:cant-move-to-deleted-topic', 400],
      [c.tid, 'error:cant-move-to-same-topic', 400],
      [999999, 'error:no-topic', 404],
    ] as const) {
      const refused = await catMod.client.put(`/api/v3/posts/${c.r1}/move`, { tid });
      expect([refused.status, refused.body.status.key]).toEqual([status, key]);
    }
    const missing = await catMod.client.post('/api/v3/topic-tools/move-posts', { pids: [c.r1, 999999], tid: b.tid });
    expect([missing.status, missing.body.status.key]).toEqual([404, 'error:no-post']);
    expect((await topicRow(c.tid))!.post_count).toBe(3);
    expect((await topicRow(locked.tid))!.post_count).toBe(3);
  });

  it('changes the owner of posts: both members counts and reputation, the topic with its main post', async () => {
    const a = await thread();
    await admin.client.put(`/api/v3/posts/${a.r1}/vote`, { delta: 1 });
    const before = { author: await userCounts(kit.forum.ctx, author.user.uid), member: await userCounts(kit.forum.ctx, member.user.uid) };
    const res = await catMod.client.post('/api/v3/posts/owner', { pids: [a.mainPid, a.r1], uid: member.user.uid });
    expect(res.status, res.text).toBe(200);
    expect(await userCounts(kit.forum.ctx, author.user.uid)).toEqual({
      postcount: before.author.postcount - 2,
      topiccount: before.author.topiccount - 1,
      reputation: before.author.reputation - 1,
    });
    expect(await userCounts(kit.forum.ctx, member.user.uid)).toEqual({
      postcount: before.member.postcount + 2,
      topiccount: before.member.topiccount + 1,
      reputation: before.member.reputation + 1,
    });
    expect((await topicRow(a.tid))!.uid).toBe(member.user.uid);
    expect((await eventsOf(member.client, a.tid)).map((e) => e.type)).toEqual(['owner']);
    const nobody = await catMod.client.put(`/api/v3/posts/${a.r2}/owner`, { uid: 999999 });
    expect([nobody.status, nobody.body.status.key]).toEqual([404, 'error:no-user']);
  });
});

describe('events, pins and editors', () => {
  it('records lock, pin, tags and delete in the timeline, shown on the topic page by time', async () => {
    const a = await thread();
    await catMod.client.put(`/api/v3/topics/${a.tid}/lock`);
    await catMod.client.del(`/api/v3/topics/${a.tid}/lock`);
    await catMod.client.put(`/api/v3/topics/${a.tid}/pin`);
    await catMod.client.del(`/api/v3/topics/${a.tid}/pin`);
    await catMod.client.put(`/api/v3/topics/${a.tid}/tags`, { tags: ['alpha', 'beta'] });
    await catMod.client.del(`/api/v3/topics/${a.tid}/state`);
    await catMod.client.put(`/api/v3/topics/${a.tid}/state`);
    const events = await eventsOf(member.client, a.tid);
    expect(events.map((e) => e.type)).toEqual(['lock', 'unlock', 'pin', 'unpin', 'tag', 'delete', 'restore']);
    expect(events[4]!.text).toBe('[[topic:event.tagged, alpha beta]]');
    const page = (await member.client.get(`/api/topic/${a.tid}`)).body;
    expect(page.events.map((e: { type: string }) => e.type)).toEqual(events.map((e) => e.type));
    // The audit log has each too.
    const audit = await kit.forum.ctx.events.recent(50);
    expect(
      audit
        .filter((e) => e.data.tid === a.tid)
        .map((e) => e.type)
        .sort(),
    ).toEqual(['topic-delete', 'topic-lock', 'topic-pin', 'topic-restore', 'topic-tag', 'topic-unlock', 'topic-unpin']);
    expect((await kit.forum.client().get('/api/v3/topics/999999/events')).status).toBe(404);
  });

  it("offers the topic's moderators the undo of each kind's latest event, and the undo reverses it", async () => {
    const a = await thread();
    await catMod.client.put(`/api/v3/topics/${a.tid}/lock`);
    await catMod.client.put(`/api/v3/topics/${a.tid}/pin`);
    await catMod.client.del(`/api/v3/topics/${a.tid}/pin`);
    await catMod.client.put(`/api/v3/topics/${a.tid}/move`, { cid: other });
    type Ev = { id: number; type: string; undo?: { method: 'PUT' | 'DELETE'; path: string; body?: Record<string, number> } };
    const undos = async (client: HttpClient) => ((await client.get(`/api/topic/${a.tid}`)).body.events as Ev[]).map((e) => [e.type, e.undo ?? null]);
    // Only the latest of each kind, while the topic is as it left it: the pin was lifted since.
    expect(await undos(catMod.client)).toEqual([
      ['lock', { method: 'DELETE', path: `/topics/${a.tid}/lock` }],
      ['pin', null],
      ['unpin', { method: 'PUT', path: `/topics/${a.tid}/pin` }],
      ['move', { method: 'PUT', path: `/topics/${a.tid}/move`, body: { cid: kit.cid } }],
    ]);
    // Readers who do not moderate the topic see no undo.
    expect((await undos(member.client)).every(([, undo]) => undo === null)).toBe(true);
    // Undoing the move puts the topic back (its own event); the old move has nothing left to undo.
    const page = (await catMod.client.get(`/api/topic/${a.tid}`)).body.events as Ev[];
    const move = page.find((e) => e.type === 'move')!.undo!;
    expect((await catMod.client.put(`/api/v3${move.path}`, move.body)).status).toBe(200);
    expect((await topicRow(a.tid))!.cid).toBe(kit.cid);
    const after = await undos(catMod.client);
    expect(after.map(([type]) => type)).toEqual(['lock', 'pin', 'unpin', 'move', 'move']);
    expect(after[3]![1]).toBeNull();
    expect(after[4]![1]).toEqual({ method: 'PUT', path: `/topics/${a.tid}/move`, body: { cid: other } });
    // Unlocking by hand leaves the lock nothing to undo, and the unlock its own.
    await catMod.client.del(`/api/v3/topics/${a.tid}/lock`);
    const last = await undos(catMod.client);
    expect(last[0]).toEqual(['lock', null]);
    expect(last.at(-1)).toEqual(['unlock', { method: 'PUT', path: `/topics/${a.tid}/lock` }]);
  });

  it('lifts a pin at its expiry, and refuses an expiry in the past', async () => {
    const a = await thread();
    const past = await catMod.client.put(`/api/v3/topics/${a.tid}/pin`, { expiry: Date.now() - 1000 });
    expect([past.status, past.body.status.key]).toEqual([400, 'error:invalid-pin-expiry']);
    const expiry = Date.now() + 60_000;
    expect((await catMod.client.put(`/api/v3/topics/${a.tid}/pin`, { expiry })).status).toBe(200);
    expect((await member.client.get(`/api/v3/topics/${a.tid}`)).body.response).toMatchObject({ pinned: 1, pinExpiry: expiry });
    // The job's run, at its time (the job table holds it for then).
    const job = await kit.forum.ctx.db
      .selectFrom('jobs')
      .selectAll()
      .where('name', '=', 'topics.unpin')
      .where('payload', 'like', `%"tid":${a.tid},%`)
      .executeTakeFirstOrThrow();
    expect(Number(job.run_at)).toBe(expiry);
    const { liftExpiredPin } = await import('./pin.js');
    expect(await liftExpiredPin(kit.forum.ctx, a.tid, expiry)).toBe(false);
    await kit.forum.ctx.db
      .updateTable('topics')
      .set({ pin_expiry: Date.now() - 1 })
      .where('tid', '=', a.tid)
      .execute();
    const row = (await topicRow(a.tid))!;
    expect(await liftExpiredPin(kit.forum.ctx, a.tid, Number(row.pin_expiry))).toBe(true);
    expect((await topicRow(a.tid))!).toMatchObject({ pinned: 0, pin_expiry: 0 });
    expect((await eventsOf(member.client, a.tid)).map((e) => [e.type, e.uid])).toEqual([
      ['pin', catMod.user.uid],
      ['unpin', 0],
    ]);
  });

  it('lets an editor edit the first post, and only the starter or moderators manage editors', async () => {
    const a = await thread();
    const edit = { content: 'The first post, edited by an editor.' };
    expect((await member.client.put(`/api/v3/posts/${a.mainPid}`, edit)).status).toBe(403);
    expect((await member.client.put(`/api/v3/topics/${a.tid}/editors`, { uids: [member.user.uid] })).status).toBe(403);
    const set = await author.client.put(`/api/v3/topics/${a.tid}/editors`, { uids: [member.user.uid] });
    expect(set.status, set.text).toBe(200);
    expect(set.body.response.editors.map((u: { uid: number }) => u.uid)).toEqual([member.user.uid]);
    const page = (await member.client.get(`/api/topic/${a.tid}`)).body;
    expect(page.posts.map((p: { display_edit_tools: boolean }) => p.display_edit_tools)).toEqual([true, false, true]);
    expect((await member.client.put(`/api/v3/posts/${a.mainPid}`, edit)).status).toBe(200);
    // Not other posts of the topic.
    expect((await member.client.put(`/api/v3/posts/${a.r1}`, edit)).status).toBe(403);
    expect((await catMod.client.get(`/api/v3/topics/${a.tid}/editors`)).body.response.editors).toHaveLength(1);
    const bad = await author.client.put(`/api/v3/topics/${a.tid}/editors`, { uids: [999999] });
    expect([bad.status, bad.body.status.key]).toEqual([404, 'error:no-user']);
  });

  it('shows voters: upvoters to readers, downvoters to moderators', async () => {
    const a = await thread();
    await admin.client.put(`/api/v3/posts/${a.r1}/vote`, { delta: 1 });
    await catMod.client.put(`/api/v3/posts/${a.r1}/vote`, { delta: -1 });
    const asMember = (await member.client.get(`/api/v3/posts/${a.r1}/voters`)).body.response;
    expect(asMember).toMatchObject({ upvoteCount: 1, downvoteCount: 1, showUpvotes: true, showDownvotes: false, downvoters: [] });
    expect(asMember.upvoters.map((u: { uid: number }) => u.uid)).toEqual([admin.user.uid]);
    const asMod = (await catMod.client.get(`/api/v3/posts/${a.r1}/voters`)).body.response;
    expect(asMod.downvoters.map((u: { uid: number }) => u.uid)).toEqual([catMod.user.uid]);
    expect((await member.client.get(`/api/v3/posts/${a.r1}/upvoters`)).body.response).toEqual({ otherCount: 0, usernames: [admin.user.username], cutoff: 6 });
    expect((await member.client.get('/api/v3/posts/999999/voters')).status).toBe(404);
  });

  it('finds topics by title for the pickers, only where the viewer moderates', async () => {
    const t = await postTopic(author.client, kit.cid, { title: 'Picker needle topic here' });
    const found = (await catMod.client.get('/api/v3/topic-tools/topics?term=needle')).body.response.topics;
    expect(found.map((x: { tid: number }) => x.tid)).toContain(t.tid);
    expect((await outsideMod.client.get('/api/v3/topic-tools/topics?term=needle')).body.response.topics).toEqual([]);
    expect((await kit.forum.client().get('/api/v3/topic-tools/topics?term=needle')).status).toBe(401);
  });
});
