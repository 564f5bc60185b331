import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCategory, postTopic } from '../domains/topics/testing.js';
import { startTestForum, type TestForum } from '../test/harness.js';
import { outboxCommand } from './outbox-cli.js';

/**
 * The outbox runs a row again when the process that ran it died before marking it done, so
 * every durable listener must be safe to run twice. Each test runs a listener's outbox row
 * twice over (as a restarted process would) and checks that members hear, are mailed and are
 * pushed once.
 */
let forum: TestForum;

beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum.close();
});

describe('durable listeners run twice', () => {
  it('a mention told again reaches nobody twice: a notification read stays read, no second live delivery', async () => {
    const cid = await makeCategory(forum.ctx, 'Twice');
    const reader = await forum.member();
    const author = await forum.loginAs();
    const stored: number[] = [];
    forum.ctx.hooks.action('action:notifications.stored', 'test-twice', async ({ rows }) => void stored.push(...rows.map((r) => r.uid)));
    const t = await postTopic(author.client, cid, { content: `Hello @${reader.user.userslug}` });
    await forum.ctx.hooks.idle();
    const mine = () => forum.ctx.db.selectFrom('notifications').selectAll().where('uid', '=', reader.user.uid).where('type', '=', 'mention').execute();
    const [first] = await mine();
    expect(first).toMatchObject({ pid: t.mainPid, read: 0, from_count: 1 });
    expect(stored.filter((u) => u === reader.user.uid)).toHaveLength(1);
    await reader.client.put(`/api/v3/notifications/${first!.id}/read`, {});
    expect((await mine())[0]!.read).toBe(1);

    // The topic's row run again from its first listener on (the mentions plugin, then the notifications domain).
    const post = await forum.ctx.db.selectFrom('posts').selectAll().where('pid', '=', t.mainPid).executeTakeFirstOrThrow();
    const topic = await forum.ctx.db.selectFrom('topics').selectAll().where('tid', '=', t.tid).executeTakeFirstOrThrow();
    // As the outbox gives it: the payload through JSON.
    const data: unknown = JSON.parse(JSON.stringify({ topic, post, uid: author.user.uid }));
    expect(await forum.ctx.hooks.runDurable('action:topic.save', data, ['mentions', 'watching'], 1_000_001)).toEqual([]);
    expect(await forum.ctx.hooks.runDurable('action:post.mention', JSON.parse(JSON.stringify({ post, topic, uid: author.user.uid, uids: [reader.user.uid] })), ['notifications'], 1_000_002)).toEqual([]);
    await forum.ctx.hooks.idle();

    const after = await mine();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: first!.id, read: 1, from_count: 1 });
    expect(stored.filter((u) => u === reader.user.uid)).toHaveLength(1);
    expect(await forum.ctx.notifications.unreadCount(reader.viewer)).toBe(0);
    forum.ctx.hooks.unregisterPlugin('test-twice');
  });

  it('a confirmation mail asked twice by one outbox row is queued once, and its link works', async () => {
    const user = await forum.createUser({ username: 'twice-mail', email: 'twice-mail@example.com' });
    await forum.ctx.db.updateTable('users').set({ email_confirmed: 0 }).where('uid', '=', user.uid).execute();
    await forum.ctx.hooks.idle();
    const data: unknown = JSON.parse(JSON.stringify({ user }));
    const before = await forum.ctx.db.selectFrom('mail_outbox').select('id').where('uid', '=', user.uid).execute();
    for (let i = 0; i < 2; i++) expect(await forum.ctx.hooks.runDurable('action:user.create', data, ['mail'], 2_000_001)).toEqual([]);
    const mails = await forum.ctx.db.selectFrom('mail_outbox').selectAll().where('uid', '=', user.uid).where('template', '=', 'confirm').execute();
    expect(mails.length - before.length).toBe(1);
    const mail = mails.find((m) => m.dedupe_key === 'outbox:2000001:mail')!;
    // The one mail's link is the working one: the second run made no new code that would void it.
    const code = /\/confirm\/([\w-]+)/.exec(mail.text)![1]!;
    await forum.ctx.mail.confirmEmail(code);
    expect((await forum.ctx.users.get(user.uid))!.email_confirmed).toBe(1);
  });

  it('keeps no password hash in the outbox: a member row in a hook is written without it', async () => {
    const user = await forum.createUser({ username: 'outbox-secret' });
    expect(user.password_hash).toBeTruthy();
    // Looked at inside the action's transaction, before the row can run.
    await forum.ctx.actions.run('test.secret', async (w) => {
      await w.fire('action:user.update', { user, fields: ['fullname'] });
      const rows = await w.tx.selectFrom('outbox').select('payload').where('hook', '=', 'action:user.update').execute();
      expect(rows).toHaveLength(1);
      expect(JSON.parse(rows[0]!.payload)).toMatchObject({ user: { uid: user.uid, username: user.username }, fields: ['fullname'] });
      expect(rows[0]!.payload).not.toContain('password_hash');
    });
    await forum.ctx.hooks.idle();
  });

  it('a push asked twice by one outbox row is one job', async () => {
    const reader = await forum.createUser({ username: 'twice-push' });
    const notification = { id: 0, uid: 0, type: 'mention', merge_key: 'mention:tid:1', subject_type: 'post', subject_id: 1, from_uid: 0, from_uids: ',', from_count: 0, path: '/post/1', body_key: 'notifications:user-mentioned-you-in', body_params: '[]', pid: 1, tid: 1, cid: 1, importance: 5, read: 0, created: Date.now() };
    for (let i = 0; i < 2; i++) expect(await forum.ctx.hooks.runDurable('action:notifications.push', { uids: [reader.uid], notification }, ['web-push'], 3_000_001)).toEqual([]);
    const jobs = await forum.ctx.db.selectFrom('jobs').select(['key', 'payload']).where('name', '=', 'push.send').where('key', 'like', 'outbox:3000001:%').execute();
    expect(jobs).toHaveLength(1);
    expect(JSON.parse(jobs[0]!.payload)).toMatchObject({ uids: [reader.uid] });
  });
});

