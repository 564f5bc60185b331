import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  AdminCustomisePage,
  AdminPluginSettingsPage,
  AdminPluginsPage,
  AdminSkinsPage,
  AdminThemesPage,
} from '../../../shared/schemas/admin-appearance.js';
import type { HttpClient } from '../../test/http-client.js';
import { makeCategory, postTopic } from '../topics/testing.js';
import { useForum } from '../../test/forum-kit.js';

let member: HttpClient;

/** Sends one file as a browser's form does (multipart, field `files[]`). */
async function send(client: HttpClient, url: string, name: string, bytes: Buffer, type = 'image/png') {
  const form = new FormData();
  form.append('files[]', new Blob([new Uint8Array(bytes)], { type }), name);
  const csrf = client.csrf ?? (await client.refreshCsrf());
  const res = await fetch(client.baseUrl + url, {
    method: 'POST',
    body: form,
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': csrf },
  });
  return { status: res.status, body: (await res.json()) as any };
}
const set = (values: Record<string, unknown>) => kit.admin.client.put('/api/v3/admin/settings', { values });

const kit = useForum();
beforeAll(async () => {
  member = (await kit.forum.loginAs()).client;
});

const PAGES = [
  '/admin/appearance/skins',
  '/admin/appearance/customise',
  '/admin/appearance/themes',
  '/admin/extend/plugins',
  '/admin/plugins/harmony',
  '/admin/plugins/markdown',
  '/admin/plugins/mentions',
  '/admin/plugins/emoji',
  '/admin/plugins/composer-default',
  '/admin/plugins/spam-be-gone',
  '/admin/plugins/web-push',
  '/admin/plugins/2factor',
];

