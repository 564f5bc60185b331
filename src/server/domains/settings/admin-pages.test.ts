import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/constants.js';
import type { AdminNavigationPage, AdminSettingsPage } from '../../../shared/schemas/admin-settings.js';
import { DEFAULT_NAVIGATION } from '../../../shared/navigation.js';
import type { App } from '../../app.js';
import { startSecondProcess } from '../../test/harness.js';
import { HttpClient } from '../../test/http-client.js';
import { EDITED_ELSEWHERE, SETTINGS_LAYOUT, settingSections } from './admin-pages.js';
import { useForum } from '../../test/forum-kit.js';

const kit = useForum({ members: ['member'] });

const PAGES = Object.keys(SETTINGS_LAYOUT);

describe('the settings pages', () => {
  it('show every setting on exactly one page (but those the appearance and extend pages edit)', () => {
    const seen = PAGES.flatMap((p) => settingSections(p).flatMap((s) => s.fields.map((f) => f.key)));
    expect(seen.length).toBe(new Set(seen).size);
    const here = Object.keys(DEFAULT_SETTINGS).filter((k) => !Object.hasOwn(EDITED_ELSEWHERE, k));
    expect([...seen].sort()).toEqual(here.sort());
  });

  it("give an admin each page's sections and values, with controls and limits from the schema", async () => {
    for (const page of PAGES) {
      const res = await kit.admin.client.get(`/api/admin/settings/${page}`);
      expect(res.status, page).toBe(200);
      const data = res.body as AdminSettingsPage;
      expect(data.settingsPage).toBe(page);
      expect(data.template.name).toBe(`admin/settings/${page}`);
      for (const f of data.sections.flatMap((s) => s.fields)) {
        if (f.control !== 'link') expect(Object.hasOwn(data.values, f.key), f.key).toBe(true);
      }
    }
    const pagination = (await kit.admin.client.get('/api/admin/settings/pagination')).body as AdminSettingsPage;
    expect(pagination.sections[0]!.fields).toContainEqual({ key: 'postsPerPage', control: 'number', min: 1, max: 100 });
    expect(pagination.values.postsPerPage).toBe(20);
    const general = (await kit.admin.client.get('/api/admin/settings/general')).body as AdminSettingsPage;
    expect(general.sections.flatMap((s) => s.fields)).toContainEqual({
      key: 'searchDefaultIn',
      control: 'select',
      options: ['titles', 'posts', 'titlesposts'],
    });
    const user = (await kit.admin.client.get('/api/admin/settings/user')).body as AdminSettingsPage;
    expect(user.sections.flatMap((s) => s.fields)).toContainEqual({ key: 'customUserFields', control: 'link', href: '/admin/manage/users/custom-fields' });
    expect(user.sections.flatMap((s) => s.fields).find((f) => f.key === 'registrationType')?.options).toEqual([
      'normal',
      'invite-only',
      'admin-invite-only',
      'disabled',
    ]);
  });

  it('answer 403 to a member and 401 to a guest', async () => {
    for (const page of ['general', 'email', 'advanced']) {
      expect((await kit.member.client.get(`/api/admin/settings/${page}`)).status).toBe(403);
      expect((await kit.forum.client().get(`/api/admin/settings/${page}`)).status).toBe(401);
    }
  });

  it('never send the SMTP password back, only whether one is set', async () => {
    await kit.forum.ctx.settings.set({ smtpPassword: 'hunter2-secret' });
    const res = await kit.admin.client.get('/api/admin/settings/email');
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain('hunter2-secret');
    const data = res.body as AdminSettingsPage;
    expect(data.values.smtpPassword).toBe('');
    expect(data.secretsSet.smtpPassword).toBe(true);
    expect(data.sections.flatMap((s) => s.fields).find((f) => f.key === 'smtpPassword')?.control).toBe('password');
  });
});

