import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, TEST_PASSWORD, type TestForum } from '../../test/harness.js';
import { connectLive, nextEvent } from '../../test/live-client.js';
import { describeUserAgent } from './user-agent.js';

let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum.close();
});

const whoAmI = async (client: ReturnType<TestForum['client']>) => ((await client.get('/api/config')).body as { uid: number }).uid;

describe('sessions', () => {
  it('lists every session of the member with device, address and the current one marked', async () => {
    const user = await forum.createUser();
    const phone = forum.client();
    await phone.post('/login', { username: user.username, password: TEST_PASSWORD }, { headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0.6778.200 Mobile Safari/537.36' } });
    const { client: desk } = await forum.loginAs(user);
    const page = await desk.get(`/api/user/${user.userslug}/sessions`);
    expect(page.status).toBe(200);
    expect(page.body.template.name).toBe('account/sessions');
    const sessions = page.body.sessions as { uuid: string; current: boolean; browser: string; platform: string; ip: string; datetimeISO: string }[];
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions.find((s) => !s.current)).toMatchObject({ browser: 'Chrome', platform: 'Android', ip: '127.0.0.1' });
    expect(sessions[0]!.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // Another member sees nothing of them; a guest is asked to log in.
    expect((await (await forum.loginAs()).client.get(`/api/user/${user.userslug}/sessions`)).status).toBe(403);
    expect((await forum.client().get(`/api/user/${user.userslug}/sessions`)).status).toBe(401);
  });

  it('revokes one session: its next request is a guest\'s and its socket is told and closed', async () => {
    const user = await forum.createUser();
    const { client: other } = await forum.loginAs(user);
    const { client: me } = await forum.loginAs(user);
    const live = await connectLive(other);
    const told = nextEvent(live, 'event:logout');
    const closed = nextEvent<string>(live, 'disconnect');
    const list = (await me.get(`/api/user/${user.userslug}/sessions`)).body.sessions as { uuid: string; current: boolean }[];
    const target = list.find((s) => !s.current)!;
    // Another member cannot revoke it.
    const { client: stranger } = await forum.loginAs();
    expect((await stranger.del(`/api/v3/users/${user.uid}/sessions/${target.uuid}`)).status).toBe(403);
    expect((await me.del(`/api/v3/users/${user.uid}/sessions/00000000-0000-0000-0000-000000000000`)).status).toBe(404);
    expect((await me.del(`/api/v3/users/${user.uid}/sessions/${target.uuid}`)).status).toBe(200);
    await told;
    expect(await closed).toBe('io server disconnect');
    expect(await whoAmI(other)).toBe(0);
    expect(await whoAmI(me)).toBe(user.uid);
  });

  it('revokes every other session and keeps this one', async () => {
    const user = await forum.createUser();
    const a = (await forum.loginAs(user)).client;
    const b = (await forum.loginAs(user)).client;
    const { client: me } = await forum.loginAs(user);
    const res = await me.del(`/api/v3/users/${user.uid}/sessions`);
    expect(res.body.response).toEqual({ revoked: 2 });
    expect([await whoAmI(a), await whoAmI(b), await whoAmI(me)]).toEqual([0, 0, user.uid]);
  });

  it('reads devices from user agents', () => {
    expect(describeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0')).toEqual({ browser: 'Firefox', version: '133.0', platform: 'Windows' });
    expect(describeUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Mobile/15E148 Safari/604.1')).toEqual({ browser: 'Safari', version: '17.5', platform: 'iOS' });
    expect(describeUserAgent('curl/8.0')).toEqual({ browser: 'Unknown', version: '', platform: 'Unknown' });
  });
});

describe('API tokens of a member', () => {
  it('creates with a label, lists without the token, and revokes by id; others cannot', async () => {
    const { client, user } = await forum.loginAs();
    const made = await client.post(`/api/v3/users/${user.uid}/tokens`, { description: 'backup script' });
    const token = made.body.response.token as string;
    const page = await client.get(`/api/user/${user.userslug}/tokens`);
    expect(page.body.template.name).toBe('account/tokens');
    expect(page.body.tokens).toHaveLength(1);
    expect(page.body.tokens[0]).toMatchObject({ description: 'backup script' });
    expect(JSON.stringify(page.body)).not.toContain(token);
    const id = page.body.tokens[0].id as string;
    const { client: stranger } = await forum.loginAs();
    expect((await stranger.del(`/api/v3/users/${user.uid}/tokens/${id}`)).status).toBe(403);
    const bot = forum.client();
    bot.bearer = token;
    expect((await bot.get('/api/config')).body.uid).toBe(user.uid);
    expect((await client.del(`/api/v3/users/${user.uid}/tokens/${id}`)).status).toBe(200);
    expect((await bot.get('/api/config')).status).toBe(401);
    expect((await client.del(`/api/v3/users/${user.uid}/tokens/${id}`)).status).toBe(404);
  });

  it('revokes by the token itself (NodeBB\'s DELETE /users/{uid}/tokens/{token})', async () => {
    const { client, user } = await forum.loginAs();
    const token = (await client.post(`/api/v3/users/${user.uid}/tokens`, {})).body.response.token as string;
    expect((await client.del(`/api/v3/users/${user.uid}/tokens/${token}`)).status).toBe(200);
    expect((await client.get(`/api/user/${user.userslug}/tokens`)).body.tokens).toEqual([]);
  });
});

describe('admin re-authentication (spec §6)', () => {
  it('sends an admin with a key through /login/2fa before /api/admin; one without a key passes', async () => {
    const plain = await forum.loginAs({ admin: true });
    expect((await plain.client.get('/api/admin/config')).status).toBe(200);

    const { client, user } = await forum.loginAs({ admin: true });
    const { secret } = (await client.post(`/api/v3/users/${user.uid}/2fa`, {})).body.response as { secret: string };
    expect((await client.put(`/api/v3/users/${user.uid}/2fa`, { code: await generate({ secret }) })).status).toBe(200);
    // Enrolling proved the key: the admin area is open for now.
    expect((await client.get('/api/admin/config')).status).toBe(200);
    // Once that time is over, the page data redirects to /login/2fa and a write is refused.
    await forum.ctx.db.updateTable('sessions').set({ reauth_until: Date.now() - 1 }).where('uid', '=', user.uid).execute();
    const gated = await client.get('/api/admin/config');
    expect(gated.status).toBe(200);
    expect(gated.headers.get('x-redirect')).toBe('/login/2fa?next=%2Fadmin%2Fconfig');
    const html = await client.get('/admin/manage/registration');
    expect(html.status).toBe(302);
    expect(html.headers.get('location')).toBe('/login/2fa?next=%2Fadmin%2Fmanage%2Fregistration');
    // The page asks the logged-in admin for the code, then lets them back in.
    expect((await client.get('/api/login/2fa?next=/admin')).body).toMatchObject({ reauth: true, next: '/admin' });
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const res = await client.post('/login/2fa/totp', { code, next: '/admin' });
    expect(res.body).toEqual({ next: '/admin' });
    expect((await client.get('/api/admin/config')).headers.get('x-redirect')).toBeNull();
  });

  it('keeps `next` inside the forum', async () => {
    const { client, user } = await forum.loginAs({ admin: true });
    const { secret } = (await client.post(`/api/v3/users/${user.uid}/2fa`, {})).body.response as { secret: string };
    await client.put(`/api/v3/users/${user.uid}/2fa`, { code: await generate({ secret }) });
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    expect((await client.post('/login/2fa/totp', { code, next: '//evil.example/' })).body).toEqual({ next: '/' });
  });
});
