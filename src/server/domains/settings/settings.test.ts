import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/constants.js';
import { SYSTEM } from '../../setup.js';
import { postReply, postTopic } from '../topics/testing.js';
import { configCommand } from './cli.js';
import { assertSettingsChange, settingKeys } from './schema.js';
import { useForum } from '../../test/forum-kit.js';

const kit = useForum({ category: 'Settings room', members: ['member'] });

describe('the settings schema', () => {
  it('names every default and accepts every default', () => {
    expect(settingKeys().sort()).toEqual(Object.keys(DEFAULT_SETTINGS).sort());
    expect(() => assertSettingsChange({ ...DEFAULT_SETTINGS })).not.toThrow();
  });

  it('refuses wrong types, values out of range, unknown keys and a minimum above its maximum, naming the key', () => {
    const refused = (values: Record<string, unknown>) => {
      try {
        assertSettingsChange(values);
      } catch (err) {
        return err as { key: string; status: number; params: unknown[] };
      }
      throw new Error(`accepted ${JSON.stringify(values)}`);
    };
    expect(refused({ topicsPerPage: '5' })).toMatchObject({ status: 400, key: 'error:invalid-setting-value', params: ['topicsPerPage'] });
    expect(refused({ topicsPerPage: 0 })).toMatchObject({ key: 'error:invalid-setting-value', params: ['topicsPerPage'] });
    expect(refused({ postsPerPage: 2.5 })).toMatchObject({ params: ['postsPerPage'] });
    expect(refused({ allowRegistration: 1 })).toMatchObject({ params: ['allowRegistration'] });
    expect(refused({ defaultLang: '../../etc' })).toMatchObject({ params: ['defaultLang'] });
    expect(refused({ siteTitle: 'x'.repeat(256) })).toMatchObject({ params: ['siteTitle'] });
    expect(refused({ noSuchThing: 1 })).toMatchObject({ key: 'error:unknown-setting', params: ['noSuchThing'] });
    expect(refused({ minimumTagLength: 20, maximumTagLength: 10 })).toMatchObject({ key: 'error:setting-min-above-max' });
  });

  it('validates ctx.settings.set() by the schema too', async () => {
    await expect(kit.forum.ctx.settings.set({ usersPerPage: -3 })).rejects.toMatchObject({ status: 400, params: ['usersPerPage'] });
  });
});

