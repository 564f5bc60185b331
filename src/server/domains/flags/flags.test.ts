import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlagDetailsPage, FlagObject, FlagsListPage } from '../../../shared/schemas/flag.js';
import type { NotificationObject } from '../../../shared/schemas/notification.js';
import { SYSTEM } from '../../setup.js';
import { startTestForum, type TestForum, type TestMember } from '../../test/harness.js';
import { GLOBAL_MODS } from '../groups/service.js';

let forum: TestForum;
let cid: number;
let otherCid: number;
let admin: TestMember;
/** Writes the posts members report (not an administrator: those may not be flagged by members). */
let poster: TestMember;

const member = (): Promise<TestMember> => forum.member();

async function moderatorOf(inCid: number): Promise<TestMember> {
  const m = await member();
  await forum.ctx.privileges.give(inCid, ['moderate'], `uid:${m.user.uid}`);
  return m;
}

async function globalMod(): Promise<TestMember> {
  const user = await forum.createUser();
  await forum.ctx.groups.join(GLOBAL_MODS, user.uid);
  return forum.member(user);
}

async function unread(m: TestMember): Promise<NotificationObject[]> {
  await forum.ctx.hooks.idle();
  const res = await m.client.get('/api/v3/notifications');
  expect(res.status).toBe(200);
  return res.body.response.unread as NotificationObject[];
}

async function postIn(inCid: number, by: TestMember = poster) {
  const { topic, post } = await forum.ctx.topics.create(by.viewer, { cid: inCid, title: `A topic to report ${Math.random().toString(36).slice(2, 8)}`, content: 'The first post of a topic.' });
  const reply = await forum.ctx.posts.reply(by.viewer, topic.tid, { content: 'A reply somebody will not like.' });
  return { topic, main: post, reply: reply.post };
}

const report = (m: TestMember, type: string, id: number, reason = 'Spam', extra: Record<string, unknown> = {}) => m.client.post('/api/v3/flags', { type, id, reason, ...extra });

beforeAll(async () => {
  forum = await startTestForum();
  cid = (await forum.ctx.categories.create(SYSTEM, { name: 'Flagged' })).cid;
  otherCid = (await forum.ctx.categories.create(SYSTEM, { name: 'Elsewhere' })).cid;
  admin = await forum.member({ admin: true });
  poster = await forum.member();
});
afterAll(async () => {
  await forum?.close();
});

