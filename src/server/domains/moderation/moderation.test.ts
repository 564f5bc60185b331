import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, TEST_PASSWORD, type TestForum, type TestMember } from '../../test/harness.js';
import { GLOBAL_MODS } from '../groups/service.js';
import { categoryCounts, makeCategory, postReply, postTopic, userCounts } from '../topics/testing.js';
import * as store from './store.js';

let forum: TestForum;
let cid: number;
let admin: TestMember;
let gmod: TestMember;
let catMod: TestMember;
let plain: TestMember;

/** A request from a given address (the forum trusts X-Forwarded-For in this test). */
const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

beforeAll(async () => {
  forum = await startTestForum({ env: { PALAVER_TRUST_PROXY: 'true' }, settings: { chatMessageDelay: 0 } as never });
  cid = await makeCategory(forum.ctx, 'Moderated');
  admin = await forum.member({ admin: true });
  const g = await forum.createUser();
  await forum.ctx.groups.join(GLOBAL_MODS, g.uid);
  gmod = await forum.member(g);
  catMod = await forum.member();
  await forum.ctx.privileges.give(cid, ['moderate'], `uid:${catMod.user.uid}`);
  plain = await forum.member();
});
afterAll(async () => {
  await forum?.close();
});

describe('privileges', () => {
  const cases: [string, () => TestMember | null, boolean][] = [
    ['a guest', () => null, false],
    ['a member', () => plain, false],
    ['a category moderator', () => catMod, false],
    ['a global moderator', () => gmod, true],
    ['an admin', () => admin, true],
  ];
  it.each(cases)('%s: only global moderators and admins ban, mute, read the info page, add notes and use the blacklist', async (_who, actor, allowed) => {
    const target = await forum.createUser();
    const client = actor()?.client ?? forum.client();
    const refused = actor() ? 403 : 401;
    const expectStatus = (status: number) => expect(status).toBe(allowed ? 200 : refused);
    expectStatus((await client.put(`/api/v3/users/${target.uid}/mute`, { reason: 'calm down' })).status);
    expectStatus((await client.del(`/api/v3/users/${target.uid}/mute`)).status);
    expectStatus((await client.put(`/api/v3/users/${target.uid}/ban`, { reason: 'spam' })).status);
    expectStatus((await client.del(`/api/v3/users/${target.uid}/ban`)).status);
    expectStatus((await client.get(`/api/user/${target.userslug}/info`)).status);
    expectStatus((await client.get('/api/ip-blacklist')).status);
    expectStatus((await client.post('/api/v3/ip-blacklist/test', { ip: '10.0.0.1' })).status);
    expectStatus((await client.post(`/api/v3/users/${target.uid}/moderation-notes`, { note: 'Watch this one.' })).status);
    // Only admins report spam.
    const spam = await client.post(`/api/user/${target.userslug}/spam-be-gone/report`);
    expect(spam.status).toBe(actor() === admin ? 200 : refused);
  });

  it('refuses banning or muting an admin or a missing member; takes an end already past as NodeBB does', async () => {
    const other = await forum.createUser({ admin: true });
    expect((await gmod.client.put(`/api/v3/users/${other.uid}/ban`, {})).body.status.key).toBe('error:cant-ban-other-admins');
    expect((await gmod.client.put(`/api/v3/users/${other.uid}/mute`, {})).body.status.key).toBe('error:cant-mute-other-admins');
    expect((await admin.client.put('/api/v3/users/99999999/ban', {})).status).toBe(404);
    const target = await forum.createUser();
    expect((await admin.client.put(`/api/v3/users/${target.uid}/ban`, { until: Date.now() - 1000, reason: 'already over' })).status).toBe(200);
    expect((await forum.client().post('/login', { username: target.username, password: TEST_PASSWORD })).status).toBe(200);
    expect((await store.actionsOf(forum.ctx.db, target.uid, 5))[0]).toMatchObject({ kind: 'ban', reason: 'already over' });
  });
});

