import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../../setup.js';
import { startTestForum, type TestForum } from '../../test/harness.js';

let forum: TestForum;
let cid: number;

beforeAll(async () => {
  forum = await startTestForum();
  cid = (await forum.ctx.categories.create(SYSTEM, { name: 'Blocks' })).cid;
});
afterAll(async () => forum?.close());

async function unread(client: Awaited<ReturnType<TestForum['member']>>['client']) {
  await forum.ctx.hooks.idle();
  return ((await client.get('/api/v3/notifications')).body.response.unread as { bodyShort: string }[]).length;
}

describe('blocks', () => {
  it('folds a blocked member’s posts for the blocker only, and lists them on the blocks page', async () => {
    const [alice, bob, carol] = [await forum.member(), await forum.member(), await forum.member()];
    const topic = (await alice.client.post('/api/v3/topics', { cid, title: 'A topic with a blocked reply', content: 'Alice starts the topic here.', tags: [] }))
      .body.response;
    const reply = (await bob.client.post(`/api/v3/topics/${topic.tid}`, { content: 'Bob replies to the topic.' })).body.response;
    // Read before the block: the server's list of members who block anyone is loaded without
    // Alice, and the block must drop it (else her next page would skip the lookup).
    const before = (await alice.client.get(`/api/topic/${topic.tid}`)).body.posts as { blocked?: boolean }[];
    expect(before.every((p) => !p.blocked)).toBe(true);
    expect((await alice.client.put(`/api/v3/users/${bob.user.uid}/block`)).status).toBe(200);

    const seen = (await alice.client.get(`/api/topic/${topic.tid}`)).body.posts as { pid: number; blocked?: boolean; content: string }[];
    expect(seen.find((p) => p.pid === reply.pid)!.blocked).toBe(true);
    // The content stays in the data: the reader may unfold it.
    expect(seen.find((p) => p.pid === reply.pid)!.content).toContain('Bob replies');
    expect(seen.find((p) => p.pid !== reply.pid)!.blocked).toBeUndefined();
    const others = (await carol.client.get(`/api/topic/${topic.tid}`)).body.posts as { pid: number; blocked?: boolean }[];
    expect(others.every((p) => !p.blocked)).toBe(true);

    const page = await alice.client.get(`/api/user/${alice.user.userslug}/blocks`);
    expect(page.status).toBe(200);
    expect(page.body.template.name).toBe('account/blocks');
    expect((page.body.users as { uid: number; username: string }[]).map((u) => u.username)).toEqual([bob.user.username]);
    expect((await carol.client.get(`/api/user/${alice.user.userslug}/blocks`)).status).toBe(403);
    expect((await forum.client().get(`/api/user/${alice.user.userslug}/blocks`)).status).toBe(401);

    expect((await alice.client.del(`/api/v3/users/${bob.user.uid}/block`)).status).toBe(200);
    expect((await alice.client.get(`/api/user/${alice.user.userslug}/blocks`)).body.users).toEqual([]);
    const after = (await alice.client.get(`/api/topic/${topic.tid}`)).body.posts as { blocked?: boolean }[];
    expect(after.every((p) => !p.blocked)).toBe(true);
  });

  it('makes no notification from a blocked member, and keeps them out of chats', async () => {
    const [alice, bob] = [await forum.member(), await forum.member()];
    const topic = (await alice.client.post('/api/v3/topics', { cid, title: 'Alice follows her own topic', content: 'Replies notify Alice here.', tags: [] }))
      .body.response;
    await alice.client.put(`/api/v3/topics/${topic.tid}/follow`);
    await bob.client.post(`/api/v3/topics/${topic.tid}`, { content: 'A reply Alice hears about.' });
    expect(await unread(alice.client)).toBe(1);

    // A second topic: a new notification would be a second one, not merged into the first.
    const second = (
      await alice.client.post('/api/v3/topics', { cid, title: 'Alice follows another topic', content: 'Replies would notify Alice here.', tags: [] })
    ).body.response;
    await alice.client.put(`/api/v3/topics/${second.tid}/follow`);
    await alice.client.put(`/api/v3/users/${bob.user.uid}/block`);
    await bob.client.post(`/api/v3/topics/${second.tid}`, { content: 'A reply Alice does not hear about.' });
    expect(await unread(alice.client)).toBe(1);
    const chat = await bob.client.post('/api/v3/chats', { uids: [alice.user.uid] });
    expect([chat.status, chat.body.status.key]).toEqual([400, 'error:chat-user-blocked']);
  });

  it('refuses to block an administrator or oneself', async () => {
    const m = await forum.member();
    const admin = await forum.member({ admin: true });
    const res = await m.client.put(`/api/v3/users/${admin.user.uid}/block`);
    expect([res.status, res.body.status.key]).toEqual([400, 'error:cannot-block-privileged']);
    expect((await m.client.put(`/api/v3/users/${m.user.uid}/block`)).body.status.key).toBe('error:cannot-block-self');
  });
});