describe('reporting', () => {
  it('two members report a post: one flag with two reports; the moderators are told, the reporters are not', async () => {
    const mod = await moderatorOf(cid);
    const outsider = await moderatorOf(otherCid);
    const { reply } = await postIn(cid);
    const [a, b] = [await member(), await member()];
    const first = await report(a, 'post', reply.pid, 'Spam');
    expect(first.status).toBe(200);
    // A member gets an empty answer (NodeBB): the flag is the moderators' business.
    expect(first.body.response).toEqual({});
    expect((await report(b, 'post', reply.pid, 'Rude to another member')).status).toBe(200);

    const list = (await mod.client.get('/api/flags')).body as FlagsListPage;
    const row = list.flags.find((f) => f.targetId === reply.pid)!;
    expect(row).toMatchObject({ type: 'post', state: 'open', heat: 2, targetUid: poster.user.uid, target_readable: `Post ${reply.pid}`, assignee: null, labelClass: 'info' });

    const flag = (await mod.client.get(`/api/v3/flags/${row.flagId}`)).body.response as FlagObject;
    expect(flag.reports.map((r) => [r.reporter.uid, r.value])).toEqual([
      [a.user.uid, 'Spam'],
      [b.user.uid, 'Rude to another member'],
    ]);
    expect(flag.target).toMatchObject({ pid: reply.pid, content: expect.stringContaining('somebody will not like') });
    expect(flag.history.map((h) => h.fields)).toEqual([{ state: 'open' }]);

    const told = (await unread(mod)).filter((n) => n.path === `/flags/${row.flagId}`);
    expect(told).toHaveLength(1);
    expect(told[0]!.type).toBe('new-post-flag');
    expect((await unread(admin)).some((n) => n.path === `/flags/${row.flagId}`)).toBe(true);
    expect((await unread(outsider)).some((n) => n.path === `/flags/${row.flagId}`)).toBe(false);
    expect((await unread(a)).some((n) => n.path === `/flags/${row.flagId}`)).toBe(false);
  });

  it('refuses the same member twice with error:already-flagged, and bad input with its key', async () => {
    const { reply } = await postIn(cid);
    const m = await member();
    expect((await report(m, 'post', reply.pid)).status).toBe(200);
    const again = await report(m, 'post', reply.pid, 'Still spam');
    expect(again.status).toBe(400);
    expect(again.body.status.key).toBe('error:already-flagged');

    const cases: [Record<string, unknown>, number, string][] = [
      [{ type: 'post', id: reply.pid, reason: '   ' }, 400, 'error:invalid-data'],
      [{ type: 'post', id: reply.pid }, 400, 'error:invalid-data'],
      [{ type: 'topic', id: reply.pid, reason: 'x' }, 400, 'error:invalid-data'],
      [{ type: 'post', id: 'abc', reason: 'x' }, 400, 'error:invalid-data'],
      [{ type: 'post', id: 99999999999, reason: 'x' }, 400, 'error:invalid-data'],
      [{ type: 'post', id: 2147483000, reason: 'x' }, 404, 'error:no-post'],
      [{ type: 'user', id: 2147483000, reason: 'x' }, 404, 'error:no-user'],
      [{ type: 'message', id: 1, reason: 'x' }, 400, 'error:invalid-data'],
      [{ type: 'post', id: reply.pid, reason: 'x'.repeat(1001) }, 400, 'error:invalid-data'],
    ];
    for (const [body, status, key] of cases) {
      const res = await m.client.post('/api/v3/flags', body);
      expect([res.status, res.body.status.key], JSON.stringify(body).slice(0, 80)).toEqual([status, key]);
    }
    const guest = await forum.client().post('/api/v3/flags', { type: 'post', id: reply.pid, reason: 'x' });
    expect(guest.status).toBe(401);
  });

  it('refuses a deleted post and a post the reporter cannot read', async () => {
    const { reply } = await postIn(cid);
    await forum.ctx.posts.delete(admin.viewer, reply.pid);
    const m = await member();
    expect((await report(m, 'post', reply.pid)).body.status.key).toBe('error:post-deleted');
    const hidden = (await forum.ctx.categories.create(SYSTEM, { name: 'Hidden' })).cid;
    const { reply: secret } = await postIn(hidden);
    await forum.ctx.privileges.take(hidden, ['find', 'read', 'topics:read'], 'registered-users');
    const res = await report(m, 'post', secret.pid);
    expect([res.status, res.body.status.key]).toEqual([404, 'error:no-post']);
  });

  it('members may not flag administrators (error:cant-flag-privileged); members and chat messages can be flagged', async () => {
    const m = await member();
    const res = await report(m, 'user', admin.user.uid);
    expect([res.status, res.body.status.key]).toEqual([403, 'error:cant-flag-privileged']);
    const target = await member();
    expect((await report(m, 'user', target.user.uid, 'Impersonating someone')).status).toBe(200);

    await forum.ctx.settings.set({ chatMessageDelay: 0 });
    const room = (await target.client.post('/api/v3/chats', { uids: [m.user.uid] })).body.response;
    const message = (await target.client.post(`/api/v3/chats/${room.roomId}`, { message: 'Buy cheap watches here' })).body.response;
    // A member outside the room cannot see the message, so cannot report it.
    const stranger = await member();
    expect((await report(stranger, 'message', message.mid, 'Spam', { roomId: room.roomId })).status).toBe(403);
    expect((await report(m, 'message', message.mid, 'Spam', { roomId: room.roomId })).status).toBe(200);
    const list = (await admin.client.get('/api/flags?type=message')).body as FlagsListPage;
    const row = list.flags.find((f) => f.targetId === message.mid)!;
    expect(row).toMatchObject({ type: 'message', targetUid: target.user.uid, heat: 1 });
    const detail = (await admin.client.get(`/api/flags/${row.flagId}`)).body as FlagDetailsPage;
    expect(detail.type_bool).toMatchObject({ post: false, user: false, empty: false });
    expect(detail.target.content).toContain('Buy cheap watches');
  });

  it('limits reports a day (error:too-many-post-flags-per-day)', async () => {
    await forum.ctx.settings.set({ 'flags:postFlagsPerDay': 2 });
    const m = await member();
    const { reply, main } = await postIn(cid);
    const third = await postIn(cid);
    expect((await report(m, 'post', reply.pid)).status).toBe(200);
    expect((await report(m, 'post', main.pid)).status).toBe(200);
    const res = await report(m, 'post', third.reply.pid);
    expect([res.status, res.body.status.key, res.body.status.params]).toEqual([429, 'error:too-many-post-flags-per-day', [2]]);
    await forum.ctx.settings.set({ 'flags:postFlagsPerDay': 10 });
  });

  it('hides a post automatically when its reports reach the threshold, and logs it', async () => {
    await forum.ctx.settings.set({ 'flags:autoHideThreshold': 2 });
    const author = await member();
    const { reply } = await postIn(cid, author);
    await report(await member(), 'post', reply.pid);
    expect((await forum.ctx.posts.get(reply.pid))!.deleted).toBe(0);
    await report(await member(), 'post', reply.pid);
    expect((await forum.ctx.posts.get(reply.pid))!.deleted).toBe(1);
    const events = await forum.ctx.events.list({ type: 'flag-auto-hide', target: undefined }, 0, 10);
    expect(events.rows.some((e) => e.data.pid === reply.pid)).toBe(true);
    await forum.ctx.settings.set({ 'flags:autoHideThreshold': 0 });
  });
});

