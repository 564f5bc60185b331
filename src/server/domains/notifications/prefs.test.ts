import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import type { NotificationRow } from '../../hooks/types.js';
import { SYSTEM } from '../../setup.js';
import { startTestForum, type TestForum, type TestMember } from '../../test/harness.js';
import { REGISTERED } from '../groups/service.js';
import { TestSmtp, type ReceivedMail } from '../mail/test-smtp.js';

// Preferences per type, honoured by each delivery: in the app (stored or not), by email (a
// real SMTP server on a loopback port) and by push (the hook the push domain listens to).
let forum: TestForum;
let smtp: TestSmtp;
let cid: number;
let n = 0;
const pushed: { uids: number[]; notification: NotificationRow }[] = [];

type Member = TestMember;
async function member(opts: { confirmed?: boolean } = {}): Promise<Member> {
  const user = await forum.createUser({ username: `pref${++n}x`, email: `pref${n}@example.com` });
  if (opts.confirmed !== false) await forum.ctx.db.updateTable('users').set({ email_confirmed: 1 }).where('uid', '=', user.uid).execute();
  return forum.member((await forum.ctx.users.get(user.uid))!);
}

async function setPrefs(m: Member, settings: Record<string, unknown>) {
  const res = await m.client.put(`/api/v3/users/${m.user.uid}/settings`, { settings });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.response as Record<string, unknown>;
}

const topicBy = async (m: Member, inCid = cid) =>
  (await forum.ctx.topics.create(m.viewer, { cid: inCid, title: `Topic number ${++n} of ${m.user.username}`, content: 'The first post of a topic' })).topic;

async function reply(m: Member, tid: number) {
  const res = await m.client.post(`/api/v3/topics/${tid}`, { content: `A reply that is long enough ${++n}.` });
  expect(res.status).toBe(200);
}

async function stored(m: Member) {
  await forum.ctx.hooks.idle();
  return forum.ctx.db.selectFrom('notifications').selectAll().where('uid', '=', m.user.uid).execute();
}

/** Runs the queued jobs (notification mails), sends the outbox, returns the mails to a member. */
async function mailsTo(m: Member): Promise<ReceivedMail[]> {
  await forum.ctx.hooks.idle();
  // Every due job (a batch at a time: other domains' recurring jobs are due too), then the outbox.
  while ((await forum.ctx.jobs.runDue(Date.now())) > 0) await forum.ctx.hooks.idle();
  await forum.ctx.mail.sendDue();
  // Until the test SMTP server has taken in what was sent (its handler runs after the client's QUIT).
  let seen = -1;
  while (seen !== smtp.received.length) {
    seen = smtp.received.length;
    await new Promise((r) => setTimeout(r, 50));
  }
  // Registration's confirmation mails are not what these tests count.
  return smtp.received.filter((r) => r.to.includes(m.user.email!) && !r.subject.startsWith('Please confirm'));
}

beforeAll(async () => {
  smtp = await new TestSmtp().start();
  forum = await startTestForum({ settings: { smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecurity: 'none', smtpFrom: 'forum@example.com' } });
  cid = (await forum.ctx.categories.create(SYSTEM, { name: 'Open' })).cid;
  forum.ctx.hooks.action('action:notifications.push', 'prefs-test', async (p) => void pushed.push(p));
});
beforeEach(async () => {
  await forum.ctx.hooks.idle();
  await forum.ctx.jobs.runDue(Date.now());
  await forum.ctx.mail.sendDue();
  smtp.received = [];
  pushed.length = 0;
});
afterAll(async () => {
  await forum?.close();
  await smtp?.stop();
});