describe('bans', () => {
  it('refuses the banned member at login with the reason and end, records the history, and lifts an expired ban at login', async () => {
    const target = await forum.member();
    const until = Date.now() + 3_600_000;
    expect((await gmod.client.put(`/api/v3/users/${target.user.uid}/ban`, { until, reason: 'Harassment' })).status).toBe(200);
    // The open session ended with the ban.
    expect((await target.client.post(`/api/v3/topics`, { cid, title: 'Banned topic title', content: 'Banned content here.' })).status).toBe(401);
    const login = await forum.client().post('/login', { username: target.user.username, password: TEST_PASSWORD });
    expect(login.status).toBe(403);
    expect(login.body.status?.key ?? login.body.key ?? login.text).toContain('user-banned-reason-until');
    const info = await admin.client.get(`/api/user/${target.user.userslug}/info`);
    expect(info.body.history.bans[0]).toMatchObject({ kind: 'ban', reason: 'Harassment', until, fromUid: gmod.user.uid, user: { username: gmod.user.username } });
    expect(info.body.banned_until).toBe(until);
    // A ban whose end has passed is lifted at the next login.
    await forum.ctx.users.writeBan(forum.ctx.db, target.user.uid, { banned: true, until: Date.now() - 1, reason: 'old' });
    expect((await forum.client().post('/login', { username: target.user.username, password: TEST_PASSWORD })).status).toBe(200);
    expect((await forum.ctx.users.get(target.user.uid))!.banned).toBe(0);
  });

  it('an unban is recorded and lets the member back in', async () => {
    const target = await forum.createUser();
    await admin.client.put(`/api/v3/users/${target.uid}/ban`, { reason: 'spam' });
    expect((await admin.client.del(`/api/v3/users/${target.uid}/ban`, { reason: 'appeal accepted' })).status).toBe(200);
    expect((await forum.client().post('/login', { username: target.username, password: TEST_PASSWORD })).status).toBe(200);
    const rows = await store.actionsOf(forum.ctx.db, target.uid, 10);
    expect(rows.map((r) => [r.kind, r.reason])).toEqual([
      ['unban', 'appeal accepted'],
      ['ban', 'spam'],
    ]);
  });
});

describe('mutes', () => {
  it('a muted member reads but cannot post, reply, edit or chat; unmuting restores it', async () => {
    const m = await forum.member();
    const topic = await postTopic(m.client, cid);
    const friend = await forum.createUser();
    const room = (await m.client.post('/api/v3/chats', { uids: [friend.uid] })).body.response;
    expect((await gmod.client.put(`/api/v3/users/${m.user.uid}/mute`, { until: Date.now() + 3 * 3_600_000, reason: 'cool off' })).status).toBe(200);
    const reply = await m.client.post(`/api/v3/topics/${topic.tid}`, { content: 'A reply while muted.' });
    expect(reply.status).toBe(403);
    expect(reply.body.status.key).toBe('error:user-muted-for-hours');
    expect(reply.body.status.message).toContain('3 hour');
    expect((await m.client.post('/api/v3/topics', { cid, title: 'Muted topic title', content: 'Muted content here.' })).status).toBe(403);
    expect((await m.client.put(`/api/v3/posts/${topic.mainPid}`, { content: 'An edit while muted.' })).status).toBe(403);
    const chat = await m.client.post(`/api/v3/chats/${room.roomId}`, { message: 'hello while muted' });
    expect(chat.status).toBe(403);
    expect(chat.body.status.key).toBe('error:user-muted-for-hours');
    // Reading still works.
    expect((await m.client.get(`/api/topic/${topic.slug}`)).status).toBe(200);
    expect((await m.client.get(`/api/v3/chats/${room.roomId}`)).status).toBe(200);
    const info = await admin.client.get(`/api/user/${m.user.userslug}/info`);
    expect(info.body).toMatchObject({ muted: true, mutedReason: 'cool off' });
    expect(info.body.history.mutes[0]).toMatchObject({ kind: 'mute', reason: 'cool off' });
    expect((await gmod.client.del(`/api/v3/users/${m.user.uid}/mute`)).status).toBe(200);
    expect((await m.client.post(`/api/v3/topics/${topic.tid}`, { content: 'A reply after the mute.' })).status).toBe(200);
    expect((await m.client.post(`/api/v3/chats/${room.roomId}`, { message: 'hello again' })).status).toBe(200);
  });

  it('an expired mute no longer refuses; a short one counts minutes', async () => {
    const m = await forum.member();
    await forum.ctx.actions.run('test.mute', (w) => store.setMute(w, { uid: m.user.uid, until: Date.now() - 1, reason: 'past', by_uid: admin.user.uid, created: Date.now() - 10_000 }));
    await postTopic(m.client, cid);
    await forum.ctx.actions.run('test.mute', (w) => store.setMute(w, { uid: m.user.uid, until: Date.now() + 10 * 60_000, reason: 'short', by_uid: admin.user.uid, created: Date.now() }));
    const res = await m.client.post('/api/v3/topics', { cid, title: 'Another topic title', content: 'Some content here.' });
    expect(res.body.status.key).toBe('error:user-muted-for-minutes');
  });
});