describe('working a flag', () => {
  it('assign, wip, notes, resolve: every change in the history and the audit log; the assignee and the reporters are told', async () => {
    const mod = await moderatorOf(cid);
    const reporter = await member();
    const { reply } = await postIn(cid);
    await report(reporter, 'post', reply.pid, 'Off-topic');
    const flagId = ((await mod.client.get(`/api/flags?cid=${cid}&sort=newest`)).body as FlagsListPage).flags[0]!.flagId;

    const assigned = await admin.client.put(`/api/v3/flags/${flagId}`, { assignee: mod.user.uid, state: 'wip' });
    expect(assigned.status).toBe(200);
    expect(assigned.body.response.history[0]).toMatchObject({ uid: admin.user.uid, fields: { assignee: mod.user.uid, state: 'wip' } });
    expect((await unread(mod)).some((n) => n.type === 'my-flags' && n.path === `/flags/${flagId}`)).toBe(true);

    // A member who does not moderate the category cannot be assigned.
    const bad = await admin.client.put(`/api/v3/flags/${flagId}`, { assignee: reporter.user.uid });
    expect([bad.status, bad.body.status.key]).toEqual([400, 'error:flag-assignee-invalid']);

    const noted = await mod.client.post(`/api/v3/flags/${flagId}/notes`, { note: 'Checked the thread: clear spam.' });
    expect(noted.status).toBe(200);
    expect(noted.body.response.notes[0]).toMatchObject({ uid: mod.user.uid, content: 'Checked the thread: clear spam.' });
    const datetime = noted.body.response.notes[0].datetime as number;
    // Another moderator may not delete it; its author may.
    const other = await globalMod();
    const refused = await other.client.del(`/api/v3/flags/${flagId}/notes/${datetime}`);
    expect(refused.status).toBe(403);
    expect((await mod.client.post(`/api/v3/flags/${flagId}/notes`, { note: 'Second note' })).status).toBe(200);
    const removed = await mod.client.del(`/api/v3/flags/${flagId}/notes/${datetime}`);
    expect(removed.status).toBe(200);
    expect(removed.body.response.notes.map((n: { content: string }) => n.content)).toEqual(['Second note']);
    expect((await mod.client.del(`/api/v3/flags/${flagId}/notes/${datetime}`)).body.status.key).toBe('error:no-flag-note');

    expect((await mod.client.put(`/api/v3/flags/${flagId}`, { state: 'resolved' })).status).toBe(200);
    const flag = (await mod.client.get(`/api/v3/flags/${flagId}`)).body.response as FlagObject;
    expect(flag.state).toBe('resolved');
    expect(flag.assignee).toBe(mod.user.uid);
    expect(flag.history.map((h) => h.fields)).toEqual([{ state: 'resolved' }, { notes: 'deleted' }, { notes: 'added' }, { notes: 'added' }, { state: 'wip', assignee: mod.user.uid }, { state: 'open' }]);
    expect(flag.history[0]!.meta).toEqual([{ key: '[[flags:state]]', value: '[[flags:state-resolved]]', labelClass: 'success' }]);
    const told = (await unread(reporter)).find((n) => n.type === 'my-flags');
    expect(told?.path).toBe(`/post/${reply.pid}`);

    const log = await forum.ctx.events.list({ target: `flag:${flagId}` }, 0, 20);
    expect(log.rows.map((e) => [e.type, e.uid])).toEqual([
      ['flag-update', mod.user.uid],
      ['flag-note-delete', mod.user.uid],
      ['flag-note-add', mod.user.uid],
      ['flag-note-add', mod.user.uid],
      ['flag-update', admin.user.uid],
    ]);

    // A new report opens a resolved flag again.
    await report(await member(), 'post', reply.pid, 'Back again');
    expect(((await mod.client.get(`/api/v3/flags/${flagId}`)).body.response as FlagObject).state).toBe('open');
  });

  it('a reporter rescinds their report; an unchanged update changes nothing', async () => {
    const reporter = await member();
    const { reply } = await postIn(cid);
    await report(reporter, 'post', reply.pid);
    const flagId = ((await admin.client.get(`/api/flags?reporterId=${reporter.user.uid}`)).body as FlagsListPage).flags[0]!.flagId;
    expect((await reporter.client.del(`/api/v3/flags/${flagId}/report`)).status).toBe(200);
    expect((await reporter.client.del(`/api/v3/flags/${flagId}/report`)).body.status.key).toBe('error:no-flag-report');
    const flag = (await admin.client.get(`/api/v3/flags/${flagId}`)).body.response as FlagObject;
    expect(flag.reports).toEqual([]);
    const before = flag.history.length;
    expect((await admin.client.put(`/api/v3/flags/${flagId}`, { state: 'open' })).status).toBe(200);
    expect(((await admin.client.get(`/api/v3/flags/${flagId}`)).body.response as FlagObject).history).toHaveLength(before);
    // A member may report it again after rescinding.
    expect((await report(reporter, 'post', reply.pid)).status).toBe(200);
  });

  it('bad updates answer their keys', async () => {
    const { reply } = await postIn(cid);
    await report(await member(), 'post', reply.pid);
    const flagId = ((await admin.client.get('/api/flags')).body as FlagsListPage).flags[0]!.flagId;
    const cases: [string, string, unknown, number, string][] = [
      ['put', `/api/v3/flags/${flagId}`, { state: 'closed' }, 400, 'error:invalid-data'],
      ['put', `/api/v3/flags/${flagId}`, { assignee: -1 }, 400, 'error:invalid-data'],
      ['put', `/api/v3/flags/${flagId}`, { assignee: 2147483000 }, 400, 'error:no-user'],
      ['put', '/api/v3/flags/2147483000', { state: 'wip' }, 404, 'error:no-flag'],
      ['put', '/api/v3/flags/99999999999', { state: 'wip' }, 400, 'error:invalid-data'],
      ['post', `/api/v3/flags/${flagId}/notes`, { note: '' }, 400, 'error:invalid-data'],
      ['post', `/api/v3/flags/${flagId}/notes`, { note: '   ' }, 400, 'error:invalid-data'],
      ['delete', `/api/v3/flags/${flagId}/notes/abc`, undefined, 400, 'error:invalid-data'],
    ];
    for (const [method, path, body, status, key] of cases) {
      const res = await admin.client.request(method.toUpperCase(), path, body);
      expect([res.status, res.body.status.key], `${method} ${path} ${JSON.stringify(body)}`).toEqual([status, key]);
    }
  });
});

