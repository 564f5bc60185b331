import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../test/http-client.js';
import { makeCategory, postTopic } from '../topics/testing.js';
import { useForum } from '../../test/forum-kit.js';

// NodeBB's admin routes: PUT …/plugins/{pluginId}/active and the refused install/upgrade,
// GET|PUT /admin/tokens/{token} and its roll, DELETE /files and PUT /files/folder.

const kit = useForum({ members: ['alice'] });

/** A client that sends a bearer token. */
function bearer(token: string): HttpClient {
  const c = new HttpClient(kit.forum.baseUrl);
  c.bearer = token;
  return c;
}

describe('admin plugin routes', () => {
  it('deactivates and activates a toggleable built-in plugin: new posts render with or without it', async () => {
    const cid = await makeCategory(kit.forum.ctx, 'Plugin toggles');
    const off = await kit.admin.client.put('/api/v3/admin/plugins/nodebb-plugin-emoji/active', { active: false });
    expect(off.status).toBe(200);
    expect((await kit.forum.ctx.settings.get())['plugins:disabled']).toBe('emoji');
    const plain = await postTopic(kit.alice.client, cid, { content: 'Shipped it :tada: today.' });
    expect(
      (await kit.forum.ctx.db.selectFrom('posts').select('content_html').where('pid', '=', plain.mainPid).executeTakeFirstOrThrow()).content_html,
    ).toContain(':tada:');
    expect((await kit.admin.client.put('/api/v3/admin/plugins/emoji/active', { active: true })).status).toBe(200);
    expect((await kit.forum.ctx.settings.get())['plugins:disabled']).toBe('');
    const rendered = await postTopic(kit.alice.client, cid, { content: 'Shipped it :tada: today.' });
    expect(
      (await kit.forum.ctx.db.selectFrom('posts').select('content_html').where('pid', '=', rendered.mainPid).executeTakeFirstOrThrow()).content_html,
    ).toContain('🎉');
  });

  it('refuses to turn off a core plugin, unknown plugins, members, and any install or upgrade', async () => {
    const core = await kit.admin.client.put('/api/v3/admin/plugins/markdown/active', { active: false });
    expect(core.status).toBe(400);
    expect(core.body.status.key).toBe('error:plugin-cannot-be-disabled');
    expect((await kit.admin.client.put('/api/v3/admin/plugins/markdown/active', { active: true })).status).toBe(200);
    expect((await kit.admin.client.put('/api/v3/admin/plugins/nodebb-plugin-nope/active', { active: true })).status).toBe(404);
    expect((await kit.alice.client.put('/api/v3/admin/plugins/emoji/active', { active: false })).status).toBe(403);
    for (const [method, url] of [
      ['POST', '/api/v3/admin/plugins/nodebb-plugin-foo'],
      ['PUT', '/api/v3/admin/plugins/nodebb-plugin-foo/upgrade'],
      ['DELETE', '/api/v3/admin/plugins/emoji'],
    ] as const) {
      const res = await kit.admin.client.request(method, url, { version: '1.0.0' });
      expect(res.status, url).toBe(400);
      expect(res.body.status.key).toBe('error:plugins-built-in-only');
      expect((await kit.alice.client.request(method, url, { version: '1.0.0' })).status).toBe(403);
    }
  });
});

describe('admin token routes', () => {
  it('reads, updates and rolls a token: the rolled one stops working, the new one acts as the member', async () => {
    const made = await kit.admin.client.post('/api/v3/admin/tokens', { uid: kit.alice.user.uid, description: 'bot' });
    const token = made.body.response.token as string;
    expect((await bearer(token).get('/api/v3/users/' + kit.alice.user.uid)).status).toBe(200);

    const got = await kit.admin.client.get(`/api/v3/admin/tokens/${token}`);
    expect(got.status).toBe(200);
    expect(got.body.response).toMatchObject({ uid: kit.alice.user.uid, description: 'bot', token, lastSeen: expect.any(Number) });

    const put = await kit.admin.client.put(`/api/v3/admin/tokens/${token}`, { description: 'the bot' });
    expect(put.body.response).toMatchObject({ uid: kit.alice.user.uid, description: 'the bot' });
    expect((await kit.admin.client.get(`/api/v3/admin/tokens/${token}`)).body.response.description).toBe('the bot');

    const rolled = await kit.admin.client.post(`/api/v3/admin/tokens/${token}/roll`);
    expect(rolled.status).toBe(200);
    const fresh = rolled.body.response.token as string;
    expect(fresh).not.toBe(token);
    expect(rolled.body.response).toMatchObject({ uid: kit.alice.user.uid, description: 'the bot' });
    expect((await bearer(token).put(`/api/v3/users/${kit.alice.user.uid}/settings`, { settings: { showemail: 1 } })).status).toBe(401);
    expect((await bearer(fresh).put(`/api/v3/users/${kit.alice.user.uid}/settings`, { settings: { showemail: 1 } })).status).toBe(200);
    expect((await kit.admin.client.get(`/api/v3/admin/tokens/${token}`)).status).toBe(404);
  });

  it('makes a member token a master token, and refuses members', async () => {
    const token = (await kit.admin.client.post('/api/v3/admin/tokens', { uid: kit.alice.user.uid })).body.response.token as string;
    expect((await kit.alice.client.get(`/api/v3/admin/tokens/${token}`)).status).toBe(403);
    expect((await kit.admin.client.put(`/api/v3/admin/tokens/${token}`, { uid: 0 })).body.response.uid).toBe(0);
    expect((await kit.forum.ctx.auth.masterTokens()).length).toBeGreaterThan(0);
    expect((await kit.admin.client.put(`/api/v3/admin/tokens/${token}`, { uid: 999999 })).status).toBe(404);
  });
});

describe('admin file routes', () => {
  it('deletes an uploaded file by its path; folders are refused', async () => {
    const bytes = await sharp({ create: { width: 12, height: 12, channels: 3, background: { r: 1, g: 2, b: 3 } } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('files[]', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'gone.png');
    const csrf = kit.alice.client.csrf ?? (await kit.alice.client.refreshCsrf());
    const up = await fetch(kit.forum.baseUrl + '/api/post/upload', {
      method: 'POST',
      body: form,
      headers: { cookie: [...kit.alice.client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': csrf },
    });
    const url = ((await up.json()) as { response: { images: { url: string }[] } }).response.images[0]!.url;
    expect((await fetch(new URL(url, kit.forum.baseUrl))).status).toBe(200);

    expect((await kit.alice.client.del('/api/v3/files', { path: url })).status).toBe(403);
    const res = await kit.admin.client.del('/api/v3/files', { path: url });
    expect(res.status).toBe(200);
    expect((await fetch(new URL(url, kit.forum.baseUrl))).status).toBe(404);
    expect((await kit.admin.client.get('/api/v3/uploads?uid=' + kit.alice.user.uid)).body.response.uploads).toEqual([]);
    expect((await kit.admin.client.del('/api/v3/files', { path: url })).status).toBe(404);

    const folder = await kit.admin.client.put('/api/v3/files/folder', { path: '/', folderName: 'pictures' });
    expect(folder.status).toBe(400);
    expect(folder.body.status.key).toBe('error:upload-folders-unsupported');
  });
});
