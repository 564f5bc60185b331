import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../test/harness.js';

// A member's client config (client-config.ts) and their page data's `loggedInUser` (pages.ts)
// are built once and reused by their pages: every change to what they are made of must still
// show on the very next request.
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

describe("a member's loggedInUser in page data", () => {
  it('follows their status and settings, their roles and the forum settings at once', async () => {
    const admin = await forum.ctx.privileges.viewer((await forum.createUser({ admin: true })).uid);
    const { client, user } = await forum.loginAs();
    const me = async () => (await client.get('/api/recent')).body.loggedInUser;
    expect(await me()).toMatchObject({ uid: user.uid, isAdmin: false, settings: { usePagination: true, postsPerPage: 20 } });

    expect((await client.put(`/api/v3/users/${user.uid}/settings`, { settings: { usePagination: false } })).status).toBe(200);
    expect((await me()).settings.usePagination).toBe(false);
    await forum.ctx.users.setStatus(await forum.ctx.privileges.viewer(user.uid), user.uid, 'dnd');
    expect((await me()).status).toBe('dnd');

    await forum.ctx.settings.set({ postsPerPage: 15 });
    expect((await me()).settings.postsPerPage).toBe(15);
    await forum.ctx.settings.set({ postsPerPage: 20 });
    expect((await me()).settings.postsPerPage).toBe(20);

    // Joining a group writes no member row: the roles follow the groups themselves.
    await forum.ctx.groups.joinOrRequest(admin, 'administrators', user.uid);
    expect((await me()).isAdmin).toBe(true);
  });
});
