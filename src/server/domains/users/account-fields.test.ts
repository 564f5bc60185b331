import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import type { UserRow } from './store.js';

// NodeBB's UserObjectFull on the account pages (account-fields.ts): each field follows what the
// member and the reader did.
let forum: TestForum;
let admin: { client: HttpClient; user: UserRow };
let alice: { client: HttpClient; user: UserRow };
let bob: { client: HttpClient; user: UserRow };

beforeAll(async () => {
  forum = await startTestForum();
  admin = await forum.loginAs({ admin: true });
  alice = await forum.loginAs();
  bob = await forum.loginAs();
});
afterAll(async () => {
  await forum.close();
});

const page = async (c: HttpClient, slug: string, list = 'posts') => {
  const res = await c.get(`/api/user/${slug}/${list}`);
  expect(res.status).toBe(200);
  return res.body;
};

describe("account pages' member fields", () => {
  it("follow, chat room, flag and block are the reader's own", async () => {
    const before = await page(alice.client, bob.user.userslug);
    expect(before).toMatchObject({ isFollowing: false, hasPrivateChat: 0, flagId: null, isBlocked: false, canChat: true, isSelf: false, yourid: alice.user.uid, theirid: bob.user.uid, isLocal: true });
    expect(before).not.toHaveProperty('ips');

    expect((await alice.client.put(`/api/v3/users/${bob.user.uid}/follow`)).status).toBe(200);
    const room = await alice.client.post('/api/v3/chats', { uids: [bob.user.uid] });
    expect(room.status).toBe(200);
    const flag = await alice.client.post('/api/v3/flags', { type: 'user', id: bob.user.uid, reason: 'Spam' });
    expect(flag.status).toBe(200);
    const flagId = (await forum.ctx.db.selectFrom('flags').select('flag_id').where('type', '=', 'user').where('target_id', '=', bob.user.uid).executeTakeFirstOrThrow()).flag_id;
    expect((await alice.client.put(`/api/v3/users/${bob.user.uid}/block`)).status).toBe(200);

    const after = await page(alice.client, bob.user.userslug, 'topics');
    expect(after).toMatchObject({ isFollowing: true, hasPrivateChat: room.body.response.roomId, flagId, isBlocked: true, flags: 1 });
    // Another reader's view of the same member is not alice's.
    expect(await page(admin.client, bob.user.userslug)).toMatchObject({ isFollowing: false, hasPrivateChat: 0, flagId: null, isBlocked: false, isAdmin: true, canBan: true });
    // Bob blocks nobody; alice blocks one member (her own count, seen by her and admins).
    expect((await page(alice.client, alice.user.userslug)).counts).toMatchObject({ blocks: 1, followers: 0, following: 1 });
    expect((await page(bob.client, alice.user.userslug)).counts).not.toHaveProperty('blocks');
    // Blocked by bob, alice may not chat with him.
    expect((await bob.client.put(`/api/v3/users/${alice.user.uid}/block`)).status).toBe(200);
    expect(await page(alice.client, bob.user.userslug)).toMatchObject({ canChat: false });
  });

  it('mute, addresses and the latest moderation note for moderators', async () => {
    expect((await admin.client.put(`/api/v3/users/${bob.user.uid}/mute`, { until: Date.now() + 3_600_000, reason: 'Cooling off' })).status).toBe(200);
    expect((await admin.client.post(`/api/v3/users/${bob.user.uid}/moderation-notes`, { note: 'Watch this one' })).status).toBeLessThan(300);
    const seen = await page(admin.client, bob.user.userslug);
    expect(seen).toMatchObject({ muted: true, mutedReason: 'Cooling off', moderationNote: 'Watch this one' });
    expect(seen.mutedUntil).toBeGreaterThan(Date.now());
    expect(Array.isArray(seen.ips)).toBe(true);
    const byMember = await page(alice.client, bob.user.userslug);
    expect(byMember).toMatchObject({ muted: true });
    expect(byMember).not.toHaveProperty('moderationNote');
    expect(byMember).not.toHaveProperty('ips');
    // Profile links: the info page for admins, the sessions page for the member themself.
    expect(seen.profile_links.map((l: { id: string }) => l.id)).toEqual(['info']);
    expect((await page(bob.client, bob.user.userslug)).profile_links.map((l: { id: string }) => l.id)).toEqual(['sessions']);
  });
});