describe('IP blacklist', () => {
  const rules = ['# office range', '203.0.113.0/24', '198.51.100.7 # one address', '2001:db8::/64', '2001:db8:1::1/128'].join('\n');

  it('refuses an invalid rule with a key and saves nothing', async () => {
    const res = await admin.client.put('/api/v3/ip-blacklist', { rules: '10.0.0.1\n10.0.0.0/33' });
    expect(res.status).toBe(400);
    expect(res.body.status.key).toBe('error:invalid-blacklist-rule');
    expect(res.body.status.message).toContain('10.0.0.0/33');
    expect((await admin.client.get('/api/ip-blacklist')).body.rules).toBe('');
    expect((await admin.client.put('/api/v3/ip-blacklist', { rules: 'not-an-ip' })).status).toBe(400);
  });

  it('tests addresses at the CIDR edges (v4, v6, /32, /128, /0)', async () => {
    expect((await admin.client.put('/api/v3/ip-blacklist', { rules })).status).toBe(200);
    const test = async (ip: string, text?: string) => (await admin.client.post('/api/v3/ip-blacklist/test', { ip, ...(text !== undefined ? { rules: text } : {}) })).body.response;
    expect(await test('203.0.113.0')).toMatchObject({ blocked: true, rule: '203.0.113.0/24', line: 2 });
    expect(await test('203.0.113.255')).toMatchObject({ blocked: true });
    expect(await test('203.0.112.255')).toMatchObject({ blocked: false });
    expect(await test('203.0.114.0')).toMatchObject({ blocked: false });
    expect(await test('198.51.100.7')).toMatchObject({ blocked: true, rule: '198.51.100.7' });
    expect(await test('198.51.100.8')).toMatchObject({ blocked: false });
    expect(await test('::ffff:203.0.113.9')).toMatchObject({ blocked: true });
    expect(await test('2001:db8::ffff:ffff:ffff:ffff')).toMatchObject({ blocked: true, rule: '2001:db8::/64' });
    expect(await test('2001:db8:0:1::')).toMatchObject({ blocked: false });
    expect(await test('2001:db8:1::1')).toMatchObject({ blocked: true, rule: '2001:db8:1::1/128' });
    expect(await test('2001:db8:1::2')).toMatchObject({ blocked: false });
    expect(await test('nonsense')).toMatchObject({ valid: false, blocked: false });
    expect(await test('8.8.8.8', '0.0.0.0/0')).toMatchObject({ blocked: true });
    expect(await test('::1', '0.0.0.0/0')).toMatchObject({ blocked: false });
    expect(await test('::1', '::/0')).toMatchObject({ blocked: true });
    expect(await test('10.1.2.3', '10.1.2.3/32')).toMatchObject({ blocked: true });
    expect(await test('10.1.2.4', '10.1.2.3/32')).toMatchObject({ blocked: false });
  });

  it('applies to registration, login and posting, counting hits per rule', async () => {
    await forum.ctx.settings.set({ 'captcha:register': false } as never);
    expect((await admin.client.put('/api/v3/ip-blacklist', { rules })).status).toBe(200);
    const m = await forum.member();
    const blocked = ['203.0.113.77', '2001:db8::5', '198.51.100.7'];
    for (const ip of blocked) {
      const reg = await forum.client().post('/register', { username: `reg${ip.replace(/\W/g, '')}`, email: `r${ip.replace(/\W/g, '')}@example.com`, password: TEST_PASSWORD }, from(ip));
      expect(reg.status, ip).toBe(403);
      expect(reg.body.status?.key ?? reg.text).toContain('blacklisted-ip');
      const login = await forum.client().post('/login', { username: m.user.username, password: TEST_PASSWORD }, from(ip));
      expect(login.status, ip).toBe(403);
      const post = await m.client.post('/api/v3/topics', { cid, title: 'A blocked topic title', content: 'Posted from a blocked address.' }, from(ip));
      expect(post.status, ip).toBe(403);
      expect(post.body.status.key).toBe('error:blacklisted-ip');
    }
    // An address outside every rule passes each door.
    expect((await forum.client().post('/login', { username: m.user.username, password: TEST_PASSWORD }, from('203.0.114.1'))).status).toBe(200);
    const topic = await postTopic(m.client, cid);
    expect((await m.client.post(`/api/v3/topics/${topic.tid}`, { content: 'A reply from a blocked range.' }, from('203.0.113.1'))).status).toBe(403);
    const page = (await admin.client.get('/api/ip-blacklist')).body;
    const hits = Object.fromEntries(page.parsed.map((r: { rule: string; hits: number }) => [r.rule, r.hits]));
    expect(hits).toEqual({ '203.0.113.0/24': 4, '198.51.100.7': 3, '2001:db8::/64': 3, '2001:db8:1::1/128': 0 });
    await admin.client.put('/api/v3/ip-blacklist', { rules: '' });
    expect((await m.client.post(`/api/v3/topics/${topic.tid}`, { content: 'A reply once unblocked.' }, from('203.0.113.1'))).status).toBe(200);
  });
});