describe('the flags list', () => {
  it('filters by state, type, assignee, reporter, target, category and "mine"; sorts by reports', async () => {
    const gm = await globalMod();
    const [r1, r2] = [await member(), await member()];
    const hot = await postIn(otherCid);
    const cold = await postIn(otherCid);
    await report(r1, 'post', hot.reply.pid);
    await report(r2, 'post', hot.reply.pid);
    await report(r1, 'post', cold.reply.pid);
    const ids = async (qs: string) => ((await gm.client.get(`/api/flags?${qs}`)).body as FlagsListPage).flags.map((f) => f.targetId);
    expect(await ids(`cid=${otherCid}&sort=reports`)).toEqual([hot.reply.pid, cold.reply.pid]);
    expect(await ids(`cid=${otherCid}&sort=oldest`)).toEqual([hot.reply.pid, cold.reply.pid]);
    expect(await ids(`cid=${otherCid}&sort=newest`)).toEqual([cold.reply.pid, hot.reply.pid]);
    expect(await ids(`reporterId=${r2.user.uid}`)).toEqual([hot.reply.pid]);
    const coldId = ((await gm.client.get(`/api/flags?reporterId=${r1.user.uid}&sort=newest`)).body as FlagsListPage).flags[0]!.flagId;
    await gm.client.put(`/api/v3/flags/${coldId}`, { assignee: gm.user.uid, state: 'rejected' });
    expect(await ids('quick=mine')).toEqual([cold.reply.pid]);
    expect(await ids(`assignee=${gm.user.uid}`)).toEqual([cold.reply.pid]);
    expect(await ids(`cid=${otherCid}&state=rejected`)).toEqual([cold.reply.pid]);
    expect(await ids(`cid=${otherCid}&state=open`)).toEqual([hot.reply.pid]);
    expect((await ids('type=user')).every((id) => id !== hot.reply.pid)).toBe(true);
    const page = (await gm.client.get('/api/flags?quick=mine')).body as FlagsListPage;
    expect(page.filters).toMatchObject({ quick: 'mine', page: 1, perPage: 20 });
    expect(page.hasFilter).toBe(true);
    for (const bad of ['state=closed', 'type=topic', 'sort=best', 'assignee=abc', 'cid=0', 'page=0']) {
      expect((await gm.client.get(`/api/flags?${bad}`)).status, bad).toBe(400);
    }
  });

  it('the detail page shows the target in context, the assignable moderators and the states', async () => {
    const mod = await moderatorOf(cid);
    const { reply, topic } = await postIn(cid);
    await report(await member(), 'post', reply.pid, 'Spam');
    const flagId = ((await mod.client.get('/api/flags?sort=newest')).body as FlagsListPage).flags[0]!.flagId;
    const page = (await mod.client.get(`/api/flags/${flagId}`)).body as FlagDetailsPage;
    expect(page.template.name).toBe('flags/detail');
    expect(page.target.topic).toMatchObject({ tid: topic.tid, title: topic.title });
    expect(page.assignees.map((u) => u.uid)).toEqual(expect.arrayContaining([mod.user.uid, admin.user.uid]));
    expect(Object.keys(page.states)).toEqual(['open', 'wip', 'resolved', 'rejected']);
    expect((await mod.client.get('/api/flags/abc')).status).toBe(404);
    expect((await mod.client.get('/api/flags/2147483000')).status).toBe(404);
  });
});