describe('admin appearance and plugins pages', () => {
  it('give their data to admins only: 403 for a member, 401 for a guest', async () => {
    for (const path of PAGES) {
      expect((await kit.admin.client.get(`/api${path}`)).status, path).toBe(200);
      expect((await member.get(`/api${path}`)).status, path).toBe(403);
      expect((await kit.forum.client().get(`/api${path}`)).status, path).toBe(401);
    }
    const skins = (await kit.admin.client.get<AdminSkinsPage>('/api/admin/appearance/skins')).body;
    expect(skins.skins).toHaveLength(27);
    expect(skins.skins.find((s) => s.value === 'darkly')).toMatchObject({ dark: true, colours: { bg: '#222' }, allowed: true, default: false });
    expect((await kit.admin.client.get<AdminThemesPage>('/api/admin/appearance/themes')).body.themes[0]).toMatchObject({ id: 'harmony', active: true });
    const plugins = (await kit.admin.client.get<AdminPluginsPage>('/api/admin/extend/plugins')).body;
    expect(plugins.installed.map((p) => p.id)).toEqual([
      'markdown',
      'mentions',
      'emoji',
      'composer-default',
      'dbsearch',
      'spam-be-gone',
      'web-push',
      '2factor',
    ]);
    expect(plugins.installed.find((p) => p.id === 'markdown')).toMatchObject({ toggleable: false, active: true });
    const spam = (await kit.admin.client.get<AdminPluginSettingsPage>('/api/admin/plugins/spam-be-gone')).body;
    expect(spam.fields.map((f) => f.key)).toContain('maximumLinksForNewMembers');
    expect(spam.notOffered.length).toBeGreaterThan(0);
  });

  it('sets the default skin and the skins members may pick; a member outside the list sees the default', async () => {
    expect((await set({ bootswatchSkin: 'nosuchskin' })).body.status.params).toEqual(['bootswatchSkin']);
    expect((await set({ allowedSkins: 'darkly,<b>' })).status).toBe(400);
    expect((await set({ bootswatchSkin: 'flatly', allowedSkins: 'flatly,darkly' })).status).toBe(200);
    const page = (await kit.admin.client.get<AdminSkinsPage>('/api/admin/appearance/skins')).body;
    expect(page.bootswatchSkin).toBe('flatly');
    expect(page.skins.find((s) => s.value === 'cyborg')!.allowed).toBe(false);
    expect((await kit.forum.client().get('/api/config')).body.bootswatchSkin).toBe('flatly');
    const { client: picky, user } = await kit.forum.loginAs();
    expect((await picky.put(`/api/v3/users/${user.uid}/settings`, { settings: { bootswatchSkin: 'darkly' } })).status).toBe(200);
    expect((await picky.get('/api/config')).body.bootswatchSkin).toBe('darkly');
    // A skin taken off the list: the member sees the default.
    expect((await picky.put(`/api/v3/users/${user.uid}/settings`, { settings: { bootswatchSkin: 'cyborg' } })).status).toBe(200);
    expect((await picky.get('/api/config')).body.bootswatchSkin).toBe('flatly');
    // The member's settings page offers only the allowed skins (and the forum's default).
    const offered = (await picky.get(`/api/user/${user.userslug}/settings`)).body.bootswatchSkinOptions.map((o: { value: string }) => o.value);
    expect(offered).toEqual(['', 'darkly', 'flatly']);
    // The page's head links the skin (with a client build) and its config names it.
    expect((await kit.forum.client().get('/')).text).toMatch(/skins\/flatly\.css|"bootswatchSkin":"flatly"/);
    await set({ bootswatchSkin: '', allowedSkins: '' });
  });

  it('serves custom CSS as its own file, linked only when on; a </style><script> in it stays CSS text', async () => {
    const css = 'body { color: red; }\n</style><script>alert(1)</script>';
    await set({ customCSS: css, useCustomCSS: false });
    expect((await kit.forum.client().get('/api/config')).body.customCSSUrl).toBe('');
    expect((await kit.forum.client().get('/assets/custom.css')).status).toBe(404);
    await set({ useCustomCSS: true });
    const url = (await kit.forum.client().get('/api/config')).body.customCSSUrl as string;
    expect(url).toMatch(/^\/assets\/custom\.css\?v=[0-9a-f]{16}$/);
    const file = await kit.forum.client().get(url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('text/css');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('cache-control')).toContain('immutable');
    expect(file.text).toBe(css);
    const html = (await kit.forum.client().get('/')).text;
    expect(html).toContain(url.replace('?', '?'));
    // The stylesheet never reaches the page's HTML itself.
    expect(html).not.toContain('alert(1)');
    const cp = (await kit.admin.client.get<AdminCustomisePage>('/api/admin/appearance/customise')).body;
    expect(cp.customCSS).toBe(css);
    await set({ useCustomCSS: false });
  });

  it('sanitises the custom header HTML like posts and shows it on public pages when on', async () => {
    await set({
      customHTML: '<p class="lead">Welcome <a href="/tos" onclick="x()">rules</a></p><script>alert(2)</script><img src="javascript:alert(3)">',
      useCustomHTML: true,
    });
    const config = (await kit.forum.client().get('/api/config')).body;
    expect(config.customHTML).toContain('Welcome');
    expect(config.customHTML).toContain('href="/tos"');
    expect(config.customHTML).not.toMatch(/script|onclick|javascript:/);
    const html = (await kit.forum.client().get('/')).text;
    expect(html).toContain('Welcome');
    expect(html).not.toContain('alert(2)');
    await set({ useCustomHTML: false });
    expect((await kit.forum.client().get('/api/config')).body.customHTML).toBe('');
  });

  it('serves custom JavaScript only while "enable custom JavaScript" is on', async () => {
    await set({ customJS: 'console.log("hi")', useCustomJS: false });
    expect((await kit.forum.client().get('/assets/custom.js')).status).toBe(404);
    expect((await kit.forum.client().get('/api/config')).body.customJSUrl).toBe('');
    await set({ useCustomJS: true });
    const url = (await kit.forum.client().get('/api/config')).body.customJSUrl as string;
    const js = await kit.forum.client().get(url);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect(js.text).toBe('console.log("hi")');
    await set({ useCustomJS: false });
    expect((await kit.forum.client().get('/assets/custom.js')).status).toBe(404);
  });

  it('a disabled plugin stops: emoji off leaves :smile: as text in new posts; markdown cannot be turned off', async () => {
    const cid = await makeCategory(kit.forum.ctx);
    expect((await kit.admin.client.put('/api/v3/admin/settings/plugins%3Adisabled', { value: 'markdown' })).status).toBe(400);
    expect((await member.put('/api/v3/admin/settings/plugins%3Adisabled', { value: 'emoji' })).status).toBe(403);
    expect((await kit.admin.client.put('/api/v3/admin/settings/plugins%3Adisabled', { value: 'emoji' })).status).toBe(200);
    const off = await postTopic(kit.admin.client, cid, { content: 'Hello there :smile: friends' });
    const html = async (pid: number) =>
      (await kit.forum.ctx.db.selectFrom('posts').select('content_html').where('pid', '=', pid).executeTakeFirstOrThrow()).content_html;
    expect(await html(off.mainPid)).toContain(':smile:');
    expect((await kit.admin.client.get<AdminPluginsPage>('/api/admin/extend/plugins')).body.installed.find((p) => p.id === 'emoji')!.active).toBe(false);
    await kit.admin.client.put('/api/v3/admin/settings/plugins%3Adisabled', { value: '' });
    const on = await postTopic(kit.admin.client, cid, { content: 'Hello there :smile: friends' });
    expect(await html(on.mainPid)).not.toContain(':smile:');
  });

  it('uploads a logo (re-encoded, referenced) used in the sidebar and the favicon in the head; refuses a non-image and members', async () => {
    // Until one is uploaded, the head links the forum's own icon (so browsers never ask for a missing /favicon.ico).
    expect((await kit.forum.client().get('/')).text).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg">');
    const own = await kit.forum.client().get('/favicon.svg');
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/svg+xml');
    expect(own.text).toMatch(/^<svg [^>]*>/);
    expect(own.text).not.toMatch(/<script/i);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 40, b: 90 } } })
      .png()
      .toBuffer();
    expect((await send(member, '/api/admin/uploadlogo', 'logo.png', png)).status).toBe(403);
    expect((await send(kit.forum.client(), '/api/admin/uploadlogo', 'logo.png', png)).status).toBeGreaterThanOrEqual(400);
    expect((await send(kit.admin.client, '/api/admin/uploadlogo', 'logo.png', Buffer.from('not an image at all'))).status).toBe(400);
    const up = await send(kit.admin.client, '/api/admin/uploadlogo', 'logo.png', png);
    expect(up.status).toBe(200);
    const url = up.body.response.url as string;
    expect(url).toMatch(/^\/assets\/uploads\/files\//);
    const fav = await send(kit.admin.client, '/api/admin/uploadfavicon', 'fav.png', png);
    expect(fav.status).toBe(200);
    const config = (await kit.forum.client().get('/api/config')).body;
    expect(config.brand.logo).toBe(url);
    expect(config.brand.favicon).toBe(fav.body.response.url);
    expect((await kit.forum.client().get(url)).status).toBe(200);
    const html = (await kit.forum.client().get('/')).text;
    expect(html).toContain(url);
    expect(html).toContain(`<link rel="icon" href="${fav.body.response.url}">`);
    expect(html).not.toContain('/favicon.svg');
    const refs = await kit.forum.ctx.db.selectFrom('upload_refs').select('path').where('kind', '=', 'brand').execute();
    expect(refs).toHaveLength(2);
    expect((await kit.admin.client.get<AdminCustomisePage>('/api/admin/appearance/customise')).body.brand['brand:logo']).toBe(url);
  });

  it('stores the theme options and gives them to the client', async () => {
    expect((await set({ 'harmony:openSidebars': 'maybe' })).status).toBe(400);
    await set({ 'harmony:openSidebars': true, 'harmony:autohideBottombar': false });
    const config = (await kit.forum.client().get('/api/config')).body;
    expect(config.openSidebars).toBe('on');
    expect(config.autohideBottombar).toBe(false);
    const page = (await kit.admin.client.get<AdminPluginSettingsPage>('/api/admin/plugins/harmony')).body;
    expect(page.fields.find((f) => f.key === 'harmony:openSidebars')!.value).toBe(true);
  });
});
