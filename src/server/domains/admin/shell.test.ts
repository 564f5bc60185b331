import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminsModsPage } from '../../../shared/schemas/admin-shell.js';
import { startTestForum, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import { collect, connectLive, delivered, nextEvent } from '../../test/live-client.js';
import { SYSTEM } from '../../setup.js';
import { ADMINISTRATORS, GLOBAL_MODS } from '../groups/service.js';
import { liveReloadAfterSettings, requestLiveReload, watchClientBuild } from '../../realtime/live-reload.js';
import { firstRunActive, startFirstRun } from './setup-routes.js';

const PASSWORD = 'Setup-Horse-Battery-77';
/** After a login-like answer the session (and with it the CSRF token) changes. */
const newSession = (c: HttpClient) => ((c as unknown as { csrf: string | null }).csrf = null);

describe('first-run setup (issue 16 §1)', () => {
  let forum: TestForum;
  beforeAll(async () => {
    forum = await startTestForum();
  });
  afterAll(async () => forum?.close());

  it('is off unless `palaver start` turns it on: the harness forum serves pages and /setup is a 404', async () => {
    expect(firstRunActive(forum.ctx)).toBe(false);
    const c = forum.client();
    expect((await c.get('/api/recent')).status).toBe(200);
    expect((await c.get('/setup')).status).toBe(404);
    expect((await c.get('/api/setup')).status).toBe(404);
  });

  it('on an empty database: every page leads to /setup, other writes wait, the form is validated, creates the admin and logs them in', async () => {
    expect(await startFirstRun(forum.ctx)).toBe(true);
    const c = forum.client();
    // HTML pages redirect, page data answers with the redirect, the setup page is served.
    const home = await c.get('/');
    expect(home.status).toBe(302);
    expect(home.headers.get('location')).toBe('/setup');
    const data = await c.get('/api/recent');
    expect(data.headers.get('x-redirect')).toBe('/setup');
    const html = await c.get('/setup');
    expect(html.status).toBe(200);
    expect(html.text).toContain('id="setup-form"');
    const page = await c.get('/api/setup');
    expect(page.body.template.name).toBe('setup');
    expect(page.body.minimumPasswordLength).toBeGreaterThan(0);
    // Registration waits for the administrator.
    const reg = await c.post('/register', { username: 'early', email: 'early@example.com', password: PASSWORD, 'password-confirm': PASSWORD });
    expect(reg.status).toBe(503);
    expect(reg.body.status.message).toBe('error:setup-required');

    const good = { siteTitle: 'Palaver <b>Setup</b> Forum', username: 'founder', email: 'founder@example.com', password: PASSWORD, 'password-confirm': PASSWORD, demo: true };
    // CSRF protected.
    expect((await c.post('/setup', good, { csrf: false })).status).toBe(403);
    // Each bad field: a 400 with its key, and nothing is created.
    const bad = async (body: object, key: string) => {
      const res = await c.post('/setup', { ...good, ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.status.key ?? res.body.status.message).toContain(key);
    };
    await bad({ siteTitle: '   ' }, 'error:invalid-site-title');
    await bad({ siteTitle: 'x'.repeat(256) }, 'error:invalid-site-title');
    await bad({ username: '' }, 'error:invalid-username');
    await bad({ email: 'not-an-address' }, 'error:invalid-email');
    await bad({ password: 'short', 'password-confirm': 'short' }, 'reset_password:password-too-short');
    await bad({ 'password-confirm': 'something else' }, 'error:passwords-do-not-match');
    const missing = await c.post('/setup', { username: 'x' });
    expect(missing.status).toBe(400);
    expect(await forum.ctx.groups.members(ADMINISTRATORS)).toEqual([]);
    expect((await forum.ctx.users.list('joindate', 1, 1)).count).toBe(0);
    expect(firstRunActive(forum.ctx)).toBe(true);

    const res = await c.post('/setup', good);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.next).toBe('/admin');
    newSession(c);
    const admins = await forum.ctx.groups.members(ADMINISTRATORS);
    expect(admins).toEqual([res.body.uid]);
    expect((await forum.ctx.settings.get()).siteTitle).toBe('Palaver <b>Setup</b> Forum');
    // The browser tab shows it too.
    expect((await forum.ctx.settings.get()).browserTitle).toBe('Palaver <b>Setup</b> Forum');
    // Logged in as the new administrator: the admin area opens.
    const adminsMods = await c.get<AdminsModsPage>('/api/admin/manage/admins-mods');
    expect(adminsMods.status).toBe(200);
    expect(adminsMods.body.admins.members.map((m) => m.username)).toEqual(['founder']);
    // The demo content: a welcome topic in the first category.
    const recent = await c.get('/api/recent');
    expect(recent.status).toBe(200);
    expect(recent.body.topics.map((t: { title: string }) => t.title)).toContain('Welcome to your forum');
    // The title reaches public pages escaped, never as markup.
    const front = await forum.client().get('/recent');
    expect(front.status).toBe(200);
    expect(front.text).not.toContain('<b>Setup</b>');
    // Gone for good.
    expect(firstRunActive(forum.ctx)).toBe(false);
    expect((await c.get('/setup')).status).toBe(404);
    const again = await forum.client().post('/setup', { ...good, username: 'intruder', email: 'intruder@example.com' });
    expect(again.status).toBe(404);
    expect(await forum.ctx.groups.members(ADMINISTRATORS)).toEqual(admins);
  });

  it('speaks the language of the browser that sets the forum up: the page, the first category, the welcome topic and the forum’s default language', async () => {
    const other = await startTestForum();
    try {
      expect(await startFirstRun(other.ctx)).toBe(true);
      const de = { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' };
      const c = other.client();
      const page = await c.get('/api/setup', { headers: de });
      expect(page.body.languageName).toBe('Deutsch');
      const html = await c.get('/setup', { headers: de });
      expect(html.text).toContain('lang="de"');
      expect(html.text).toContain('<title>Forum einrichten');
      // An English browser (en-US) leaves an en-GB forum as it is.
      expect((await other.client().get('/api/setup', { headers: { 'accept-language': 'en-US' } })).body.languageName).toBe('English (United Kingdom)');
      const form = { siteTitle: 'Unser Forum', username: 'gruender', email: 'gruender@example.com', password: PASSWORD, 'password-confirm': PASSWORD, demo: true };
      const res = await c.post('/setup', form, { headers: de });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((await other.ctx.settings.get()).defaultLang).toBe('de');
      const categories = await other.ctx.categories.list(SYSTEM);
      expect(categories.map((x) => x.name)).toEqual(['Allgemeine Diskussion']);
      expect(categories[0]!.description).toBe('Ein Ort, um über alles zu reden, was dich interessiert');
      const recent = await other.client().get('/api/recent');
      expect(recent.body.topics.map((t: { title: string }) => t.title)).toEqual(['Willkommen in deinem Forum']);
      // A guest without a preference now reads the forum in German.
      expect((await other.client().get('/recent')).text).toContain('lang="de"');
    } finally {
      await other.close();
    }
  });

  it('never turns on for a forum with members, and ends when another process (or the CLI) makes the admin', async () => {
    expect(await startFirstRun(forum.ctx)).toBe(false);
    const other = await startTestForum();
    try {
      expect(await startFirstRun(other.ctx)).toBe(true);
      expect((await other.client().get('/')).status).toBe(302);
      await other.createUser({ admin: true });
      const home = await other.client().get('/');
      expect(home.status).toBe(200);
      expect(firstRunActive(other.ctx)).toBe(false);
    } finally {
      await other.close();
    }
  });
});

describe('admins & mods (/admin/manage/admins-mods)', () => {
  let forum: TestForum;
  beforeAll(async () => {
    forum = await startTestForum();
  });
  afterAll(async () => forum?.close());

  it('answers 401 to guests and 403 to members and global moderators', async () => {
    expect((await forum.client().get('/api/admin/manage/admins-mods')).status).toBe(401);
    const member = await forum.member();
    expect((await member.client.get('/api/admin/manage/admins-mods')).status).toBe(403);
    expect((await member.client.get('/admin/manage/admins-mods')).status).toBe(403);
  });

  it('lists administrators, global moderators and category moderators, and follows each change through the write API', async () => {
    const admin = await forum.member({ admin: true });
    const helper = await forum.createUser();
    const cat = await forum.ctx.categories.create(admin.viewer, { name: 'Moderated place' });
    const load = async () => {
      const res = await admin.client.get<AdminsModsPage>('/api/admin/manage/admins-mods');
      expect(res.status).toBe(200);
      return res.body;
    };
    let page = await load();
    expect(page.template.name).toBe('admin/manage/admins-mods');
    expect(page.admins.members.map((m) => m.uid)).toEqual([admin.user.uid]);
    expect(page.globalMods.members).toEqual([]);
    expect(page.categoryMods.find((c) => c.cid === cat.cid)?.moderators).toEqual([]);

    expect((await admin.client.put(`/api/v3/groups/global-moderators/membership/${helper.uid}`)).status).toBe(200);
    expect((await admin.client.put(`/api/v3/categories/${cat.cid}/moderator/${helper.uid}`)).status).toBe(200);
    await forum.ctx.hooks.idle();
    page = await load();
    expect(page.globalMods.members.map((m) => m.username)).toEqual([helper.username]);
    expect(page.globalMods.memberCount).toBe(1);
    expect(page.categoryMods.find((c) => c.cid === cat.cid)?.moderators.map((m) => m.uid)).toEqual([helper.uid]);

    // A global moderator may not open this admin-only page.
    const mod = await forum.loginAs(helper);
    expect((await mod.client.get('/api/admin/manage/admins-mods')).status).toBe(403);

    expect((await admin.client.del(`/api/v3/groups/global-moderators/membership/${helper.uid}`)).status).toBe(200);
    expect((await admin.client.del(`/api/v3/categories/${cat.cid}/moderator/${helper.uid}`)).status).toBe(200);
    await forum.ctx.hooks.idle();
    page = await load();
    expect(page.globalMods.members).toEqual([]);
    expect(page.categoryMods.find((c) => c.cid === cat.cid)?.moderators).toEqual([]);
  });
});

describe('event:livereload', () => {
  let forum: TestForum;
  let dist: string;
  beforeAll(async () => {
    forum = await startTestForum();
    dist = mkdtempSync(path.join(tmpdir(), 'palaver-dist-'));
    mkdirSync(path.join(dist, 'client', '.vite'), { recursive: true });
  });
  afterAll(async () => {
    await forum?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('reaches administrators’ sockets, never members’, after an appearance change or a client rebuild', async () => {
    const admin = await forum.loginAs({ admin: true });
    const member = await forum.loginAs();
    const adminSocket = await connectLive(admin.client);
    const memberSocket = await connectLive(member.client);
    const memberSaw = collect(memberSocket, 'event:livereload');
    // The administrator's socket joins the administrators' room in the background.
    await delivered(forum, adminSocket, memberSocket);
    try {
      let got = nextEvent(adminSocket, 'event:livereload');
      expect(requestLiveReload(forum.ctx)).toBe(true);
      await got;

      // Only the appearance settings reload pages.
      expect(liveReloadAfterSettings(forum.ctx, ['siteTitle'])).toBe(false);
      got = nextEvent(adminSocket, 'event:livereload');
      expect(liveReloadAfterSettings(forum.ctx, ['siteTitle', 'customCSS'])).toBe(true);
      await got;

      // Development: a rebuilt client manifest.
      const manifest = path.join(dist, 'client', '.vite', 'manifest.json');
      writeFileSync(manifest, '{}');
      const stop = watchClientBuild(forum.ctx, dist, 50);
      try {
        got = nextEvent(adminSocket, 'event:livereload', 8000);
        const later = new Date(Date.now() + 5000);
        writeFileSync(manifest, '{"rebuilt":true}');
        utimesSync(manifest, later, later);
        await got;
      } finally {
        stop();
      }
      await delivered(forum, memberSocket);
      expect(memberSaw).toEqual([]);
    } finally {
      adminSocket.close();
      memberSocket.close();
    }
  });
});

describe('the admin navigation', () => {
  let forum: TestForum;
  beforeAll(async () => {
    forum = await startTestForum();
  });
  afterAll(async () => forum?.close());

  it('leads to a page for every entry: the page data as an admin, 403 to a member, 401 to a guest', async () => {
    const { ADMIN_NAV } = await import('../../../client/pages/admin/nav.js');
    const admin = (await forum.loginAs({ admin: true })).client;
    const member = (await forum.loginAs()).client;
    const guest = forum.client();
    const gm = await forum.loginAs();
    await forum.ctx.groups.join(GLOBAL_MODS, gm.user.uid);
    const broken: string[] = [];
    for (const entry of ADMIN_NAV.flatMap((s) => s.entries)) {
      const res = await admin.get(`/api${entry.path}`);
      if (res.status !== 200 || !String(res.body?.template?.name ?? '').startsWith('admin')) broken.push(`${entry.path}: ${res.status} ${res.body?.template?.name}`);
      const asMember = (await member.get(`/api${entry.path}`)).status;
      const asGuest = (await guest.get(`/api${entry.path}`)).status;
      if (asGuest !== 401 || (asMember !== 403 && !entry.mod)) broken.push(`${entry.path}: member ${asMember}, guest ${asGuest}`);
      // A global moderator sees exactly the entries marked for them.
      const asGlobalMod = (await gm.client.get(`/api${entry.path}`)).status;
      if (asGlobalMod !== (entry.mod ? 200 : 403)) broken.push(`${entry.path}: global moderator ${asGlobalMod}`);
    }
    expect(broken).toEqual([]);
  });
});