describe('notification preferences', () => {
  it('default: a reply in a watched topic is stored, mailed and pushed; NodeBB keys answer the defaults', async () => {
    const [alice, bob] = [await member(), await member()];
    const topic = await topicBy(alice);
    await reply(bob, topic.tid);
    expect(await stored(alice)).toHaveLength(1);
    const [mail, ...more] = await mailsTo(alice);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe(`[Palaver] ${bob.user.username} replied to ${topic.title}`);
    expect(mail!.text).toMatch(/http:\/\/127\.0\.0\.1\/post\/\d+/);
    expect(mail!.text).toMatch(/Stop these mails: http:\/\/127\.0\.0\.1\/email\/unsubscribe\//);
    expect(pushed.map((p) => p.uids)).toEqual([[alice.user.uid]]);
    expect(pushed[0]!.notification).toMatchObject({ type: 'new-reply', tid: topic.tid, from_uid: bob.user.uid });
    const res = await alice.client.get(`/api/user/${alice.user.userslug}/settings`);
    expect(res.status).toBe(200);
    expect(res.body.settings).toMatchObject({ 'notificationType_new-reply': 'notificationemail', notificationType_upvote: 'notification', dailyDigestFreq: 'off' });
  });

  it('none: nothing stored, mailed or pushed for that type', async () => {
    const [alice, bob] = [await member(), await member()];
    const saved = await setPrefs(alice, { 'notificationType_new-reply': 'none', 'notificationPush_new-reply': '0' });
    expect(saved['notificationType_new-reply']).toBe('none');
    const topic = await topicBy(alice);
    await reply(bob, topic.tid);
    expect(await stored(alice)).toEqual([]);
    expect(await mailsTo(alice)).toEqual([]);
    expect(pushed).toEqual([]);
  });

  it('in the app only: stored, no mail, no push', async () => {
    const [alice, bob] = [await member(), await member()];
    await setPrefs(alice, { 'notificationType_new-reply': 'notification', 'notificationPush_new-reply': false });
    const topic = await topicBy(alice);
    await reply(bob, topic.tid);
    expect(await stored(alice)).toHaveLength(1);
    expect(await mailsTo(alice)).toEqual([]);
    expect(pushed).toEqual([]);
  });

  it('email only: mailed (with the privileges of send time), not stored; push only: the hook fires', async () => {
    const [alice, bob, carol] = [await member(), await member(), await member()];
    await setPrefs(alice, { 'notificationType_new-reply': 'email', 'notificationPush_new-reply': '0' });
    await setPrefs(carol, { 'notificationType_new-reply': 'none', 'notificationPush_new-reply': '1' });
    const topic = await topicBy(alice);
    await forum.ctx.topics.follow(carol.viewer, topic.tid, 'follow');
    await reply(bob, topic.tid);
    expect(await stored(alice)).toEqual([]);
    expect(await stored(carol)).toEqual([]);
    expect(await mailsTo(alice)).toHaveLength(1);
    expect(await mailsTo(carol)).toEqual([]);
    expect(pushed.map((p) => p.uids)).toEqual([[carol.user.uid]]);
  });

  it('no mail to an unconfirmed address, nor about a category the reader may no longer read', async () => {
    const [alice, bob, dave] = [await member({ confirmed: false }), await member(), await member()];
    const closed = (await forum.ctx.categories.create(SYSTEM, { name: `Closing ${++n}` })).cid;
    const topic = await topicBy(alice);
    await reply(bob, topic.tid);
    expect(await stored(alice)).toHaveLength(1);
    expect(await mailsTo(alice)).toEqual([]);
    // Dave watches a topic; the category closes between the reply and the mail job.
    const t2 = await topicBy(dave, closed);
    await reply(bob, t2.tid);
    await forum.ctx.hooks.idle();
    await forum.ctx.privileges.take(closed, ['read', 'topics:read'], REGISTERED);
    expect(await mailsTo(dave)).toEqual([]);
  });

  it('a flood of replies merges into one notification and one mail until it is read', async () => {
    const [alice, ...others] = [await member(), await member(), await member(), await member(), await member()];
    const topic = await topicBy(alice);
    for (const o of others) await reply(o, topic.tid);
    const rows = await stored(alice);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.from_count).toBe(4);
    expect(await mailsTo(alice)).toHaveLength(1);
    // Read: the next reply mails again.
    const res = await alice.client.put(`/api/v3/notifications/${rows[0]!.id}/read`, {});
    expect(res.status).toBe(200);
    await reply(others[0]!, topic.tid);
    expect(await mailsTo(alice)).toHaveLength(2);
  });

  it("a mail's unsubscribe link turns that type's mail off in the settings; turning it on again takes it back", async () => {
    const [alice, bob] = [await member(), await member()];
    const topic = await topicBy(alice);
    await reply(bob, topic.tid);
    const [mail] = await mailsTo(alice);
    const path = /http:\/\/127\.0\.0\.1(\/email\/unsubscribe\/[\w.-]+)/.exec(mail!.text)![1]!;
    expect((await forum.client().get(path)).status).toBe(200);
    // Opening the link shows a button; its POST unsubscribes.
    expect((await forum.client().post(path, {})).status).toBe(200);
    const row = async () => {
      const page = await alice.client.get(`/api/user/${alice.user.userslug}/settings`);
      return page.body.notificationSettings.find((r: { name: string }) => r.name === 'notificationType_new-reply');
    };
    expect(await row()).toMatchObject({ value: 'notification', email: false });
    const rows = await stored(alice);
    await alice.client.put(`/api/v3/notifications/${rows[0]!.id}/read`, {});
    smtp.received = [];
    await reply(bob, topic.tid);
    expect(await mailsTo(alice)).toEqual([]);
    await setPrefs(alice, { 'notificationType_new-reply': 'notificationemail' });
    await forum.ctx.hooks.idle();
    expect(await row()).toMatchObject({ value: 'notificationemail' });
    await alice.client.put('/api/v3/notifications/read', {});
    await reply(bob, topic.tid);
    expect(await mailsTo(alice)).toHaveLength(1);
  });

  it('bad values answer 400 with a key; another member cannot change mine', async () => {
    const [alice, bob] = [await member(), await member()];
    for (const settings of [{ 'notificationType_new-reply': 'loud' }, { dailyDigestFreq: 'hourly' }, { categoryWatchState: 'staring' }, { 'notificationPush_new-reply': 'maybe' }]) {
      const res = await alice.client.put(`/api/v3/users/${alice.user.uid}/settings`, { settings });
      expect(res.status).toBe(400);
      expect(res.body.status.message).toMatch(/does not take that value/);
    }
    const res = await bob.client.put(`/api/v3/users/${alice.user.uid}/settings`, { settings: { 'notificationType_new-reply': 'none' } });
    expect(res.status).toBe(403);
  });
});