describe('moderation from the flag page', () => {
  it('offers each action the viewer may take, and each works through its own route and privilege', async () => {
    const mod = await moderatorOf(cid);
    const gm = await globalMod();
    const author = await member();
    const { reply } = await postIn(cid, author);
    await report(await member(), 'post', reply.pid, 'Spam');
    const flagId = ((await gm.client.get('/api/flags?sort=newest')).body as FlagsListPage).flags[0]!.flagId;
    const actionsOf = async (m: TestMember) => ((await m.client.get(`/api/flags/${flagId}`)).body as FlagDetailsPage).actions;

    // A category's moderator deletes posts there; banning and muting are the global moderators' and admins'.
    expect(await actionsOf(mod)).toMatchObject({ deletePost: true, ban: false, mute: false, banned: false, muted: false });
    expect(await actionsOf(gm)).toMatchObject({ deletePost: true, ban: true, mute: true, muted: false });
    await forum.ctx.settings.set({ banReasons: 'Spam\nAbuse' });
    expect((await actionsOf(admin)).banReasons).toEqual(['Spam', 'Abuse']);
    // The category moderator's route refuses what the page does not offer.
    expect((await mod.client.put(`/api/v3/users/${author.user.uid}/ban`, { until: 0, reason: 'no' })).status).toBe(403);

    // Each action, as the page's buttons send it, and what the page says after.
    expect((await mod.client.del(`/api/v3/posts/${reply.pid}/state`)).status).toBe(200);
    const afterDelete = (await gm.client.get(`/api/flags/${flagId}`)).body as FlagDetailsPage;
    expect(afterDelete.target.deleted).toBe(1);
    expect(afterDelete.actions.deletePost).toBe(false);
    expect((await gm.client.put(`/api/v3/users/${author.user.uid}/mute`, { until: Date.now() + 3_600_000, reason: 'Spam' })).status).toBe(200);
    expect((await actionsOf(gm)).muted).toBe(true);
    expect((await gm.client.put(`/api/v3/users/${author.user.uid}/ban`, { until: 0, reason: 'Spam' })).status).toBe(200);
    expect(await actionsOf(gm)).toMatchObject({ banned: true, muted: true, deletePost: false });

    // Never against an administrator, nor oneself.
    const { reply: adminReply } = await postIn(cid, admin);
    // (Only a moderator may flag an administrator's post.)
    expect((await report(gm, 'post', adminReply.pid, 'Spam')).status).toBe(200);
    const adminFlag = ((await gm.client.get('/api/flags?sort=newest')).body as FlagsListPage).flags[0]!.flagId;
    expect(adminFlag).not.toBe(flagId);
    expect(((await gm.client.get(`/api/flags/${adminFlag}`)).body as FlagDetailsPage).actions).toMatchObject({ deletePost: true, ban: false, mute: false });
    expect(((await admin.client.get(`/api/flags/${adminFlag}`)).body as FlagDetailsPage).actions).toMatchObject({ ban: false, mute: false });
  });
});