describe('PUT /api/v3/admin/settings/{setting}', () => {
  it("lets an admin change a setting with NodeBB's string body, and the forum uses it", async () => {
    const res = await kit.admin.client.put('/api/v3/admin/settings/allowRegistration', { value: '0' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: { code: 'ok', message: 'OK' }, response: {} });
    expect((await kit.forum.ctx.settings.get()).allowRegistration).toBe(false);
    expect((await kit.forum.client().get('/api/config')).body.allowRegistration).toBe(false);
    expect((await kit.forum.client().get('/api/register')).status).toBe(403);
    const refused = await kit.forum
      .client()
      .post('/register', { username: 'latecomer', password: 'Correct-Horse-42', 'password-confirm': 'Correct-Horse-42', email: 'late@example.com' });
    expect(refused.status).toBe(403);
    // JSON values are accepted as well.
    expect((await kit.admin.client.put('/api/v3/admin/settings/allowRegistration', { value: true })).status).toBe(200);
    expect((await kit.forum.client().get('/api/config')).body.allowRegistration).toBe(true);
    const events = await kit.forum.ctx.events.recent(5, 'config-change');
    expect(events[0]).toMatchObject({ uid: kit.admin.user.uid, data: { key: 'allowRegistration', from: false, to: true } });
  });

  it('switches the compose route, the outgoing-links page and flood control', async () => {
    for (const [key, value] of [
      ['composeRouteEnabled', 'true'],
      ['useOutgoingLinksPage', '1'],
      ['outgoingLinksWhitelist', 'example.org'],
    ] as const) {
      expect((await kit.admin.client.put(`/api/v3/admin/settings/${key}`, { value })).status).toBe(200);
    }
    const config = (await kit.forum.client().get('/api/config')).body;
    expect(config).toMatchObject({ composeRouteEnabled: true, useOutgoingLinksPage: true, outgoingLinksWhitelist: 'example.org' });
    expect((await kit.admin.client.put('/api/v3/admin/settings/postDelay', { value: '60' })).status).toBe(200);
    expect((await kit.admin.client.put('/api/v3/admin/settings/newbiePostDelay', { value: '60' })).status).toBe(200);
    const poster = await kit.forum.loginAs();
    const t = await postTopic(poster.client, kit.cid);
    const second = await poster.client.post(`/api/v3/topics/${t.tid}`, { content: 'A reply too soon after the topic.' });
    expect(second.status).toBe(400);
    expect(second.body.status.key).toBe('error:too-many-posts');
    await kit.forum.ctx.settings.set({ postDelay: 0, newbiePostDelay: 0 });
    await postReply(poster.client, t.tid);
  });

  it('answers 400 with the key for a bad value or an unknown setting', async () => {
    const bad = await kit.admin.client.put('/api/v3/admin/settings/topicsPerPage', { value: 'lots' });
    expect(bad.status).toBe(400);
    expect(bad.body.status).toMatchObject({ code: 'bad-request', key: 'error:invalid-setting-value', params: ['topicsPerPage'] });
    expect(bad.body.status.message).toBe('Invalid value for the setting topicsPerPage');
    const range = await kit.admin.client.put('/api/v3/admin/settings/topicsPerPage', { value: '100000' });
    expect(range.status).toBe(400);
    const unknown = await kit.admin.client.put('/api/v3/admin/settings/secretSauce', { value: '1' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.status).toMatchObject({ key: 'error:unknown-setting', params: ['secretSauce'] });
    const nobody = await kit.admin.client.put('/api/v3/admin/settings/topicsPerPage', {});
    expect(nobody.status).toBe(400);
    expect((await kit.forum.ctx.settings.get()).topicsPerPage).toBe(DEFAULT_SETTINGS.topicsPerPage);
  });

  it('is for admins only', async () => {
    expect((await kit.member.client.put('/api/v3/admin/settings/siteTitle', { value: 'Mine now' })).status).toBe(403);
    expect((await kit.forum.client().put('/api/v3/admin/settings/siteTitle', { value: 'Mine now' })).status).toBe(401);
    expect((await kit.forum.ctx.settings.get()).siteTitle).not.toBe('Mine now');
  });
});

describe('GET /api/admin/config', () => {
  it("answers NodeBB's admin config to admins, with the forum's settings", async () => {
    await kit.forum.ctx.settings.set({ siteTitle: 'Config Forum' });
    const res = await kit.admin.client.get('/api/admin/config');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      siteTitle: 'Config Forum',
      relative_path: '',
      loggedIn: true,
      uid: kit.admin.user.uid,
      topicsPerPage: expect.any(Number),
    });
    for (const key of ['assetBaseUrl', 'brand:logo', 'socketioTransports', 'timeagoCodes', 'cookies', 'thumbs', 'fontawesome', 'tinycon', 'composer-default']) {
      expect(res.body).toHaveProperty([key]);
    }
    expect(Array.isArray(res.body.timeagoCodes)).toBe(true);
  });

  it('reports the true chat, search, post queue, post history and cookie values, following the settings', async () => {
    const before = (await kit.admin.client.get('/api/admin/config')).body;
    expect(before).toMatchObject({
      disableChat: false,
      maximumChatMessageLength: 1000,
      searchEnabled: true,
      postQueue: 0,
      enablePostHistory: true,
      cookies: { enabled: false },
    });
    const values = {
      disableChat: true,
      maximumChatMessageLength: 321,
      postQueue: true,
      cookieConsentEnabled: true,
      cookieConsentMessage: 'We bake cookies.',
      'brand:logo': '/system/logo.png',
    };
    expect((await kit.admin.client.put('/api/v3/admin/settings', { values })).status).toBe(200);
    try {
      const after = (await kit.admin.client.get('/api/admin/config')).body;
      expect(after).toMatchObject({
        disableChat: true,
        maximumChatMessageLength: 321,
        postQueue: 1,
        'brand:logo': '/assets/uploads/system/logo.png',
        cookies: { enabled: true, message: 'We bake cookies.' },
      });
    } finally {
      await kit.forum.ctx.settings.set({
        disableChat: false,
        maximumChatMessageLength: 1000,
        postQueue: false,
        cookieConsentEnabled: false,
        cookieConsentMessage: DEFAULT_SETTINGS.cookieConsentMessage,
        'brand:logo': '',
      });
    }
  });

  it('refuses members and guests', async () => {
    expect((await kit.member.client.get('/api/admin/config')).status).toBe(403);
    expect((await kit.forum.client().get('/api/admin/config')).status).toBe(401);
  });
});