describe('palaver outbox', () => {
  it('lists the rows that failed for good, and runs them again on retry', async () => {
    let down = true;
    const got: number[] = [];
    forum.ctx.hooks.action('action:user.unfollow', 'test-failing', async ({ followee }) => {
      if (down) throw new Error('mail server down');
      got.push(followee);
    }, { durable: true });
    await forum.ctx.actions.run('test.fails', (w) => w.fire('action:user.unfollow', { uid: 1, followee: 42 }));
    await forum.ctx.hooks.idle();
    // Out of tries: its row stays, failed, for the admin to see.
    await forum.ctx.db.updateTable('outbox').set({ state: 'failed', attempts: 12 }).where('hook', '=', 'action:user.unfollow').execute();
    const [row] = await forum.ctx.db.selectFrom('outbox').select('id').where('state', '=', 'failed').execute();
    const listed = await outboxCommand(forum.ctx.db, ['list']);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^0 waiting, 1 failed\.\n/);
    expect(listed.out).toContain(`#${row!.id} action:user.unfollow pending test-failing; 12 tries; listeners failed: test-failing`);
    expect(await outboxCommand(forum.ctx.db, ['retry', '999999'])).toEqual({ out: 'No failed outbox row #999999.', code: 1 });
    expect(await outboxCommand(forum.ctx.db, ['retry', 'x'])).toMatchObject({ code: 1 });
    down = false;
    expect(await outboxCommand(forum.ctx.db, ['retry', String(row!.id)])).toEqual({ out: '1 row queued again.', code: 0 });
    expect(await forum.ctx.outbox.drain()).toBe(1);
    expect(got).toEqual([42]);
    expect((await outboxCommand(forum.ctx.db, [])).out).toBe('0 waiting, 0 failed.');
    forum.ctx.hooks.unregisterPlugin('test-failing');
  });
});