describe("a post's flagId (GET /api/v3/posts/{pid})", () => {
  it("is the open flag's id for its category's moderators, 0 for members, and 0 again once the flag is resolved", async () => {
    const mod = await moderatorOf(cid);
    const outsider = await moderatorOf(otherCid);
    const { reply } = await postIn(cid);
    const reporter = await member();
    const flagIdFor = async (m: TestMember) => (await m.client.get(`/api/v3/posts/${reply.pid}`)).body.response.flagId as number;
    expect(await flagIdFor(mod)).toBe(0);
    expect((await report(reporter, 'post', reply.pid, 'Spam')).status).toBe(200);
    const flag = await forum.ctx.db.selectFrom('flags').select('flag_id').where('type', '=', 'post').where('target_id', '=', reply.pid).executeTakeFirstOrThrow();
    expect(await flagIdFor(mod)).toBe(flag.flag_id);
    expect(await flagIdFor(admin)).toBe(flag.flag_id);
    expect(await flagIdFor(outsider)).toBe(0);
    expect(await flagIdFor(reporter)).toBe(0);
    expect(await flagIdFor(poster)).toBe(0);
    expect((await admin.client.put(`/api/v3/flags/${flag.flag_id}`, { state: 'resolved' })).status).toBe(200);
    expect(await flagIdFor(mod)).toBe(0);
  });
});

describe('flags analytics (the /flags chart)', () => {
  it('counts the new flags of each of the last 30 days that the viewer may see, today last', async () => {
    const own = (await forum.ctx.categories.create(SYSTEM, { name: 'Counted flags' })).cid;
    const mod = await moderatorOf(own);
    const reporter = await member();
    const before = (await mod.client.get('/api/flags')).body as FlagsListPage;
    expect(before.analytics).toHaveLength(30);
    expect(before.analytics.reduce((a, b) => a + b, 0)).toBe(0);
    const [one, two] = [await postIn(own), await postIn(own)];
    expect((await report(reporter, 'post', one.reply.pid)).status).toBe(200);
    expect((await report(reporter, 'post', two.reply.pid)).status).toBe(200);
    // A second report of the same post is not a new flag.
    expect((await report(await member(), 'post', two.reply.pid)).status).toBe(200);
    const after = (await mod.client.get('/api/flags')).body as FlagsListPage;
    expect(after.analytics.at(-1)).toBe(2);
    expect(after.analytics.reduce((a, b) => a + b, 0)).toBe(2);
    // Seen from tomorrow, today's two move one day back.
    const tomorrow = await forum.ctx.flags.dailyCounts([own], 30, Date.now() + 86_400_000);
    expect(tomorrow.slice(-2)).toEqual([2, 0]);
    // An administrator sees every category's flags: at least these two today.
    expect(((await admin.client.get('/api/flags')).body as FlagsListPage).analytics.at(-1)).toBeGreaterThanOrEqual(2);
  });
});
