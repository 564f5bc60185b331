import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PushMessage } from '../../../shared/schemas/push.js';
import type { NotificationRow } from '../../hooks/types.js';
import { SYSTEM } from '../../setup.js';
import { startTestForum, type TestForum, type TestMember } from '../../test/harness.js';
import { endpointId, pushTag, RETRY_JOB } from './service.js';
import { TestBrowser, TestPushService } from './test-push.js';

const BASE = '/api/v3/plugins/web-push';
const HOUR = 3600_000;

type Member = TestMember;
// Pushes go to a push service on a loopback HTTP port, encrypted for a browser's keys that the
// test made as a browser would (P-256 pair, auth secret); the test decrypts them with http_ece.
describe('web push', () => {
  let forum: TestForum;
  let service: TestPushService;
  let cid: number;
  let n = 0;

  const member = (opts: { admin?: boolean } = {}): Promise<Member> => forum.member(opts);

  /** Subscribes a new test browser of `m` at a fresh endpoint name. */
  async function subscribe(m: Member): Promise<{ browser: TestBrowser; name: string; id: number }> {
    const browser = new TestBrowser();
    const name = `b${++n}`;
    const res = await m.client.post(
      `${BASE}/subscription`,
      { subscription: browser.subscription(service.endpoint(name)) },
      { headers: { 'user-agent': `TestBrowser/${n}` } },
    );
    expect(res.status, res.text).toBe(200);
    return { browser, name, id: res.body.response.id as number };
  }

  /** Runs the listeners and the due jobs (the push jobs among them); returns the time used. */
  async function runJobs(): Promise<number> {
    await forum.ctx.hooks.idle();
    const now = Date.now();
    await forum.ctx.jobs.runDue(now);
    return now;
  }

  /** A topic of `author`. */
  async function topicOf(author: Member, title = `Topic ${++n}`) {
    return (await forum.ctx.topics.create(author.viewer, { cid, title, content: 'The first post of a topic' })).topic;
  }

  /** `from` replies in the topic; the notifications domain tells its followers (push included, by their preferences), the jobs run. */
  async function reply(from: Member, tid: number): Promise<number> {
    const res = await from.client.post(`/api/v3/topics/${tid}`, { content: 'A reply that is long enough.' });
    expect(res.status, res.text).toBe(200);
    return runJobs();
  }

  /** The newest stored notification of a member. */
  async function newest(m: Member): Promise<NotificationRow> {
    const { rows } = await forum.ctx.notifications.list(m.viewer, { page: 1, perPage: 1 });
    return rows[0]!;
  }

  const subscriptions = (uid: number) => forum.ctx.db.selectFrom('push_subscriptions').selectAll().where('uid', '=', uid).execute();

  beforeAll(async () => {
    service = await new TestPushService().start();
    forum = await startTestForum();
    cid = (await forum.ctx.categories.create(SYSTEM, { name: 'Push' })).cid;
  });
  afterAll(async () => {
    await forum?.close();
    await service?.stop();
  });
  beforeEach(() => {
    service.received = [];
    service.status = 201;
  });

  it('makes one VAPID key pair, keeps it in the database and gives out only the public key', async () => {
    // Made at setup, before any browser asks for it.
    expect(await forum.ctx.db.selectFrom('push_vapid').selectAll().execute()).toHaveLength(1);
    const guest = forum.client();
    const a = await guest.get(`${BASE}/vapid`);
    const b = await guest.get(`${BASE}/vapid`);
    expect(a.status).toBe(200);
    const key = a.body.response.publicKey as string;
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    expect(b.body.response.publicKey).toBe(key);
    const rows = await forum.ctx.db.selectFrom('push_vapid').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.public_key).toBe(key);
    expect(a.text).not.toContain(rows[0]!.private_key);
  });

  it('pushes a reply to the topic author\u2019s browser: encrypted for its keys, the text in the reader\u2019s language, the absolute url', async () => {
    const [alice, bob] = [await member(), await member()];
    const { browser, name } = await subscribe(alice);
    const topic = await topicOf(alice, 'Push & <pull> day');
    await reply(bob, topic.tid);
    const got = service.to(name);
    expect(got).toHaveLength(1);
    const [first] = got;
    expect(first!.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(first!.headers.ttl)).toBeGreaterThan(0);
    const row = await newest(alice);
    expect(first!.headers.topic).toBe(pushTag(row.merge_key));
    // Signed with the forum's VAPID key (RFC 8292): the public key travels in the header.
    const publicKey = (await forum.client().get(`${BASE}/vapid`)).body.response.publicKey as string;
    expect(first!.headers.authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${publicKey}$`));
    // The body is unreadable without the browser's private key, and readable with it.
    expect(first!.body.toString('utf8')).not.toContain(bob.user.username);
    expect(browser.decrypt(first!.body)).toEqual({
      title: 'Palaver',
      body: `${bob.user.username} replied to Push & <pull> day`,
      url: `http://127.0.0.1${row.path}`,
      tag: pushTag(row.merge_key),
    } satisfies PushMessage);
    expect(row.path).toMatch(/^\/post\/\d+$/);
  });

  it('sends to every browser of each reader, and to the members the hook names', async () => {
    const [alice, carol, bob, dave] = [await member(), await member(), await member(), await member()];
    const topic = await topicOf(alice);
    expect((await carol.client.put(`/api/v3/topics/${topic.tid}/follow`)).status).toBe(200);
    const [a1, a2, c1, d1] = [await subscribe(alice), await subscribe(alice), await subscribe(carol), await subscribe(dave)];
    await reply(bob, topic.tid);
    for (const s of [a1, a2, c1]) {
      expect(service.to(s.name), s.name).toHaveLength(1);
      expect((s.browser.decrypt(service.to(s.name)[0]!.body) as PushMessage).body).toBe(`${bob.user.username} replied to ${topic.title}`);
    }
    expect(service.to(d1.name)).toEqual([]);
    // The push domain sends to whoever `action:notifications.push` names.
    const row = await newest(alice);
    await forum.ctx.hooks.fire('action:notifications.push', { uids: [dave.user.uid], notification: row });
    await runJobs();
    expect((d1.browser.decrypt(service.to(d1.name)[0]!.body) as PushMessage).url).toBe(`http://127.0.0.1${row.path}`);
  });

  it('drops a subscription whose push service answers 410 (and 404)', async () => {
    const [alice, bob] = [await member(), await member()];
    const gone = await subscribe(alice);
    const topic = await topicOf(alice);
    service.status = 410;
    await reply(bob, topic.tid);
    expect(service.to(gone.name)).toHaveLength(1);
    expect(await subscriptions(alice.user.uid)).toEqual([]);
    // No retry is left for a gone browser.
    const retries = await forum.ctx.db.selectFrom('jobs').selectAll().where('name', '=', RETRY_JOB).execute();
    expect(retries.filter((j) => (JSON.parse(j.payload) as { subscriptionId: number }).subscriptionId === gone.id)).toEqual([]);

    const missing = await subscribe(alice);
    service.status = 404;
    await reply(bob, topic.tid);
    expect(service.to(missing.name)).toHaveLength(1);
    expect(await subscriptions(alice.user.uid)).toEqual([]);
  });

  it('retries a failing push service with back-off, then delivers', async () => {
    const [alice, bob] = [await member(), await member()];
    const { browser, name, id } = await subscribe(alice);
    const topic = await topicOf(alice);
    service.status = 500;
    const now = await reply(bob, topic.tid);
    expect(service.to(name)).toHaveLength(1);
    const retryOf = async () =>
      (await forum.ctx.db.selectFrom('jobs').selectAll().where('name', '=', RETRY_JOB).execute()).find(
        (j) => (JSON.parse(j.payload) as { subscriptionId: number }).subscriptionId === id,
      );
    expect((await retryOf())?.state).toBe('queued');
    // The retry fails too: the job stays queued with its error and a later run time.
    await forum.ctx.jobs.runDue(now + 1000);
    expect(service.to(name)).toHaveLength(2);
    const failed = (await retryOf())!;
    expect(failed.state).toBe('queued');
    expect(failed.attempts).toBe(1);
    expect(failed.last_error).toContain('500');
    expect(Number(failed.run_at)).toBeGreaterThan(now + 1000);
    // The subscription is kept (only 404/410 drop it); the service recovers and the push arrives.
    expect(await subscriptions(alice.user.uid)).toHaveLength(1);
    service.status = 201;
    await forum.ctx.jobs.runDue(now + HOUR);
    expect(service.to(name)).toHaveLength(3);
    expect((browser.decrypt(service.to(name)[2]!.body) as PushMessage).body).toBe(`${bob.user.username} replied to ${topic.title}`);
    expect((await retryOf())!.state).toBe('done');
  });

  it('sends a test push to the member\u2019s own browsers, a few a minute', async () => {
    const alice = await member();
    expect((await alice.client.post(`${BASE}/test`)).body.response.devices).toBe(0);
    const { browser, name } = await subscribe(alice);
    const res = await alice.client.post(`${BASE}/test`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.response.devices).toBe(1);
    await runJobs();
    expect(browser.decrypt(service.to(name)[0]!.body)).toEqual({
      title: 'Palaver',
      body: 'Push notifications from Palaver reach this device.',
      url: `http://127.0.0.1/user/${alice.user.userslug}/web-push`,
      tag: 'test',
    });
    for (let i = 0; i < 3; i++) await alice.client.post(`${BASE}/test`);
    expect((await alice.client.post(`${BASE}/test`)).status).toBe(429);
    expect((await forum.client().post(`${BASE}/test`)).status).toBe(401);
  });

  it('lists the member\u2019s browsers on the account page, only to them and admins', async () => {
    const [alice, bob, admin] = [await member(), await member(), await member({ admin: true })];
    const { id, name } = await subscribe(alice);
    const page = await alice.client.get(`/api/user/${alice.user.userslug}/web-push`);
    expect(page.status, page.text).toBe(200);
    expect(page.body.template.name).toBe('account/web-push');
    expect(page.body.isSelf).toBe(true);
    expect(page.body.vapidKey).toMatch(/^[\w-]{80,}$/);
    expect(page.body.devices).toEqual([
      expect.objectContaining({
        id,
        userAgent: expect.stringContaining('TestBrowser/') as string,
        service: `127.0.0.1:${service.port}`,
        endpointId: endpointId(service.endpoint(name)),
      }),
    ]);
    // The endpoint itself (a capability of the browser) is not shown.
    expect(page.text).not.toContain(service.endpoint(name));
    expect((await bob.client.get(`/api/user/${alice.user.userslug}/web-push`)).status).toBe(403);
    expect((await forum.client().get(`/api/user/${alice.user.userslug}/web-push`)).status).toBe(401);
    expect((await alice.client.get('/api/user/nobody-here/web-push')).status).toBe(404);
    const asAdmin = await admin.client.get(`/api/user/${alice.user.userslug}/web-push`);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.isSelf).toBe(false);
    expect(asAdmin.body.devices).toHaveLength(1);
    // The HTML page renders too.
    const html = await alice.client.get(`/user/${alice.user.userslug}/web-push`);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toContain('text/html');
  });

  it('lets only the member (or an admin) remove a subscription', async () => {
    const [alice, bob, admin] = [await member(), await member(), await member({ admin: true })];
    const s1 = await subscribe(alice);
    const s2 = await subscribe(alice);
    const endpoint = service.endpoint(s1.name);
    // Another member: not found, by id or by endpoint; nothing is removed.
    expect((await bob.client.request('DELETE', `${BASE}/subscriptions/${s1.id}`)).status).toBe(404);
    const byEndpoint = await bob.client.request('DELETE', `${BASE}/subscription`, { endpoint });
    expect(byEndpoint.status).toBe(404);
    expect(byEndpoint.body.status.key).toBe('error:push-subscription-not-found');
    expect(await subscriptions(alice.user.uid)).toHaveLength(2);
    // The member turns push off in one browser (by endpoint); an admin removes the other.
    expect((await alice.client.request('DELETE', `${BASE}/subscription`, { endpoint })).status).toBe(200);
    expect((await admin.client.request('DELETE', `${BASE}/subscriptions/${s2.id}`)).status).toBe(200);
    expect(await subscriptions(alice.user.uid)).toEqual([]);
    expect((await alice.client.request('DELETE', `${BASE}/subscriptions/${s2.id}`)).status).toBe(404);
    expect((await alice.client.get(`${BASE}/subscriptions`)).body.response.devices).toEqual([]);
  });

  it('moves a browser to the member now logged in there, and keeps at most 20 per member', async () => {
    const [alice, bob] = [await member(), await member()];
    const browser = new TestBrowser();
    const endpoint = service.endpoint(`shared${++n}`);
    await alice.client.post(`${BASE}/subscription`, { subscription: browser.subscription(endpoint) });
    await bob.client.post(`${BASE}/subscription`, { subscription: browser.subscription(endpoint) });
    expect(await subscriptions(alice.user.uid)).toEqual([]);
    expect(await subscriptions(bob.user.uid)).toHaveLength(1);
    for (let i = 0; i < 21; i++) await subscribe(alice);
    expect(await subscriptions(alice.user.uid)).toHaveLength(20);
  });

  it('checks the endpoint again when it sends: a host the forum may not reach gets nothing, and the subscription goes', async () => {
    const [author, reader] = [await member(), await member()];
    const { id, name } = await subscribe(author);
    const topic = await topicOf(author);
    // Saved while loopback was allowed; by the time the push goes out it is not (as a name that now resolves elsewhere).
    const allowed = [...forum.ctx.outgoing.allowed];
    forum.ctx.outgoing.allowed.clear();
    try {
      await reply(reader, topic.tid);
    } finally {
      for (const h of allowed) forum.ctx.outgoing.allowed.add(h);
    }
    expect(service.to(name)).toEqual([]);
    expect((await subscriptions(author.user.uid)).map((s) => s.id)).not.toContain(id);
  });

  it('refuses bad subscriptions with 400 and a key, guests with 401, and writes without CSRF', async () => {
    const alice = await member();
    const browser = new TestBrowser();
    const post = (body: unknown) => alice.client.post(`${BASE}/subscription`, body);
    const keys = browser.subscription('x').keys;
    const cases: [unknown, string][] = [
      [{ subscription: { endpoint: 'http://push.example.com/abc', keys } }, 'push-endpoint-invalid'],
      [{ subscription: { endpoint: 'https://10.1.2.3/abc', keys } }, 'push-endpoint-invalid'],
      [{ subscription: { endpoint: 'https://[::ffff:192.168.0.1]/abc', keys } }, 'push-endpoint-invalid'],
      [{ subscription: { endpoint: 'https://intranet/abc', keys } }, 'push-endpoint-invalid'],
      [{ subscription: { endpoint: 'https://user:pw@push.example.com/abc', keys } }, 'push-endpoint-invalid'],
      [{ subscription: { endpoint: 'file:///etc/passwd', keys } }, 'push-endpoint-invalid'],
      [{ subscription: { endpoint: 'not a url', keys } }, 'push-endpoint-invalid'],
      [{ subscription: { endpoint: 'https://push.example.com/abc', keys: { ...keys, p256dh: 'AAAA' } } }, 'push-keys-invalid'],
      [{ subscription: { endpoint: 'https://push.example.com/abc', keys: { ...keys, auth: 'bad key!' } } }, 'push-keys-invalid'],
      [{ subscription: { endpoint: `https://push.example.com/${'a'.repeat(2100)}`, keys } }, 'invalid-data'],
      [{ subscription: { endpoint: 'https://push.example.com/abc' } }, 'invalid-data'],
      [{ subscription: { endpoint: 'https://push.example.com/abc', keys: { p256dh: 1, auth: [] } } }, 'invalid-data'],
      [{}, 'invalid-data'],
    ];
    for (const [body, key] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(res.body.status.key).toBe(`error:${key}`);
    }
    expect((await alice.client.request('DELETE', `${BASE}/subscriptions/0`)).status).toBe(400);
    expect((await alice.client.request('DELETE', `${BASE}/subscriptions/abc`)).status).toBe(400);
    // A public https push service is accepted.
    expect((await post({ subscription: { endpoint: 'https://push.example.com/abc', keys } })).status).toBe(200);
    // Loopback endpoints only where the configuration allows them (tests: PALAVER_OUTGOING_ALLOW); a production forum refuses
    // them, whatever form the address takes and whatever name resolves to it.
    const allowed = [...forum.ctx.outgoing.allowed];
    forum.ctx.outgoing.allowed.clear();
    try {
      const port = new URL(service.endpoint('nope')).port;
      for (const endpoint of [
        service.endpoint('nope'),
        `https://localhost/abc`,
        `https://localhost:${port}/push/nope`,
        'https://[::ffff:127.0.0.1]/abc',
        'https://0x7f.1/abc',
        'https://2130706433/abc',
        'https://[::1]/abc',
        'https://[fd12::1]/abc',
        'https://169.254.169.254/abc',
        'https://0.0.0.0/abc',
        'https://224.0.0.1/abc',
      ]) {
        expect((await post({ subscription: browser.subscription(endpoint) })).body.status.key, endpoint).toBe('error:push-endpoint-invalid');
      }
    } finally {
      for (const h of allowed) forum.ctx.outgoing.allowed.add(h);
    }
    const guest = forum.client();
    expect((await guest.post(`${BASE}/subscription`, { subscription: browser.subscription(service.endpoint('g')) })).status).toBe(401);
    expect((await guest.get(`${BASE}/subscriptions`)).status).toBe(401);
    const noCsrf = await alice.client.post(`${BASE}/subscription`, { subscription: browser.subscription(service.endpoint('c')) }, { csrf: false });
    expect(noCsrf.status).toBe(403);
  });
});