describe('digests', () => {
  let other: App;
  beforeAll(async () => {
    other = await buildApp(forum.ctx.config, { logger: false });
  });
  afterAll(async () => other?.close());

  it('sends a due member the top topics they may read, once across two runners, and nothing when nothing is new', async () => {
    const [alice, bob] = [await member(), await member()];
    await setPrefs(alice, { dailyDigestFreq: 'day' });
    const hidden = (await forum.ctx.categories.create(SYSTEM, { name: `Staff ${++n}` })).cid;
    await forum.ctx.privileges.take(hidden, ['read', 'topics:read'], REGISTERED);
    const open = await topicBy(bob);
    const { user: admin } = await forum.loginAs({ admin: true });
    const secret = await forum.ctx.topics.create(await forum.ctx.privileges.viewer(admin.uid), { cid: hidden, title: 'A staff-only topic title', content: 'Nobody else reads this' });
    const now = Date.now();
    // Two processes run the same job at the same time: one digest.
    const counts = await Promise.all([forum.ctx.notifications.sendDigests(now + 1000), other.ctx.notifications.sendDigests(now + 1000)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    const [mail, ...more] = await mailsTo(alice);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Your daily digest from Palaver');
    expect(mail!.text).toContain(open.title);
    expect(mail!.text).not.toContain(secret.topic.title);
    expect(mail!.html).toContain(`http://127.0.0.1/topic/${open.tid}/`);
    // Not due again within the day; a day later with nothing new: no mail.
    expect(await forum.ctx.notifications.sendDigests(now + 2 * 3600_000)).toBe(0);
    smtp.received = [];
    expect(await forum.ctx.notifications.sendDigests(now + 25 * 3600_000)).toBe(0);
    expect(await mailsTo(alice)).toEqual([]);
  });
});