describe('info page', () => {
  it('lists addresses once per day, other accounts at them, and moderation notes; batched whatever the history', async () => {
    const a = await forum.createUser();
    const b = await forum.createUser();
    for (let i = 0; i < 3; i++) await forum.client().post('/login', { username: a.username, password: TEST_PASSWORD }, from('192.0.2.10'));
    await forum.client().post('/login', { username: a.username, password: TEST_PASSWORD }, from('192.0.2.11'));
    await forum.client().post('/login', { username: b.username, password: TEST_PASSWORD }, from('192.0.2.11'));
    const rows = await forum.ctx.db.selectFrom('ip_history').selectAll().where('uid', '=', a.uid).execute();
    expect(rows.map((r) => [r.ip, Number(r.hits)]).sort()).toEqual([
      ['192.0.2.10', 3],
      ['192.0.2.11', 1],
    ]);
    expect((await gmod.client.post(`/api/v3/users/${a.uid}/moderation-notes`, { note: 'Shares an address with b.' })).body.response).toMatchObject({ note: 'Shares an address with b.', uid: gmod.user.uid });
    expect((await gmod.client.post(`/api/v3/users/${a.uid}/moderation-notes`, { note: '   ' })).status).toBe(400);
    const info = (await gmod.client.get(`/api/user/${a.userslug}/info`)).body;
    expect(info.template.name).toBe('account/info');
    expect([...info.ips].sort()).toEqual(['192.0.2.10', '192.0.2.11']);
    expect(info.ipHistory.find((i: { ip: string }) => i.ip === '192.0.2.10')).toMatchObject({ days: 1 });
    expect(info.otherAccounts).toEqual([expect.objectContaining({ uid: b.uid, ips: ['192.0.2.11'] })]);
    expect(info.moderationNotes[0]).toMatchObject({ note: 'Shares an address with b.', user: { username: gmod.user.username } });
    expect(info.canBan).toBe(true);
    expect((await gmod.client.get('/api/user/nobody-at-all/info')).status).toBe(404);
  });

  it("carries NodeBB's sessions, usernames and emails: each name and address with who set it and when", async () => {
    const m = await forum.member();
    const first = m.user.username;
    const renamed = `renamed${m.user.uid}`;
    expect((await admin.client.put(`/api/v3/users/${m.user.uid}`, { username: renamed })).status).toBe(200);
    const address = `moved${m.user.uid}@example.com`;
    expect((await admin.client.post(`/api/v3/users/${m.user.uid}/emails`, { email: address, skipConfirmation: true })).status).toBe(200);
    const info = (await admin.client.get(`/api/user/${renamed}/info`)).body;
    expect(info.usernames.map((u: { value: string; byUid: string }) => [u.value, u.byUid])).toEqual([
      [renamed, String(admin.user.uid)],
      [first, String(m.user.uid)],
    ]);
    expect(info.emails[0]).toMatchObject({ value: address, byUid: String(admin.user.uid), byUser: { username: admin.user.username } });
    expect(typeof info.emails[0].timestampISO).toBe('string');
    // The member's session (logged in by the harness) with its device and address.
    expect(info.sessions.length).toBeGreaterThan(0);
    expect(info.sessions[0]).toMatchObject({ current: false, uuid: expect.any(String), ip: expect.any(String) });
    // An account never changed lists its address from joining; a holder of view:users:info who is
    // not a global moderator sees no addresses.
    const fresh = await forum.createUser();
    const freshInfo = (await gmod.client.get(`/api/user/${fresh.userslug}/info`)).body;
    expect(freshInfo.emails.map((e: { value: string }) => e.value)).toEqual([fresh.email]);
    expect(freshInfo.usernames.map((u: { value: string }) => u.value)).toEqual([fresh.username]);
    const viewer = await forum.member();
    await forum.ctx.privileges.give(0, ['view:users:info'], `uid:${viewer.user.uid}`);
    const limited = await viewer.client.get(`/api/user/${fresh.userslug}/info`);
    expect(limited.status).toBe(200);
    expect(limited.body.emails).toEqual([]);
  });
});

