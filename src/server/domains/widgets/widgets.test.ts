import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { App } from '../../app.js';
import { CACHE_OFF, startSecondProcess } from '../../test/harness.js';
import { HttpClient } from '../../test/http-client.js';
import { makeCategory, postTopic } from '../topics/testing.js';
import { parseCsv } from '../../test/csv.js';
import { LogRing, LOG_LINES } from '../admin/advanced-logs.js';
import { useForum } from '../../test/forum-kit.js';

const kit = useForum({ category: 'Widget News', members: ['member'] });

type Areas = Record<string, { html: string }[]>;

describe('widgets', () => {
  it('a widget placed in the sidebar of categories renders on /categories (data and HTML), not on other templates or admin pages', async () => {
    const res = await kit.admin.client.put('/api/v3/admin/widgets', {
      template: 'categories',
      areas: { sidebar: [{ type: 'text', title: 'Welcome box', text: 'Hello **readers**' }] },
    });
    expect(res.status).toBe(200);
    const page = await kit.forum.client().get<{ widgets: Areas }>('/api/categories');
    expect(page.body.widgets.sidebar).toHaveLength(1);
    expect(page.body.widgets.sidebar![0]!.html).toContain('<strong>readers</strong>');
    expect(page.body.widgets.sidebar![0]!.html).toContain('Welcome box');
    const html = await kit.forum.client().get<string>('/categories');
    expect(html.text).toContain('Welcome box');
    expect((await kit.forum.client().get<{ widgets: Areas }>('/api/recent')).body.widgets.sidebar).toHaveLength(0);
    const adminPage = await kit.admin.client.get<{ widgets: Areas }>('/api/admin/advanced/cache');
    expect(adminPage.status).toBe(200);
    expect(adminPage.body.widgets.sidebar).toHaveLength(0);
    const widgetsAdmin = await kit.admin.client.get<{ widgets: Areas; templates: { template: string; areas: { location: string; data: unknown[] }[] }[] }>(
      '/api/admin/extend/widgets',
    );
    expect(widgetsAdmin.body.widgets.sidebar).toHaveLength(0);
    expect(widgetsAdmin.body.templates.find((t) => t.template === 'categories')!.areas.find((a) => a.location === 'sidebar')!.data).toHaveLength(1);
  });

  it('an empty text or HTML widget renders nothing (no empty card); one with only an image still shows', async () => {
    const res = await kit.admin.client.put('/api/v3/admin/widgets', {
      template: 'tags',
      areas: {
        sidebar: [
          { type: 'text', title: 'Empty notes', text: '' },
          { type: 'text', title: 'Blank notes', text: '   \n\n  ' },
          { type: 'html', title: 'Stripped', text: '<script>alert(1)</script><p> </p>' },
          { type: 'html', title: 'Picture', text: '<img src="/assets/logo.png" alt="Logo">' },
        ],
      },
    });
    expect(res.status).toBe(200);
    const html = (await kit.forum.client().get<{ widgets: Areas }>('/api/tags')).body.widgets.sidebar!.map((w) => w.html);
    expect(html).toHaveLength(1);
    expect(html[0]).toContain('Picture');
    await kit.admin.client.put('/api/v3/admin/widgets', { template: 'tags', areas: { sidebar: [] } });
  });

  it('global widgets show on every public template; the cache clears on change', async () => {
    await kit.admin.client.put('/api/v3/admin/widgets', { template: 'global', areas: { footer: [{ type: 'search', title: 'Find' }] } });
    const first = await kit.forum.client().get<{ widgets: Areas }>('/api/recent');
    expect(first.body.widgets.footer![0]!.html).toContain('action="/search"');
    expect(first.body.widgets.footer![0]!.html).toContain('name="term"');
    expect(first.body.widgets.footer![0]!.html).toContain('placeholder="Search"');
    // The search box speaks the reader's language (a German browser; a member who chose Greek).
    const german = await kit.forum.client().get<{ widgets: Areas }>('/api/recent', { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    expect(german.body.widgets.footer![0]!.html).toContain('placeholder="Suche"');
    expect((await kit.member.client.put(`/api/v3/users/${kit.member.user.uid}/settings`, { settings: { userLang: 'el' } })).status).toBe(200);
    expect((await kit.member.client.get<{ widgets: Areas }>('/api/recent')).body.widgets.footer![0]!.html).toContain('placeholder="Αναζήτηση"');
    expect((await kit.member.client.put(`/api/v3/users/${kit.member.user.uid}/settings`, { settings: { userLang: '' } })).status).toBe(200);
    await kit.admin.client.put('/api/v3/admin/widgets', { template: 'global', areas: { footer: [] } });
    expect((await kit.forum.client().get<{ widgets: Areas }>('/api/recent')).body.widgets.footer).toHaveLength(0);
  });

  it('sanitises HTML widgets with the posts sanitiser', async () => {
    const res = await kit.admin.client.put('/api/v3/admin/widgets', {
      template: 'recent',
      areas: {
        header: [
          {
            type: 'html',
            container: 'none',
            text: '<p onclick="x()">Hi <script>alert(1)</script><a href="javascript:alert(1)">bad</a><img src="x" onerror="y()"></p>',
          },
        ],
      },
    });
    expect(res.status).toBe(200);
    const html = (await kit.forum.client().get<{ widgets: Areas }>('/api/recent')).body.widgets.header![0]!.html;
    expect(html).toContain('Hi');
    expect(html).not.toMatch(/script|onclick|onerror|javascript:/);
  });

  it('shows a widget only to the groups it names', async () => {
    await kit.admin.client.put('/api/v3/admin/widgets', {
      template: 'tags',
      areas: { sidebar: [{ type: 'html', text: '<p>Members only</p>', groups: ['registered-users'] }] },
    });
    expect((await kit.forum.client().get<{ widgets: Areas }>('/api/tags')).body.widgets.sidebar).toHaveLength(0);
    expect((await kit.member.client.get<{ widgets: Areas }>('/api/tags')).body.widgets.sidebar![0]!.html).toContain('Members only');
  });

  it('data widgets respect read privileges (rendered per group set)', async () => {
    const hidden = await makeCategory(kit.forum.ctx, 'Staff Room');
    await kit.forum.ctx.privileges.take(hidden, ['topics:read', 'read', 'find'], 'guests');
    await postTopic(kit.admin.client, kit.cid, { title: 'Public widget topic' });
    await postTopic(kit.admin.client, hidden, { title: 'Secret staff topic' });
    await kit.admin.client.put('/api/v3/admin/widgets', {
      template: 'popular',
      areas: {
        sidebar: [
          { type: 'recenttopics', title: 'Latest', count: 5 },
          { type: 'categories', title: 'Cats' },
        ],
      },
    });
    const page = (await kit.forum.client().get<{ widgets: Areas }>('/api/popular')).body.widgets.sidebar!;
    expect(page[0]!.html).toContain('Public widget topic');
    expect(page[1]!.html).toContain('Widget News');
    expect(page[0]!.html).not.toContain('Secret staff topic');
    expect(page[1]!.html).not.toContain('Staff Room');
    const asMember = (await kit.member.client.get<{ widgets: Areas }>('/api/popular')).body.widgets.sidebar!;
    expect(asMember[0]!.html).toContain('Secret staff topic');
  });

  it('refuses a bad template with its field, and a member or guest', async () => {
    const bad = await kit.admin.client.put<{ status: { key?: string; params?: string[] } }>('/api/v3/admin/widgets', { template: 'nope', areas: {} });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('template');
    const badType = await kit.admin.client.put('/api/v3/admin/widgets', { template: 'recent', areas: { header: [{ type: 'evil' }] } });
    expect(badType.status).toBe(400);
    expect((await kit.member.client.put('/api/v3/admin/widgets', { template: 'recent', areas: {} })).status).toBe(403);
    expect((await kit.forum.client().put('/api/v3/admin/widgets', { template: 'recent', areas: {} })).status).toBe(401);
    expect((await kit.member.client.get('/api/admin/extend/widgets')).status).toBe(403);
    expect((await kit.forum.client().get('/api/admin/extend/widgets')).status).toBe(401);
  });

  it('deletes a widget', async () => {
    const saved = await kit.admin.client.put<{ response: { widgets: { id: number }[] } }>('/api/v3/admin/widgets', {
      template: 'users',
      areas: { footer: [{ type: 'html', text: '<p>Bye</p>' }] },
    });
    const id = saved.body.response.widgets[0]!.id;
    expect((await kit.forum.client().get<{ widgets: Areas }>('/api/users')).body.widgets.footer).toHaveLength(1);
    expect((await kit.member.client.del(`/api/v3/admin/widgets/${id}`)).status).toBe(403);
    expect((await kit.admin.client.del(`/api/v3/admin/widgets/${id}`)).status).toBe(200);
    expect((await kit.forum.client().get<{ widgets: Areas }>('/api/users')).body.widgets.footer).toHaveLength(0);
    expect((await kit.admin.client.del(`/api/v3/admin/widgets/${id}`)).status).toBe(404);
  });
});

describe('advanced pages', () => {
  for (const path of [
    '/api/admin/advanced/cache',
    '/api/admin/advanced/errors',
    '/api/admin/advanced/logs',
    '/api/admin/advanced/database',
    '/api/admin/advanced/events',
  ]) {
    it(`${path}: admin 200, member 403, guest 401`, async () => {
      expect((await kit.admin.client.get(path)).status).toBe(200);
      expect((await kit.member.client.get(path)).status).toBe(403);
      expect((await kit.forum.client().get(path)).status).toBe(401);
    });
  }

  it.skipIf(CACHE_OFF)('cache page lists sizes and hit rates; clearing one empties it', async () => {
    await kit.forum.client().get('/api/categories');
    await kit.forum.client().get('/api/categories');
    const before = (await kit.admin.client.get<{ caches: { name: string; length: number; hits: number; misses: number }[] }>('/api/admin/advanced/cache')).body
      .caches;
    const widgets = before.find((c) => c.name === 'widgets')!;
    expect(widgets.length).toBeGreaterThan(0);
    expect(widgets.hits + widgets.misses).toBeGreaterThan(0);
    expect(before.find((c) => c.name === 'settings')!.hits).toBeGreaterThan(0);
    expect(before.find((c) => c.name === 'privileges')!.hits + before.find((c) => c.name === 'privileges')!.misses).toBeGreaterThan(0);
    expect((await kit.member.client.del('/api/v3/admin/cache/widgets')).status).toBe(403);
    expect((await kit.admin.client.del('/api/v3/admin/cache/widgets')).status).toBe(200);
    expect(kit.forum.ctx.cacheRegistry.byName('widgets')!.size).toBe(0);
    expect((await kit.admin.client.del('/api/v3/admin/cache/nothing')).status).toBe(400);
  });

  it('counts 404s, flushes them to the table and exports them as CSV', async () => {
    await kit.forum.client().get('/no/such/page-xyz');
    await kit.forum.client().get('/no/such/page-xyz?x=1');
    const page = await kit.admin.client.get<{ 'not-found': { value: string; score: number }[] }>('/api/admin/advanced/errors');
    const entry = page.body['not-found'].find((e) => e.value === '/no/such/page-xyz');
    expect(entry?.score).toBe(2);
    const csv = await kit.admin.client.get<string>('/api/admin/advanced/errors/export');
    expect(csv.status).toBe(200);
    const rows = parseCsv(csv.text);
    expect(rows[0]).toEqual(['status', 'path', 'count', 'lastSeen']);
    expect(rows.find((r) => r[1] === '/no/such/page-xyz')!.slice(0, 3)).toEqual(['404', '/no/such/page-xyz', '2']);
    expect((await kit.member.client.get('/api/admin/advanced/errors/export')).status).toBe(403);
    expect((await kit.admin.client.del('/api/v3/admin/errors')).status).toBe(200);
    expect((await kit.admin.client.get<{ 'not-found': unknown[] }>('/api/admin/advanced/errors')).body['not-found']).toHaveLength(0);
  });

  it('the log ring keeps the last lines and masks secrets', async () => {
    const ring = new LogRing(null);
    for (let i = 0; i < LOG_LINES + 5; i++) ring.write(`{"level":30,"n":${i}}\n`);
    ring.write('{"level":40,"msg":"x","password":"hunter2","headers":{"authorization":"Bearer abc","cookie":"palaver.sid=s"}}\n');
    await new Promise((r) => setImmediate(r));
    const lines = ring.tail();
    expect(lines).toHaveLength(LOG_LINES);
    expect(lines[0]).toBe('{"level":30,"n":6}');
    const last = lines.at(-1)!;
    expect(last).not.toMatch(/hunter2|Bearer abc|palaver\.sid=s/);
    expect(last).toContain('"password":"[Redacted]"');
  });

  it('database page shows dialect, version, tables and settings', async () => {
    const db = (
      await kit.admin.client.get<{
        database: { dialect: string; version: string; size: number; tables: { name: string; rows: number }[]; settings: { name: string }[] };
      }>('/api/admin/advanced/database')
    ).body.database;
    expect(db.dialect).toBe(kit.forum.ctx.dialect);
    expect(db.version).not.toBe('');
    expect(db.size).toBeGreaterThan(0);
    expect(db.tables.find((t) => t.name === 'users')!.rows).toBeGreaterThanOrEqual(2);
    expect(db.tables.some((t) => t.name === 'widgets')).toBe(true);
    if (db.dialect === 'sqlite') expect(db.settings.find((s) => s.name === 'journal_mode')).toBeTruthy();
  });
});

/** Two app instances on one PostgreSQL database and one Redis: a widget saved through one shows on the other at once. */
const shared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
describe.runIf(shared)('widgets across two processes', () => {
  let second: App;
  let secondUrl: string;
  beforeAll(async () => {
    const other = await startSecondProcess(kit.forum);
    second = other.app;
    secondUrl = other.url;
  });
  afterAll(async () => {
    await second?.close();
  });
  it('the other process drops its rendered widgets on a change', async () => {
    const guest = new HttpClient(secondUrl);
    await kit.admin.client.put('/api/v3/admin/widgets', { template: 'top', areas: { header: [{ type: 'html', text: '<p>First</p>' }] } });
    expect((await guest.get<{ widgets: Areas }>('/api/top')).body.widgets.header![0]!.html).toContain('First');
    await kit.admin.client.put('/api/v3/admin/widgets', { template: 'top', areas: { header: [{ type: 'html', text: '<p>Second</p>' }] } });
    // The change reaches the other process through Redis within a second (the change bus's promise).
    await vi.waitFor(async () => expect((await guest.get<{ widgets: Areas }>('/api/top')).body.widgets.header![0]!.html).toContain('Second'), {
      timeout: 1000,
      interval: 20,
    });
  });
});
