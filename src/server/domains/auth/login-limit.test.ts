import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, TEST_PASSWORD, type TestForum } from '../../test/harness.js';

let forum: TestForum;
beforeAll(async () => {
  // Ten tries a minute; each request below comes from its own address, so only the
  // per-account count can stop it.
  forum = await startTestForum({ env: { PALAVER_RATE_LOGIN: '10', PALAVER_TRUST_PROXY: 'true' } });
});
afterAll(async () => {
  await forum.close();
});

let address = 0;
const from = () => ({ headers: { 'x-forwarded-for': `10.9.${Math.floor(++address / 250)}.${(address % 250) + 1}` } });

describe('login limit per account', () => {
  it('counts the username and the email against one budget: ten wrong tries lock the eleventh', async () => {
    const user = await forum.createUser();
    for (let i = 0; i < 10; i++) {
      const name = i % 2 === 0 ? user.username : user.email!;
      const res = await forum.client().post('/login', { username: name, password: `wrong-${i}-password` }, from());
      expect(res.status, `try ${i + 1}`).toBe(403);
    }
    for (const name of [user.username, user.email!.toUpperCase()]) {
      const locked = await forum.client().post('/login', { username: name, password: TEST_PASSWORD }, from());
      expect(locked.status).toBe(429);
      expect(locked.body.status.key).toBe('error:too-many-login-attempts');
    }
    // Another member is not affected.
    const other = await forum.createUser();
    expect((await forum.client().post('/login', { username: other.username, password: TEST_PASSWORD }, from())).status).toBe(200);
  });

  it('counts an unknown name per name typed', async () => {
    for (let i = 0; i < 10; i++) expect((await forum.client().post('/login', { username: 'ghost-name', password: 'wrong-password' }, from())).status).toBe(403);
    expect((await forum.client().post('/login', { username: 'Ghost-Name', password: 'wrong-password' }, from())).status).toBe(429);
    expect((await forum.client().post('/login', { username: 'other-ghost', password: 'wrong-password' }, from())).status).toBe(403);
  });
});