describe("the forum's page sizes (issue 17, defect 6)", () => {
  it("gives a member without their own choice the admin's topics and posts per page", async () => {
    const t = await postTopic(kit.admin.client, kit.cid, { title: 'Many replies topic', tags: ['sizes'] });
    for (let i = 0; i < 6; i++) await postTopic(kit.admin.client, kit.cid, { tags: ['sizes'] });
    for (let i = 0; i < 6; i++) await postReply(kit.admin.client, t.tid, `Reply number ${i} is here`);
    expect((await kit.admin.client.put('/api/v3/admin/settings/topicsPerPage', { value: '5' })).status).toBe(200);
    expect((await kit.admin.client.put('/api/v3/admin/settings/postsPerPage', { value: '4' })).status).toBe(200);
    const fresh = await kit.forum.loginAs();
    const recent = (await fresh.client.get('/api/recent')).body;
    expect(recent.topics).toHaveLength(5);
    expect(recent.loggedInUser.settings.topicsPerPage).toBe(5);
    expect((await fresh.client.get('/api/tags/sizes')).body.topics).toHaveLength(5);
    expect((await fresh.client.get(`/api/topic/${t.tid}`)).body.posts).toHaveLength(4);
    expect((await fresh.client.get('/api/config')).body).toMatchObject({ topicsPerPage: 5, postsPerPage: 4 });
    // Saving another setting does not turn the defaults into a choice.
    await fresh.client.put(`/api/v3/users/${fresh.user.uid}/settings`, { settings: { openSidebars: 'on' } });
    expect((await fresh.client.get('/api/recent')).body.topics).toHaveLength(5);
    // A member's own choice still wins.
    await fresh.client.put(`/api/v3/users/${fresh.user.uid}/settings`, { settings: { topicsPerPage: 3 } });
    expect((await fresh.client.get('/api/recent')).body.topics).toHaveLength(3);
    await kit.forum.ctx.settings.set({ topicsPerPage: DEFAULT_SETTINGS.topicsPerPage, postsPerPage: DEFAULT_SETTINGS.postsPerPage });
  });
});

describe("settings by NodeBB's names", () => {
  it("PUT /api/v3/admin/settings/{setting} takes NodeBB's key as well as ours, and the forum shows the change", async () => {
    const byNodebb = await kit.admin.client.put('/api/v3/admin/settings/title', { value: 'Named as NodeBB names it' });
    expect(byNodebb.status).toBe(200);
    expect((await kit.forum.client().get('/api/config')).body.siteTitle).toBe('Named as NodeBB names it');
    expect((await kit.admin.client.put('/api/v3/admin/settings/siteTitle', { value: 'Named as Palaver names it' })).status).toBe(200);
    expect((await kit.forum.client().get('/api/config')).body.siteTitle).toBe('Named as Palaver names it');
    // NodeBB's spelling of a value comes with its key; Palaver's own keys keep their own values.
    expect((await kit.admin.client.put('/api/v3/admin/settings/email:smtpTransport:security', { value: 'STARTTLS' })).status).toBe(200);
    expect((await kit.forum.ctx.settings.get()).smtpSecurity).toBe('starttls');
    expect((await kit.admin.client.put('/api/v3/admin/settings/smtpSecurity', { value: 'STARTTLS' })).status).toBe(400);
    expect(
      (await kit.admin.client.put('/api/v3/admin/settings', { values: { userSearchResultsPerPage: 33, loginDays: 9 } })).body.response.changed.sort(),
    ).toEqual(['sessionDays', 'usersPerPage']);
    expect(await kit.forum.ctx.settings.get()).toMatchObject({ usersPerPage: 33, sessionDays: 9 });
    expect((await kit.member.client.put('/api/v3/admin/settings/title', { value: 'Not theirs' })).status).toBe(403);
  });

  it('palaver config gets and sets by either name', async () => {
    expect(await configCommand(kit.forum.ctx, SYSTEM, ['set', 'title', 'From the command line'])).toEqual({
      out: 'siteTitle = From the command line',
      code: 0,
    });
    expect(await configCommand(kit.forum.ctx, SYSTEM, ['get', 'title'])).toEqual({ out: 'From the command line', code: 0 });
    expect(await configCommand(kit.forum.ctx, SYSTEM, ['get', 'siteTitle'])).toEqual({ out: 'From the command line', code: 0 });
    expect((await kit.forum.client().get('/api/config')).body.siteTitle).toBe('From the command line');
    expect((await configCommand(kit.forum.ctx, SYSTEM, ['set', 'outgoingLinks:whitelist', 'example.org'])).code).toBe(0);
    expect((await kit.forum.ctx.settings.get()).outgoingLinksWhitelist).toBe('example.org');
  });
});

