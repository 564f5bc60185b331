import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../test/harness.js';

// A member's client config is built once and reused by their pages (client-config.ts): every
// change to what it is made of must still show on the very next request.
let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum?.close();
});

const PHONE = { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148' };

describe("a member's client config", () => {
  it('follows their settings, their groups, the forum settings and their browser at once', async () => {
    const admin = await forum.ctx.privileges.viewer((await forum.createUser({ admin: true })).uid);
    const { client, user } = await forum.loginAs();
    const config = async (headers?: Record<string, string>) => (await client.get('/api/config', { headers })).body;
    const first = await config();
    expect(first).toMatchObject({ uid: user.uid, isAdmin: false, usePagination: true, useragent: { isMobile: false } });
    expect(await config()).toEqual(first);

    expect((await client.put(`/api/v3/users/${user.uid}/settings`, { settings: { usePagination: false } })).status).toBe(200);
    expect((await config()).usePagination).toBe(false);

    expect((await config(PHONE)).useragent.isMobile).toBe(true);
    expect((await config()).useragent.isMobile).toBe(false);

    await forum.ctx.settings.set({ siteTitle: 'Renamed Forum' });
    expect((await config()).siteTitle).toBe('Renamed Forum');

    // Joining a group writes no member row: the config follows the groups themselves.
    await forum.ctx.groups.joinOrRequest(admin, 'administrators', user.uid);
    expect((await config()).isAdmin).toBe(true);
  });

  it("gives each of a member's sessions its own CSRF token, and each token works for its session", async () => {
    const user = await forum.createUser();
    const a = (await forum.loginAs(user)).client;
    const b = (await forum.loginAs(user)).client;
    const tokenA = (await a.get('/api/config')).body.csrf_token as string;
    const tokenB = (await b.get('/api/config')).body.csrf_token as string;
    expect(tokenA).not.toBe(tokenB);
    // The HTML page embeds the same token as the config route.
    expect((await a.get('/')).text).toContain(`"csrf_token":"${tokenA}"`);
    const write = (client: typeof a, token: string) =>
      client.put(`/api/v3/users/${user.uid}/settings`, { settings: { usePagination: true } }, { csrf: false, headers: { 'x-csrf-token': token } });
    expect((await write(a, tokenA)).status).toBe(200);
    expect((await write(b, tokenB)).status).toBe(200);
    expect((await write(a, tokenB)).status).toBe(403);
  });
});