describe('PUT /api/v3/admin/settings (several at once)', () => {
  it('saves every key of a page in one request and records each change', async () => {
    const res = await kit.admin.client.put('/api/v3/admin/settings', { values: { topicsPerPage: 33, postsPerPage: '44', usersPerPage: 50 } });
    expect(res.status).toBe(200);
    // usersPerPage was already 50: only what changed is saved and logged.
    expect(res.body.response).toEqual({ changed: ['topicsPerPage', 'postsPerPage'] });
    const s = await kit.forum.ctx.settings.get();
    expect([s.topicsPerPage, s.postsPerPage]).toEqual([33, 44]);
    expect((await kit.forum.client().get('/api/config')).body.postsPerPage).toBe(44);
    const events = await kit.forum.ctx.events.recent(5, 'config-change');
    expect(events.map((e) => e.data.key)).toEqual(expect.arrayContaining(['topicsPerPage', 'postsPerPage']));
  });

  it('saves nothing when one value is bad, and answers 400 naming that key', async () => {
    const before = await kit.forum.ctx.settings.get();
    const res = await kit.admin.client.put('/api/v3/admin/settings', { values: { siteTitle: 'Changed title', topicsPerPage: 25, postsPerPage: 1000 } });
    expect(res.status).toBe(400);
    expect(res.body.status.message).toBeTruthy();
    expect(JSON.stringify(res.body)).toContain('postsPerPage');
    const after = await kit.forum.ctx.settings.get();
    expect(after.siteTitle).toBe(before.siteTitle);
    expect(after.topicsPerPage).toBe(before.topicsPerPage);
    // A minimum above its maximum across the change is refused as a whole too.
    const minMax = await kit.admin.client.put('/api/v3/admin/settings', { values: { siteTitle: 'Again', minimumTagLength: 20, maximumTagLength: 10 } });
    expect(minMax.status).toBe(400);
    expect(JSON.stringify(minMax.body)).toContain('minimumTagLength');
    expect((await kit.forum.ctx.settings.get()).siteTitle).toBe(before.siteTitle);
    // An unknown key is refused by name.
    const unknown = await kit.admin.client.put('/api/v3/admin/settings', { values: { siteTitle: 'Again', noSuchSetting: 1 } });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('noSuchSetting');
    expect((await kit.forum.ctx.settings.get()).siteTitle).toBe(before.siteTitle);
  });

  it('logs a secret as changed, never by value', async () => {
    expect((await kit.admin.client.put('/api/v3/admin/settings', { values: { smtpPassword: 'another-secret-9' } })).status).toBe(200);
    const [event] = await kit.forum.ctx.events.recent(1, 'config-change');
    expect(event!.data).toMatchObject({ key: 'smtpPassword', to: '********' });
    expect(JSON.stringify(event)).not.toContain('another-secret-9');
  });

  it('answers 403 to a member and 401 to a guest, changing nothing', async () => {
    expect((await kit.member.client.put('/api/v3/admin/settings', { values: { siteTitle: 'Hijacked' } })).status).toBe(403);
    expect((await kit.forum.client().put('/api/v3/admin/settings', { values: { siteTitle: 'Hijacked' } })).status).toBe(401);
    expect((await kit.forum.ctx.settings.get()).siteTitle).not.toBe('Hijacked');
  });
});

describe('the API page: master tokens', () => {
  it('lists, creates (shown once, works as a bearer token) and revokes master tokens', async () => {
    expect(((await kit.admin.client.get('/api/admin/settings/api')).body as AdminSettingsPage).tokens).toEqual([]);
    const res = await kit.admin.client.post('/api/v3/admin/tokens', { description: 'Backup script' });
    expect(res.status).toBe(200);
    // NodeBB's TokenObject, the token shown this once.
    expect(res.body.response).toEqual({
      uid: 0,
      description: 'Backup script',
      token: expect.any(String),
      timestamp: expect.any(Number),
      timestampISO: expect.any(String),
      lastSeen: null,
      lastSeenISO: null,
    });
    const { token } = res.body.response as { token: string };
    expect(token.length).toBeGreaterThan(20);
    const page = (await kit.admin.client.get('/api/admin/settings/api')).body as AdminSettingsPage;
    const id = page.tokens![0]!.id;
    expect(page.tokens).toEqual([{ id, description: 'Backup script', created: expect.any(Number), lastSeen: 0 }]);
    expect(JSON.stringify(page)).not.toContain(token);
    expect(await kit.forum.ctx.auth.resolveToken(token)).toEqual({ uid: 0, master: true });
    expect((await kit.member.client.post('/api/v3/admin/tokens', { description: 'Mine' })).status).toBe(403);
    expect((await kit.forum.client().post('/api/v3/admin/tokens', { description: 'Mine' })).status).toBe(401);
    expect((await kit.member.client.del(`/api/v3/admin/tokens/${id}`)).status).toBe(403);
    expect((await kit.member.client.get('/api/admin/settings/api')).status).toBe(403);
    expect((await kit.admin.client.del(`/api/v3/admin/tokens/${id}`)).status).toBe(200);
    expect(await kit.forum.ctx.auth.resolveToken(token)).toBeNull();
    expect((await kit.admin.client.del(`/api/v3/admin/tokens/${id}`)).status).toBe(404);
    expect(((await kit.admin.client.get('/api/admin/settings/api')).body as AdminSettingsPage).tokens).toEqual([]);
    // A token for a member (NodeBB's uid), revoked by the token itself; an unknown member is a 404.
    const forMember = (await kit.admin.client.post('/api/v3/admin/tokens', { uid: kit.member.user.uid, description: 'As the member' })).body.response as {
      uid: number;
      token: string;
    };
    expect(forMember.uid).toBe(kit.member.user.uid);
    expect(await kit.forum.ctx.auth.resolveToken(forMember.token)).toEqual({ uid: kit.member.user.uid, master: false });
    expect((await kit.admin.client.del(`/api/v3/admin/tokens/${forMember.token}`)).status).toBe(200);
    expect(await kit.forum.ctx.auth.resolveToken(forMember.token)).toBeNull();
    expect((await kit.admin.client.post('/api/v3/admin/tokens', { uid: 999999 })).status).toBe(404);
  });
});

