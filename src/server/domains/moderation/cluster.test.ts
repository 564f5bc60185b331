import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import { startSecondProcess, startTestForum, TEST_PASSWORD, type TestForum, type TestMember } from '../../test/harness.js';
import { HttpClient } from '../../test/http-client.js';
import { connectLive, nextEvent } from '../../test/live-client.js';
import { makeCategory } from '../topics/testing.js';

/**
 * Two app instances on one PostgreSQL database and one Redis: a ban made through one reaches
 * the member's socket on the other, and a blacklist saved through one applies in the other at
 * once (its cached rules are dropped through the shared cache channel).
 */
const shared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
if (!shared) console.warn('moderation cluster.test.ts skipped: set DATABASE_URL (PostgreSQL) and REDIS_URL.');

describe.runIf(shared)('moderation across two processes', () => {
  let forum: TestForum;
  let second: App;
  let secondUrl: string;
  let admin: TestMember;
  let cid: number;

  beforeAll(async () => {
    forum = await startTestForum({ env: { PALAVER_TRUST_PROXY: 'true' } });
    cid = await makeCategory(forum.ctx, 'Cluster');
    admin = await forum.member({ admin: true });
    const other = await startSecondProcess(forum);
    second = other.app;
    secondUrl = other.url;
  });
  afterAll(async () => {
    await second?.close();
    await forum?.close();
  });

  /** A member logged in through the second process. */
  async function memberOnSecond() {
    const user = await forum.createUser();
    const client = new HttpClient(secondUrl);
    expect((await client.post('/login', { username: user.username, password: TEST_PASSWORD })).status).toBe(200);
    return { user, client };
  }

  it('a ban through one process shows event:banned on the other and closes the socket', async () => {
    const m = await memberOnSecond();
    const socket = await connectLive(m.client);
    try {
      const banned = nextEvent(socket, 'event:banned');
      const closed = nextEvent<string>(socket, 'disconnect');
      expect((await admin.client.put(`/api/v3/users/${m.user.uid}/ban`, { reason: 'Cluster spam' })).status).toBe(200);
      expect(await banned).toEqual({ reason: 'Cluster spam' });
      expect(await closed).toBe('io server disconnect');
      // The session ended in every process: the member's own settings page asks for a login.
      expect((await m.client.get(`/api/user/${m.user.userslug}/settings`)).status).toBe(401);
    } finally {
      socket.disconnect();
    }
  });

  it('a mute through one process refuses posts in the other', async () => {
    const m = await memberOnSecond();
    expect((await admin.client.put(`/api/v3/users/${m.user.uid}/mute`, { until: Date.now() + 7_200_000, reason: 'cool off' })).status).toBe(200);
    const res = await m.client.post('/api/v3/topics', { cid, title: 'Muted elsewhere title', content: 'Written while muted.' });
    expect(res.body.status.key).toBe('error:user-muted-for-hours');
  });

  it('a blacklist saved through one process applies in the other at once', async () => {
    const m = await memberOnSecond();
    const at = { headers: { 'x-forwarded-for': '198.18.0.9' } };
    // The second process reads (and caches) the empty blacklist first.
    expect((await m.client.post('/api/v3/topics', { cid, title: 'Before the rule title', content: 'Allowed before the rule.' }, at)).status).toBe(200);
    expect((await admin.client.put('/api/v3/ip-blacklist', { rules: '198.18.0.0/15' })).status).toBe(200);
    let status = 0;
    // The clear travels through Redis pub/sub: wait for it, not for the cache's TTL (30 s).
    for (let i = 0; i < 50 && status !== 403; i++) {
      status = (await m.client.post('/api/v3/topics', { cid, title: 'After the rule title', content: 'Refused after the rule.' }, at)).status;
      if (status !== 403) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(403);
  });
});
