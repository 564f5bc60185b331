import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, TEST_PASSWORD, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import { addFailure, failures } from '../../plugins/captcha/store.js';

let forum: TestForum;
beforeAll(async () => {
  // Ten tries a minute per address, per account and address, and per account before the
  // captcha step.
  forum = await startTestForum({ env: { PALAVER_RATE_LOGIN: '10', PALAVER_TRUST_PROXY: 'true' } });
});
afterAll(async () => {
  await forum.close();
});

let address = 0;
const at = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
const anyAddress = () => at(`10.9.${Math.floor(++address / 250)}.${(address % 250) + 1}`);

/** Solves the forum's ALTCHA challenge as the widget does. */
async function solve(client: HttpClient): Promise<string> {
  const c = (await client.get<{ algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string }>('/api/captcha/challenge')).body;
  for (let i = 0; i <= c.maxnumber; i++) {
    if (createHash('sha256').update(c.salt + i).digest('hex') === c.challenge) {
      return Buffer.from(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: i, salt: c.salt, signature: c.signature })).toString('base64');
    }
  }
  throw new Error('challenge not solved');
}

describe('login limit per account and address', () => {
  it('tries from address A do not lock the member out at address B', async () => {
    const user = await forum.createUser();
    const a = at('10.20.0.1');
    for (let i = 0; i < 10; i++) expect((await forum.client().post('/login', { username: user.username, password: `wrong-${i}-password` }, a)).status, `try ${i + 1}`).toBe(403);
    const lockedAtA = await forum.client().post('/login', { username: user.username, password: TEST_PASSWORD }, a);
    expect(lockedAtA.status).toBe(429);
    expect(lockedAtA.body.status.key).toBe('error:too-many-login-attempts');
    // At B the member is not refused: once the account has had more tries than the limit, the
    // captcha is the step asked for, and with it the right password logs in.
    const b = at('10.20.0.2');
    const client = forum.client();
    const asked = await client.post('/login', { username: user.username, password: TEST_PASSWORD }, b);
    expect([asked.status, asked.body.status.key]).toEqual([400, 'error:captcha-required']);
    expect((await client.post('/login', { username: user.email, password: TEST_PASSWORD, altcha: await solve(client) }, b)).status).toBe(200);
  });

  it('spread over many addresses, tries beyond the limit ask for the captcha instead of locking the account', async () => {
    const user = await forum.createUser();
    // The username and the email share the account's count.
    for (let i = 0; i < 10; i++) {
      const res = await forum.client().post('/login', { username: i % 2 === 0 ? user.username : user.email!, password: `wrong-${i}-password` }, anyAddress());
      expect(res.status, `try ${i + 1}`).toBe(403);
    }
    const client = forum.client();
    const from = anyAddress();
    const asked = await client.post('/login', { username: user.email!.toUpperCase(), password: TEST_PASSWORD }, from);
    expect([asked.status, asked.body.status.key]).toEqual([400, 'error:captcha-required']);
    const wrong = await client.post('/login', { username: user.username, password: 'still-wrong-password', altcha: await solve(client) }, from);
    expect([wrong.status, wrong.body.status.key]).toEqual([403, 'error:invalid-login-credentials']);
    expect((await client.post('/login', { username: user.username, password: TEST_PASSWORD, altcha: await solve(client) }, from)).status).toBe(200);
    // Another member is not affected.
    const other = await forum.createUser();
    expect((await forum.client().post('/login', { username: other.username, password: TEST_PASSWORD }, anyAddress())).status).toBe(200);
  });

  it('counts an unknown name per name typed', async () => {
    for (let i = 0; i < 10; i++) expect((await forum.client().post('/login', { username: 'ghost-name', password: 'wrong-password' }, anyAddress())).status).toBe(403);
    expect((await forum.client().post('/login', { username: 'Ghost-Name', password: 'wrong-password' }, anyAddress())).body.status.key).toBe('error:captcha-required');
    expect((await forum.client().post('/login', { username: 'other-ghost', password: 'wrong-password' }, anyAddress())).status).toBe(403);
  });

  it("counts the captcha's failed logins per key in a window that starts again once over, two at once both counted", async () => {
    const db = forum.ctx.db;
    const add = (at: number) => forum.ctx.actions.run('test.login-failure', (w) => addFailure(w, 'name:window-test', at, 60_000));
    const t0 = 1_000_000;
    // Both at the same instant: whichever inserts first, the window ends at t0 + 60 s.
    await Promise.all([add(t0), add(t0)]);
    await add(t0 + 2);
    expect(await failures(db, ['name:window-test'], t0 + 3)).toBe(3);
    await add(t0 + 60_000);
    expect(await failures(db, ['name:window-test'], t0 + 60_001)).toBe(1);
  });
});
