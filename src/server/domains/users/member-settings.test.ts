import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../../test/harness.js';

// Member settings that change behaviour, saved as the account settings page saves them
// (NodeBB's "0"/"1" strings through PUT /api/v3/users/:uid/settings).
let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum?.close();
});

describe('open links to other sites in a new tab', () => {
  it("is the member's own choice, and the forum's setting until they choose", async () => {
    const ann = await forum.loginAs();
    const ben = await forum.loginAs();
    const config = async (c: typeof ann) => (await c.client.get('/api/config')).body as { openOutgoingLinksInNewTab: boolean };
    await forum.ctx.settings.set({ openOutgoingLinksInNewTab: false });
    expect((await config(ann)).openOutgoingLinksInNewTab).toBe(false);

    const saved = await ann.client.put(`/api/v3/users/${ann.user.uid}/settings`, { settings: { openOutgoingLinksInNewTab: '1' } });
    expect(saved.status).toBe(200);
    expect(saved.body.response.openOutgoingLinksInNewTab).toBe(true);
    expect((await config(ann)).openOutgoingLinksInNewTab).toBe(true);
    expect((await config(ben)).openOutgoingLinksInNewTab).toBe(false);
    const page = await ann.client.get(`/api/user/${ann.user.userslug}/settings`);
    expect(page.body.settings.openOutgoingLinksInNewTab).toBe(true);

    // The forum turns it on: ben (no choice) follows it; ann choosing "off" keeps her choice.
    await forum.ctx.settings.set({ openOutgoingLinksInNewTab: true });
    expect((await config(ben)).openOutgoingLinksInNewTab).toBe(true);
    await ann.client.put(`/api/v3/users/${ann.user.uid}/settings`, { settings: { openOutgoingLinksInNewTab: '0' } });
    expect((await config(ann)).openOutgoingLinksInNewTab).toBe(false);
    expect((await forum.client().get('/api/config')).body.openOutgoingLinksInNewTab).toBe(true);
    await forum.ctx.settings.set({ openOutgoingLinksInNewTab: false });
  });
});

describe('who may chat with me (disableIncomingChats)', () => {
  it('saved from the settings page, refuses new chats from members the member does not follow', async () => {
    const ann = await forum.loginAs();
    const ben = await forum.loginAs();
    const cat = await forum.loginAs();
    expect((await ben.client.post('/api/v3/chats', { uids: [ann.user.uid] })).status).toBe(200);

    const saved = await ann.client.put(`/api/v3/users/${ann.user.uid}/settings`, { settings: { disableIncomingChats: '1' } });
    expect(saved.status).toBe(200);
    expect(saved.body.response.disableIncomingChats).toBe(true);
    expect((await ann.client.get(`/api/user/${ann.user.userslug}/settings`)).body.settings.disableIncomingChats).toBe(true);

    const refused = await cat.client.post('/api/v3/chats', { uids: [ann.user.uid] });
    expect([refused.status, refused.body.status.key]).toEqual([400, 'error:chat-restricted']);
    // Someone she follows still may.
    expect((await ann.client.put(`/api/v3/users/${cat.user.uid}/follow`)).status).toBe(200);
    expect((await cat.client.post('/api/v3/chats', { uids: [ann.user.uid] })).status).toBe(200);

    // Turned off again: anyone may.
    const dan = await forum.loginAs();
    await ann.client.put(`/api/v3/users/${ann.user.uid}/settings`, { settings: { disableIncomingChats: '0' } });
    expect((await dan.client.post('/api/v3/chats', { uids: [ann.user.uid] })).status).toBe(200);
  });
});