describe('spam defence', () => {
  it('limits the links in a new member\'s post, not an established one\'s', async () => {
    await forum.ctx.settings.set({ maximumLinksForNewMembers: 2, newMemberPostCount: 2 });
    try {
      const m = await forum.member();
      const three = 'See https://a.example and https://b.example and www.c.example today.';
      const res = await m.client.post('/api/v3/topics', { cid, title: 'Link heavy title', content: three });
      expect(res.status).toBe(400);
      expect(res.body.status.key).toBe('error:too-many-links');
      const topic = await postTopic(m.client, cid, { content: 'Only [one](https://a.example) link here.' });
      await postReply(m.client, topic.tid);
      // Two posts: no longer new.
      expect((await m.client.post(`/api/v3/topics/${topic.tid}`, { content: three })).status).toBe(200);
    } finally {
      await forum.ctx.settings.set({ maximumLinksForNewMembers: 0 });
    }
  });

  it('a spam report bans the member, deletes their topics and replies with counts right, and records it', async () => {
    const spammer = await forum.member();
    const other = await forum.member();
    const before = await categoryCounts(forum.ctx, cid);
    const own = await postTopic(spammer.client, cid);
    await postReply(other.client, own.tid, 'A reply inside the spam topic.');
    const elsewhere = await postTopic(other.client, cid);
    const spamReply = await postReply(spammer.client, elsewhere.tid, 'Spam reply in a good topic.');
    const otherBefore = await userCounts(forum.ctx, other.user.uid);
    // Each purged reply is announced (uploads forget it, open topic pages drop it), not only the topics.
    const purged: number[] = [];
    forum.ctx.hooks.action('action:post.purge', 'moderation-test', async ({ post }) => void purged.push(post.pid));
    expect((await admin.client.post(`/api/user/${spammer.user.userslug}/spam-be-gone/report`)).status).toBe(200);
    await forum.ctx.hooks.idle();
    expect(purged).toEqual([spamReply.pid]);
    expect((await forum.ctx.users.get(spammer.user.uid))!.banned).toBe(1);
    expect((await forum.client().get(`/api/v3/topics/${own.tid}`)).status).toBe(404);
    const after = await categoryCounts(forum.ctx, cid);
    // The other member's topic stays with its first post; their reply in the spam topic went with it.
    expect(after.topic_count).toBe(before.topic_count + 1);
    expect(after.post_count).toBe(before.post_count + 1);
    expect(await userCounts(forum.ctx, spammer.user.uid)).toMatchObject({ postcount: 0, topiccount: 0 });
    expect((await userCounts(forum.ctx, other.user.uid)).postcount).toBe(otherBefore.postcount - 1);
    const events = await forum.ctx.events.recent(20, 'spam-report');
    expect(events[0]).toMatchObject({ uid: admin.user.uid, data: { targetUid: spammer.user.uid, topics: 1, posts: 1 } });
    expect((await admin.client.post('/api/user/nobody-here/spam-be-gone/report')).status).toBe(404);
    expect((await admin.client.post(`/api/user/${admin.user.userslug}/spam-be-gone/report`)).status).toBe(403);
  });

  describe('StopForumSpam lookup', () => {
    let server: Server;
    const asked: string[] = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        asked.push(req.url ?? '');
        const listed = (req.url ?? '').includes('spammer%40example.com');
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ success: 1, ip: { appears: 0 }, email: { appears: listed ? 1 : 0 } }));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    });
    afterAll(async () => {
      await new Promise((r) => server.close(r));
      await forum.ctx.settings.set({ stopForumSpamEnabled: false });
    });

    it('asks nothing while off; when on, refuses a listed email and lets others register', async () => {
      await forum.ctx.settings.set({ 'captcha:register': false } as never);
      const port = (server.address() as { port: number }).port;
      await forum.ctx.settings.set({ stopForumSpamUrl: `http://127.0.0.1:${port}/api` });
      expect((await forum.client().post('/register', { username: 'sfsoff', email: 'spammer@example.com', password: TEST_PASSWORD })).status).toBe(200);
      expect(asked).toEqual([]);
      await forum.ctx.settings.set({ stopForumSpamEnabled: true });
      const refused = await forum.client().post('/register', { username: 'sfslisted', email: 'spammer@example.com', password: TEST_PASSWORD }, from('192.0.2.99'));
      expect(refused.status).toBe(403);
      expect(refused.body.status?.key ?? refused.text).toContain('spam-registration');
      expect(asked[0]).toContain('ip=192.0.2.99');
      expect((await forum.client().post('/register', { username: 'sfsclean', email: 'clean@example.com', password: TEST_PASSWORD })).status).toBe(200);
    });
  });
});

describe("the owner's own info page", () => {
  it("opens for the member themself, without the moderators' notes or the accounts sharing their addresses; still 403 for another's", async () => {
    const owner = await forum.member();
    await admin.client.post(`/api/v3/users/${owner.user.uid}/moderation-notes`, { note: 'Only for moderators.' });
    const own = await owner.client.get(`/api/user/${owner.user.userslug}/info`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ template: { name: 'account/info' }, uid: owner.user.uid, isSelf: true, moderationNotes: [], otherAccounts: [], canBan: false });
    expect(own.text).not.toContain('Only for moderators.');
    const seen = (await admin.client.get(`/api/user/${owner.user.userslug}/info`)).body;
    expect(seen.moderationNotes.map((n: { note: string }) => n.note)).toContain('Only for moderators.');
    expect((await owner.client.get(`/api/user/${plain.user.userslug}/info`)).status).toBe(403);
    expect((await owner.client.get('/api/user/nobody-by-this-name/info')).status).toBe(403);
  });
});
