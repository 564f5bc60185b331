import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardLoginsPage, DashboardPage, DashboardSearchesPage, DashboardTopicsPage, DashboardUsersPage } from '../../../shared/schemas/dashboard.js';
import { CACHE_OFF, startTestForum, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import type { Viewer } from '../privileges/service.js';
import { makeCategory, postReply, postTopic } from '../topics/testing.js';
import { addCounts, HOUR_MS } from './store.js';

let forum: TestForum;
let admin: HttpClient;
let adminViewer: Viewer;
let cid: number;

/** A metric's count in the database (after a flush), over all hours. */
async function stored(metric: string): Promise<number> {
  const rows = await forum.ctx.db.selectFrom('analytics_counts').select('count').where('metric', '=', metric).execute();
  return rows.reduce((n, r) => n + Number(r.count), 0);
}

/** Flushes, then the stored count of each metric. */
async function counts(...metrics: string[]): Promise<number[]> {
  await forum.ctx.hooks.idle();
  await forum.ctx.analytics.flush();
  return Promise.all(metrics.map(stored));
}

beforeAll(async () => {
  // The guest page cache is on (as in production): a guest's repeated page is a cache hit and still counts.
  forum = await startTestForum({ env: { PALAVER_GUEST_CACHE_MS: '60000' } });
  ({ client: admin, viewer: adminViewer } = await forum.member({ admin: true }));
  cid = await makeCategory(forum.ctx, 'Counted');
});
afterAll(async () => {
  await forum.close();
});

describe('counters', () => {
  it('counts page views of guests (cache hits included) and members without a write per request, then flushes them', async () => {
    const [guests0, members0, all0] = await counts('pageviews:guest', 'pageviews:registered', 'pageviews');
    const guest = forum.client();
    const first = await guest.get('/recent');
    const second = await guest.get('/recent');
    expect(first.status).toBe(200);
    if (!CACHE_OFF) expect(second.headers.get('x-palaver-cache')).toBe('hit');
    expect((await guest.get('/api/recent')).status).toBe(200);
    const { client: member } = await forum.loginAs();
    expect((await member.get('/api/recent')).status).toBe(200);
    // Counted in memory: nothing written yet.
    expect(forum.ctx.analytics.unflushed('pageviews:guest')).toBe(3);
    expect(await stored('pageviews:guest')).toBe(guests0);
    // A 404 is not a page view.
    expect((await guest.get('/api/topic/999999')).status).toBe(404);
    const [guests, members, all] = await counts('pageviews:guest', 'pageviews:registered', 'pageviews');
    expect(guests - guests0).toBe(3);
    expect(members - members0).toBe(1);
    expect(all - all0).toBe(4);
    expect(forum.ctx.analytics.unflushed('pageviews')).toBe(0);
  });

  it('counts registrations, logins, topics, posts and searches from real requests and actions', async () => {
    const [reg0, logins0, topics0, posts0, searches0] = await counts('registrations', 'logins', 'topics', 'posts', 'searches');
    const { client } = await forum.loginAs();
    const topic = await postTopic(client, cid);
    await postReply(client, topic.tid);
    expect((await forum.client().get('/api/search?term=content')).status).toBe(200);
    const [reg, logins, topics, posts, searches] = await counts('registrations', 'logins', 'topics', 'posts', 'searches');
    expect(reg - reg0).toBe(1);
    expect(logins - logins0).toBe(1);
    expect(topics - topics0).toBe(1);
    expect(posts - posts0).toBe(2);
    expect(searches - searches0).toBe(1);
  });

  it('writes the counts on its own within a few seconds (the batch timer)', async () => {
    const [before] = await counts('pageviews:guest');
    expect((await forum.client().get('/api/categories')).status).toBe(200);
    expect(forum.ctx.analytics.unflushed('pageviews:guest')).toBe(1);
    await expect.poll(() => stored('pageviews:guest'), { timeout: 9000, interval: 250 }).toBe(before + 1);
    expect(forum.ctx.analytics.unflushed('pageviews:guest')).toBe(0);
  });

  it('adds counts of several processes together (additive upserts into the same hour)', async () => {
    const hour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 5 * HOUR_MS;
    await forum.ctx.actions.run('test.counts', (w) => addCounts(w, [{ metric: 'test:additive', hour, count: 2 }]));
    await forum.ctx.actions.run('test.counts', (w) => addCounts(w, [{ metric: 'test:additive', hour, count: 3 }]));
    expect(await stored('test:additive')).toBe(5);
    await forum.ctx.db.deleteFrom('analytics_counts').where('metric', '=', 'test:additive').execute();
  });
});

describe('reading the counters', () => {
  // One moment for every count and read: an hour that ends during the test changes nothing.
  const now = Date.now();
  /** Searches today, as the dashboard's stats row and its hourly graph give them. */
  async function searchesNow(): Promise<[number, number]> {
    const [stats, hours] = await Promise.all([forum.ctx.analytics.stats(adminViewer, now), forum.ctx.analytics.graph(adminViewer, 'hour', now)]);
    return [stats.find((s) => s.set === 'searches')!.today, hours.series.searches.at(-1)!];
  }

  it("never writes, and shows this process's counts at once and once only, across flushes under way", async () => {
    const analytics = forum.ctx.analytics;
    await counts();
    const [today0, hour0] = await searchesNow();
    const [stored0] = await counts('searches');

    analytics.increment('searches', 3, now);
    expect(await searchesNow()).toEqual([today0 + 3, hour0 + 3]);
    // The read wrote nothing, and a whole dashboard read does not either.
    expect(analytics.unflushed('searches')).toBe(3);
    expect((await admin.get('/api/admin')).status).toBe(200);
    expect(analytics.unflushed('searches')).toBe(3);
    expect(analytics.unflushed('pageviews')).toBeGreaterThan(0);

    // Written after the shared read was taken: counted from the batch, not twice.
    await analytics.flush();
    expect(await stored('searches')).toBe(stored0 + 3);
    expect(await searchesNow()).toEqual([today0 + 3, hour0 + 3]);

    // Reads while a batch is being written.
    analytics.increment('searches', 2, now);
    const [, during] = await Promise.all([analytics.flush(), searchesNow()]);
    expect(during).toEqual([today0 + 5, hour0 + 5]);

    // More writes than the batches kept, each read while one is under way: the shared read is
    // taken again when the batches it lacks are gone, and every read is still exact.
    for (let i = 1; i <= 20; i++) {
      analytics.increment('searches', 1, now);
      const [read] = await Promise.all([searchesNow(), analytics.flush()]);
      expect(read).toEqual([today0 + 5 + i, hour0 + 5 + i]);
    }
    await analytics.flush();
    expect(await stored('searches')).toBe(stored0 + 25);
  });

  it("shows another process's written counts within a few seconds", async () => {
    const [today0] = await searchesNow();
    await forum.ctx.actions.run('test.counts', (w) => addCounts(w, [{ metric: 'searches', hour: Math.floor(now / HOUR_MS) * HOUR_MS, count: 7 }]));
    await expect.poll(async () => (await searchesNow())[0], { timeout: 9000, interval: 250 }).toBe(today0 + 7);
  });
});

describe('dashboard pages', () => {
  it('gives an admin the stats, graphs per period, online counts, top topics and the system panel', async () => {
    const topic = await postTopic(admin, cid, { title: 'The busiest topic of all' });
    await postReply(admin, topic.tid);
    await postReply(admin, topic.tid);
    const res = await admin.get<DashboardPage>('/api/admin');
    expect(res.status).toBe(200);
    const page = res.body;
    expect(page.template.name).toBe('admin/dashboard');
    const topics = page.stats.find((s) => s.set === 'topics')!;
    expect(topics.today).toBeGreaterThanOrEqual(1);
    expect(topics.alltime).toBeGreaterThanOrEqual(topics.today);
    expect(topics.href).toBe('admin/dashboard/topics');
    expect(page.graph.period).toBe('day');
    expect(page.graph.labels).toHaveLength(30);
    expect(page.graph.series.posts.at(-1)).toBeGreaterThanOrEqual(3);
    expect(page.topTopics[0]?.tid).toBe(topic.tid);
    expect(page.system.database).toBe(forum.ctx.dialect);
    expect(page.system.databaseSize).toBeGreaterThan(0);
    expect(page.system.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(page.system.node).toBe(process.version);
    expect(page.online).toEqual({ members: expect.any(Number), guests: expect.any(Number) });

    const hours = (await admin.get<DashboardPage>('/api/admin?period=hour')).body.graph;
    expect(hours.labels).toHaveLength(24);
    expect(hours.labels[23]! - hours.labels[22]!).toBe(HOUR_MS);
    expect(hours.series.topics.at(-1)).toBeGreaterThanOrEqual(1);
    const months = (await admin.get<DashboardPage>('/api/admin?period=month')).body.graph;
    expect(months.labels).toHaveLength(12);
    expect(months.series.posts.at(-1)).toBe(page.graph.series.posts.reduce((a, b) => a + b, 0) - sumBeforeThisMonth(page));

    // The HTML page renders for an admin too.
    expect((await admin.get('/admin')).status).toBe(200);
  });

  it('has detail pages: logins, newest members, newest topics, searches', async () => {
    const { user } = await forum.loginAs();
    const logins = (await admin.get<DashboardLoginsPage>('/api/admin/dashboard/logins')).body;
    expect(logins.set).toBe('logins');
    expect(logins.sessions.some((s) => s.user.uid === user.uid)).toBe(true);
    expect(logins.summary.day).toBeGreaterThanOrEqual(1);
    const users = (await admin.get<DashboardUsersPage>('/api/admin/dashboard/users')).body;
    expect(users.users[0]?.uid).toBe(user.uid);
    const topic = await postTopic(admin, cid, { title: 'The newest topic of all' });
    const topics = (await admin.get<DashboardTopicsPage>('/api/admin/dashboard/topics')).body;
    expect(topics.topics[0]?.tid).toBe(topic.tid);
    await forum.client().get('/api/search?term=newest');
    await forum.ctx.search.flush();
    const searches = (await admin.get<DashboardSearchesPage>('/api/admin/dashboard/searches')).body;
    expect(searches.searchesPerDay[0]?.count).toBeGreaterThanOrEqual(1);
    expect(searches.graph.series.searches.at(-1)).toBeGreaterThanOrEqual(1);
  });

  it('answers 401 to a guest and 403 to a member, on every dashboard page and the analytics routes', async () => {
    const { client: member } = await forum.loginAs();
    const guest = forum.client();
    for (const path of ['/api/admin', '/api/admin/dashboard/logins', '/api/admin/dashboard/users', '/api/admin/dashboard/topics', '/api/admin/dashboard/searches', '/api/admin/analytics', '/api/v3/admin/analytics', '/api/v3/admin/analytics/pageviews']) {
      expect((await guest.get(path)).status, path).toBe(401);
      expect((await member.get(path)).status, path).toBe(403);
    }
  });
});

/** The posts of the 30-day graph that fall before this UTC month. */
function sumBeforeThisMonth(page: DashboardPage): number {
  const d = new Date();
  const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  return page.graph.labels.reduce((n, l, i) => (l < monthStart ? n + page.graph.series.posts[i]! : n), 0);
}

describe('analytics route (NodeBB /api/admin/analytics)', () => {
  it('returns count buckets of hours or days for every metric', async () => {
    const hours = await admin.get('/api/admin/analytics?units=hours&count=5');
    expect(hours.status).toBe(200);
    expect(hours.body.result.pageviews).toHaveLength(5);
    expect(hours.body.result.posts.at(-1)).toBeGreaterThanOrEqual(1);
    const days = await admin.get(`/api/admin/analytics?units=days&count=3&until=${Date.now()}`);
    expect(days.body.result['pageviews:guest']).toHaveLength(3);
    expect(days.body.result.topics.at(-1)).toBeGreaterThanOrEqual(1);
    const past = await admin.get(`/api/admin/analytics?units=days&count=3&until=${Date.now() - 10 * 24 * HOUR_MS}`);
    expect(past.body.result.topics).toEqual([0, 0, 0]);
    const dflt = await admin.get('/api/admin/analytics');
    expect(dflt.body.result.logins).toHaveLength(24);
    const keys = await admin.get('/api/v3/admin/analytics');
    expect(keys.body.response.keys).toContain('pageviews:registered');
    const set = await admin.get('/api/v3/admin/analytics/topics?units=days&count=2');
    expect(set.body.response).toHaveLength(2);
  });

  it('refuses bad units, count and until with a 400 naming the field', async () => {
    for (const [qs, field] of [
      ['units=weeks', 'querystring/units'],
      ['count=0', 'querystring/count'],
      ['count=100000', 'querystring/count'],
      ['count=abc', 'querystring/count'],
      ['until=-5', 'querystring/until'],
    ] as const) {
      const res = await admin.get(`/api/admin/analytics?${qs}`);
      expect(res.status, qs).toBe(400);
      expect(res.body.status.key).toBe('error:invalid-data');
      expect(res.body.status.params).toEqual([field]);
    }
    expect((await admin.get('/api/v3/admin/analytics/nothing')).status).toBe(400);
  });
});