describe('the cookie consent banner', () => {
  it("is off by default, and once an admin turns it on every visitor's config carries it", async () => {
    expect((await kit.forum.client().get('/api/config')).body.cookies).toMatchObject({ enabled: false });
    const refused = await kit.admin.client.put('/api/v3/admin/settings', {
      values: { cookieConsentEnabled: true, cookieConsentLinkUrl: 'javascript:alert(1)' },
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('cookieConsentLinkUrl');
    expect((await kit.forum.ctx.settings.get()).cookieConsentEnabled).toBe(false);
    const res = await kit.admin.client.put('/api/v3/admin/settings', {
      values: { cookieConsentEnabled: true, cookieConsentMessage: 'We bake <b>cookies</b>.', cookieConsentLinkUrl: '/tos' },
    });
    expect(res.status).toBe(200);
    expect((await kit.forum.client().get('/api/config')).body.cookies).toEqual({
      enabled: true,
      message: 'We bake <b>cookies</b>.',
      dismiss: 'Got it!',
      link: 'Learn more',
      link_url: '/tos',
    });
    const page = (await kit.admin.client.get('/api/admin/settings/cookies')).body as AdminSettingsPage;
    expect(page.values).toMatchObject({ cookieConsentEnabled: true, cookieConsentLinkUrl: '/tos' });
    await kit.forum.ctx.settings.set({ cookieConsentEnabled: false });
  });
});

describe('the navigation editor', () => {
  it("serves the built-in list, saves a list of the admin's own that every visitor's config carries, and refuses a bad one", async () => {
    const page = (await kit.admin.client.get('/api/admin/settings/navigation')).body as AdminNavigationPage;
    expect(page.template.name).toBe('admin/settings/navigation');
    expect(page.custom).toBe(false);
    expect(page.navigation).toEqual(DEFAULT_NAVIGATION);
    expect((await kit.member.client.get('/api/admin/settings/navigation')).status).toBe(403);
    expect((await kit.forum.client().get('/api/admin/settings/navigation')).status).toBe(401);
    expect((await kit.forum.client().get('/api/config')).body.navigation).toEqual(DEFAULT_NAVIGATION);
    // Popular moves first, Tags is switched off, an outside link is added.
    const [cats, recent, unread, popular, ...rest] = DEFAULT_NAVIGATION;
    const mine = [
      popular!,
      cats!,
      recent!,
      unread!,
      ...rest.map((e) => (e.route === '/tags' ? { ...e, enabled: false } : e)),
      { route: 'https://docs.example.org/', text: 'Docs', icon: 'help', enabled: true, members: false, mobile: false, newTab: true },
    ];
    expect((await kit.admin.client.put('/api/v3/admin/settings', { values: { navigation: JSON.stringify(mine) } })).status).toBe(200);
    const shown = (await kit.forum.client().get('/api/config')).body.navigation as { route: string }[];
    expect(shown.map((e) => e.route)).toEqual(['/popular', '/', '/recent', '/unread', '/top', '/users', '/groups', 'https://docs.example.org/']);
    expect(((await kit.admin.client.get('/api/admin/settings/navigation')).body as AdminNavigationPage).custom).toBe(true);
    // A script address, an entry without text, or text that is not a list: 400 naming the setting, nothing saved.
    for (const bad of [[{ ...mine[0]!, route: 'javascript:alert(1)' }], [{ ...mine[0]!, text: ' ' }], '{"route":"/"}', 'not json']) {
      const res = await kit.admin.client.put('/api/v3/admin/settings', { values: { navigation: typeof bad === 'string' ? bad : JSON.stringify(bad) } });
      expect([res.status, res.body.status.key, res.body.status.params?.[0] ?? JSON.stringify(res.body)]).toEqual([
        400,
        'error:invalid-navigation',
        'navigation',
      ]);
    }
    expect(((await kit.forum.client().get('/api/config')).body.navigation as unknown[]).length).toBe(8);
    // Empty again: the built-in list.
    await kit.admin.client.put('/api/v3/admin/settings', { values: { navigation: '' } });
    expect((await kit.forum.client().get('/api/config')).body.navigation).toEqual(DEFAULT_NAVIGATION);
  });
});

describe('two processes on one database', () => {
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

  it('a setting saved through one process is used by the other within seconds', async () => {
    const other = new HttpClient(secondUrl);
    // The second process reads (and caches) the settings first.
    expect((await other.get('/api/config')).body.topicsPerPage).toBe((await kit.forum.ctx.settings.get()).topicsPerPage);
    expect((await kit.admin.client.put('/api/v3/admin/settings', { values: { topicsPerPage: 17 } })).status).toBe(200);
    const started = Date.now();
    let seen = 0;
    while (Date.now() - started < 8000) {
      seen = (await other.get('/api/config')).body.topicsPerPage as number;
      if (seen === 17) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toBe(17);
    // With Redis the news arrives at once; without it the cache's 5 s lifetime is the bound.
    expect(Date.now() - started).toBeLessThan(process.env.REDIS_URL ? 1000 : 6000);
  });
});
