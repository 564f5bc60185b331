import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, TEST_PASSWORD, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';

let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum.close();
});

/** A code for the step `ahead` steps from now (a later step is a new code, not a replay). */
const code = (secret: string, ahead = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + ahead * 30 });

/** A logged-in member who enrolled a key; returns the secret and backup codes. */
async function enrolled() {
  const { client, user } = await forum.loginAs();
  const begin = await client.post(`/api/v3/users/${user.uid}/2fa`, {});
  expect(begin.status).toBe(200);
  const { secret, uri, qr } = begin.body.response as { secret: string; uri: string; qr: string };
  expect(uri).toContain(`secret=${secret}`);
  expect(qr).toMatch(/^data:image\/svg\+xml;base64,/);
  expect(Buffer.from(qr.split(',')[1]!, 'base64').toString()).toContain('<svg');
  const confirm = await client.put(`/api/v3/users/${user.uid}/2fa`, { code: await code(secret) });
  expect(confirm.status).toBe(200);
  const backupCodes = confirm.body.response.backupCodes as string[];
  return { client, user, secret, backupCodes };
}

/** The password step: a client holding the pending cookie (no session yet). */
async function passwordStep(username: string): Promise<HttpClient> {
  const client = forum.client();
  const res = await client.post('/login', { username, password: TEST_PASSWORD });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ next: '/login/2fa', uid: 0 });
  return client;
}

async function whoAmI(client: HttpClient): Promise<number> {
  return ((await client.get('/api/config')).body as { uid: number }).uid;
}

describe('two-factor enrolment', () => {
  it('enrols with a code, gives ten one-time backup codes, and shows the key on the 2factor page', async () => {
    const { client, user, backupCodes } = await enrolled();
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);
    const page = await client.get(`/api/user/${user.userslug}/2factor`);
    expect(page.body).toMatchObject({ template: { name: 'account/2factor' }, enabled: true, backupCodesLeft: 10 });
    // Only hashes are stored.
    const rows = await forum.ctx.db.selectFrom('two_factor_backup').select('code_hash').where('uid', '=', user.uid).execute();
    expect(rows.map((r) => r.code_hash)).not.toContain(backupCodes[0]);
    // A second enrolment while the key is active is refused.
    expect((await client.post(`/api/v3/users/${user.uid}/2fa`, {})).body.status.key).toBe('error:two-factor-already-enabled');
  });

  it('refuses a wrong confirmation code and another member\'s enrolment', async () => {
    const { client, user } = await forum.loginAs();
    await client.post(`/api/v3/users/${user.uid}/2fa`, {});
    const wrong = await client.put(`/api/v3/users/${user.uid}/2fa`, { code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.status.key).toBe('error:two-factor-invalid-code');
    const { client: other } = await forum.loginAs();
    expect((await other.post(`/api/v3/users/${user.uid}/2fa`, {})).status).toBe(403);
    const admin = await forum.loginAs({ admin: true });
    // The key is its owner's alone: not even an admin enrols for them, nor sees the page.
    expect((await admin.client.post(`/api/v3/users/${user.uid}/2fa`, {})).status).toBe(403);
    expect((await admin.client.get(`/api/user/${user.userslug}/2factor`)).status).toBe(403);
  });
});

describe('login with a second factor', () => {
  it('gives no session for the password alone, then logs in with a TOTP code; the same code is refused a second time', async () => {
    const { user, secret } = await enrolled();
    const client = await passwordStep(user.username);
    expect(await whoAmI(client)).toBe(0);
    // The page asks for the code.
    expect((await client.get('/api/login/2fa')).body).toMatchObject({ template: { name: 'login-2fa' }, variant: 'totp', reauth: false });
    const totp = await code(secret, 1);
    const ok = await client.post('/login/2fa/totp', { code: totp });
    expect(ok.status).toBe(200);
    expect(ok.body.next).toBe('/');
    expect(await whoAmI(client)).toBe(user.uid);

    // Replay: the same code on another password step.
    const again = await passwordStep(user.username);
    const replay = await again.post('/login/2fa/totp', { code: totp });
    expect(replay.status).toBe(400);
    expect(replay.body.status.key).toBe('error:two-factor-code-used');
    expect(await whoAmI(again)).toBe(0);
  });

  it('logs in with a backup code once; a used or made-up backup code is refused', async () => {
    const { user, backupCodes } = await enrolled();
    const client = await passwordStep(user.username);
    // Case and dashes do not matter.
    expect((await client.post('/login/2fa/backup', { code: backupCodes[3]!.toUpperCase().replace('-', ' ') })).status).toBe(200);
    expect(await whoAmI(client)).toBe(user.uid);
    const again = await passwordStep(user.username);
    const used = await again.post('/login/2fa/backup', { code: backupCodes[3] });
    expect(used.body.status.key).toBe('error:two-factor-invalid-backup-code');
    expect((await again.post('/login/2fa/backup', { code: 'aaaaa-bbbbb' })).status).toBe(400);
    const page = await client.get(`/api/user/${user.userslug}/2factor`);
    expect(page.body.backupCodesLeft).toBe(9);
  });

  it('refuses a code without a password step, and the API login of a member with a key', async () => {
    const { user, secret } = await enrolled();
    const guest = forum.client();
    const res = await guest.post('/login/2fa/totp', { code: await code(secret) });
    expect(res.status).toBe(400);
    expect(res.body.status.key).toBe('error:two-factor-login-expired');
    const api = await forum.client().post('/api/v3/utilities/login', { username: user.username, password: TEST_PASSWORD });
    expect(api.status).toBe(403);
    expect(api.body.status.key).toBe('error:two-factor-login-required');
    // A forged pending cookie is no login either.
    const forged = forum.client();
    forged.cookies.set('palaver.2fa', `${user.uid}.${Date.now() + 60_000}.0.AAAAAAAAAAAA.${'A'.repeat(43)}`);
    expect((await forged.post('/login/2fa/totp', { code: await code(secret, -1) })).body.status.key).toBe('error:two-factor-login-expired');
  });

  it('limits code attempts per member (brute force)', async () => {
    const { user, secret } = await enrolled();
    const client = await passwordStep(user.username);
    // The enrolment's confirmation was the first attempt in the window.
    for (let i = 0; i < 4; i++) expect((await client.post('/login/2fa/totp', { code: '123456' })).status).toBe(400);
    const limited = await client.post('/login/2fa/totp', { code: await code(secret, 1) });
    expect(limited.status).toBe(429);
    expect(limited.body.status.key).toBe('error:too-many-two-factor-attempts');
    expect(await whoAmI(client)).toBe(0);
  });

  it('turns two-factor off only with the password; then the password alone logs in', async () => {
    const { client, user } = await enrolled();
    await client.refreshCsrf();
    const wrong = await client.del(`/api/v3/users/${user.uid}/2fa`, { password: 'not-it' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.status.key).toBe('user:change-password-error-wrong-current');
    expect((await client.del(`/api/v3/users/${user.uid}/2fa`, { password: TEST_PASSWORD })).status).toBe(200);
    const next = forum.client();
    expect((await next.post('/login', { username: user.username, password: TEST_PASSWORD })).body.uid).toBe(user.uid);
  });
});
