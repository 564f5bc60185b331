import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotedPids } from '../../../shared/quotes.js';
import { startTestForum, type TestForum } from '../../test/harness.js';
import { makeCategory, postReply, postTopic } from '../topics/testing.js';

let forum: TestForum;

beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum.close();
});

/** What the composer's Quote writes (modules:composer.user-said-in, then the post as a blockquote). */
const quote = (username: string, title: string, pid: number, text: string, answer = 'And here is my answer to it.') =>
  `@${username} said in [${title}](/post/${pid}):\n> ${text}\n\n${answer}`;

/** A member's notifications of one type. */
async function notificationsOf(uid: number, type: string) {
  return forum.ctx.db.selectFrom('notifications').selectAll().where('uid', '=', uid).where('type', '=', type).execute();
}

describe('quoted posts', () => {
  it('finds the quoted post ids in a quote, not in a plain link or code', () => {
    expect(quotedPids('@ann said in [T](/forum/post/12):\n> hi\n\nok')).toEqual([12]);
    expect(quotedPids('see [T](/post/12) for more')).toEqual([]);
    expect(quotedPids('```\n@ann said in [T](/post/12):\n> hi\n```')).toEqual([]);
  });
});

describe('quote notifications', () => {
  it('a real quote through HTTP notifies the quoted author once, as a quote (no mention too)', async () => {
    const cid = await makeCategory(forum.ctx, 'Quotes');
    const alice = await forum.loginAs();
    const bob = await forum.loginAs();
    const t = await postTopic(alice.client, cid, { title: 'Quoted topic title', content: 'A first post worth quoting.' });
    const reply = await postReply(bob.client, t.tid, quote(alice.user.username, 'Quoted topic title', t.mainPid, 'A first post worth quoting.'), t.mainPid);
    await forum.ctx.hooks.idle();
    await forum.ctx.hooks.idle();
    const got = await notificationsOf(alice.user.uid, 'quote');
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ pid: reply.pid, tid: t.tid, from_uid: bob.user.uid, body_key: 'notifications:user-quoted-you-in', path: `/post/${reply.pid}` });
    expect(await notificationsOf(alice.user.uid, 'mention')).toHaveLength(0);
    // The API shows it to alice as a quote.
    const list = await alice.client.get('/api/notifications');
    expect(JSON.stringify(list.body)).toContain('[[notifications:user-quoted-you-in, ');
    // The outbox ran it and has nothing left.
    const left = await forum.ctx.db.selectFrom('outbox').selectAll().where('hook', '=', 'action:post.quote').execute();
    expect(left).toHaveLength(0);
  });

  it('a reply without a quote, a quote of oneself and a quote of a member who blocked the quoter tell nobody', async () => {
    const cid = await makeCategory(forum.ctx, 'Quotes quiet');
    const alice = await forum.loginAs();
    const bob = await forum.loginAs();
    const carol = await forum.loginAs();
    const t = await postTopic(alice.client, cid, { content: 'Alice opens the topic here.' });
    const c = await postReply(carol.client, t.tid, 'Carol says something here.');
    await postReply(bob.client, t.tid, 'A reply to alice without any quote.', t.mainPid);
    await postReply(alice.client, t.tid, quote(alice.user.username, 'A topic title here', t.mainPid, 'Alice opens the topic here.'));
    expect((await carol.client.put(`/api/v3/users/${bob.user.uid}/block`)).status).toBe(200);
    await postReply(bob.client, t.tid, quote(carol.user.username, 'A topic title here', c.pid, 'Carol says something here.'));
    await forum.ctx.hooks.idle();
    await forum.ctx.hooks.idle();
    expect(await notificationsOf(alice.user.uid, 'quote')).toHaveLength(0);
    expect(await notificationsOf(carol.user.uid, 'quote')).toHaveLength(0);
  });
});
