import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_MODS } from '../groups/service.js';
import { startTestForum, type TestForum } from '../../test/harness.js';

// NodeBB's hidePrivateData for GET /api/v3/users/{uid}: the address shows to the member
// themself, administrators and global moderators, and to other members when the member chose
// to show it; to nobody else.
let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum.close();
});

describe('GET /api/v3/users/{uid}: the email address', () => {
  it('shows to the member, admins and global moderators; to others only when the member shows it', async () => {
    const owner = await forum.loginAs();
    const other = await forum.loginAs();
    const admin = await forum.loginAs({ admin: true });
    const gmod = await forum.loginAs();
    await forum.ctx.groups.join(GLOBAL_MODS, gmod.user.uid);
    const emailSeenBy = async (c: typeof owner) => (await c.client.get(`/api/v3/users/${owner.user.uid}`)).body.response.email as string;
    expect(await emailSeenBy(owner)).toBe(owner.user.email);
    expect(await emailSeenBy(admin)).toBe(owner.user.email);
    expect(await emailSeenBy(gmod)).toBe(owner.user.email);
    expect(await emailSeenBy(other)).toBe('');
    expect((await owner.client.put(`/api/v3/users/${owner.user.uid}/settings`, { settings: { showemail: 1 } })).status).toBe(200);
    expect(await emailSeenBy(other)).toBe(owner.user.email);
    expect((await forum.client().get(`/api/v3/users/${owner.user.uid}`)).body.response?.email ?? '').toBe('');
  });
});