describe('palaver config', () => {
  it('lists, gets and sets through the command function, refusing bad values with a clear message', async () => {
    const list = await configCommand(kit.forum.ctx, SYSTEM, ['list']);
    expect(list.code).toBe(0);
    expect(list.out).toContain('topicsPerPage = ');
    expect(list.out.split('\n')).toHaveLength(settingKeys().length);
    expect(await configCommand(kit.forum.ctx, SYSTEM, ['set', 'timeagoCutoff', '-1'])).toEqual({ out: 'timeagoCutoff = -1', code: 0 });
    expect(await configCommand(kit.forum.ctx, SYSTEM, ['get', 'timeagoCutoff'])).toEqual({ out: '-1', code: 0 });
    expect((await kit.forum.client().get('/api/config')).body.timeagoCutoff).toBe(-1);
    const bad = await configCommand(kit.forum.ctx, SYSTEM, ['set', 'postsPerPage', '0']);
    expect(bad.code).toBe(1);
    expect(bad.out).toBe('Error: Invalid value for the setting postsPerPage (expected an integer from 1 to 100)');
    const unknown = await configCommand(kit.forum.ctx, SYSTEM, ['get', 'nope']);
    expect(unknown).toMatchObject({ code: 1, out: expect.stringContaining('There is no setting named nope') });
    expect((await configCommand(kit.forum.ctx, SYSTEM, ['frobnicate'])).code).toBe(1);
  });

  it('runs from the command line: non-zero exit on a bad value, the value saved on a good one', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'palaver-config-'));
    const main = path.resolve(import.meta.dirname, '../../main.ts');
    const run = async (...args: string[]) => {
      try {
        const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', main, 'config', ...args], {
          env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', PALAVER_DATA_DIR: dataDir, LOG_LEVEL: 'error' },
        });
        return { code: 0, stdout, stderr: '' };
      } catch (err) {
        const e = err as { code: number; stdout: string; stderr: string };
        return { code: e.code, stdout: e.stdout, stderr: e.stderr };
      }
    };
    try {
      const bad = await run('set', 'allowRegistration', 'maybe');
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain('Invalid value for the setting allowRegistration (expected true or false');
      expect((await run('set', 'siteTitle', 'Shell Forum')).stdout.trim()).toBe('siteTitle = Shell Forum');
      expect((await run('get', 'siteTitle')).stdout.trim()).toBe('Shell Forum');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60000);
});

describe('settings writes', () => {
  it('a change and its audit record commit together, or neither; readers see a committed change at once', async () => {
    const { ctx } = kit.forum;
    const before = (await ctx.settings.get()).topicsPerPage;
    const next = before === 27 ? 28 : 27;
    await expect(
      ctx.settings.set({ topicsPerPage: next }, async (w) => {
        await ctx.events.log('config-change', kit.admin.user.uid, { key: 'topicsPerPage', to: next }, '', w);
        throw new Error('audit refused');
      }),
    ).rejects.toThrow('audit refused');
    expect((await ctx.settings.get()).topicsPerPage).toBe(before);
    const res = await kit.admin.client.put('/api/v3/admin/settings/topicsPerPage', { value: String(next) });
    expect(res.status).toBe(200);
    expect((await ctx.settings.get()).topicsPerPage).toBe(next);
    const logged = (await ctx.events.recent(20, 'config-change')).filter((e) => e.data.key === 'topicsPerPage');
    expect(logged[0]?.data).toMatchObject({ from: before, to: next });
    await ctx.settings.set({ topicsPerPage: before });
  });
});
