import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GroupDetailsPage } from '../../../shared/schemas/group.js';
import { type TestMember } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import { ORPHAN_GRACE_MS } from '../uploads/service.js';
import { useForum } from '../../test/forum-kit.js';

let n = 0;

const kit = useForum();
beforeAll(async () => {
  await kit.forum.ctx.privileges.give(0, ['group:create'], 'registered-users');
});

/** Sends one file as the browser's form does (multipart, field `files[]`), with the client's cookies and CSRF token. */
async function send(client: HttpClient, url: string, name: string, bytes: Buffer) {
  const form = new FormData();
  form.append('files[]', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), name);
  const csrf = client.csrf ?? (await client.refreshCsrf());
  const res = await fetch(client.baseUrl + url, {
    method: 'POST',
    body: form,
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': csrf },
  });
  return { status: res.status, body: JSON.parse(await res.text()) as any };
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 90, b: 160 } } })
    .png()
    .toBuffer();
const fetchFile = (url: string) => fetch(kit.forum.baseUrl + url);
const rel = (u: string) => u.replace(/^.*\/assets\/uploads\//, '');
const refs = (url: string) => kit.forum.ctx.db.selectFrom('upload_refs').select(['kind', 'ref_id']).where('path', '=', rel(url)).execute();
const gidOf = async (slug: string) => (await kit.forum.ctx.db.selectFrom('groups').select('gid').where('slug', '=', slug).executeTakeFirstOrThrow()).gid;
/** Runs the hourly clean-up as if the grace period had passed. */
const cleanLater = async () => {
  await kit.forum.ctx.hooks.idle();
  await kit.forum.ctx.uploads.clean(Date.now() + 2 * ORPHAN_GRACE_MS);
};

async function newGroup(owner: TestMember) {
  const res = await owner.client.post('/api/v3/groups/', { name: `Cover crew ${++n}`, private: 0 });
  expect(res.status).toBe(200);
  return res.body.response as { name: string; slug: string };
}

describe('group cover photo', () => {
  it('gives every group a stable integer id, new and system groups alike', async () => {
    const rows = await kit.forum.ctx.db.selectFrom('groups').select(['name', 'gid']).execute();
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.every((r) => r.gid > 0)).toBe(true);
    expect(new Set(rows.map((r) => r.gid)).size).toBe(rows.length);
    const owner = await kit.forum.member();
    const g = await newGroup(owner);
    const gid = await gidOf(g.slug);
    expect(gid).toBeGreaterThan(Math.max(...rows.map((r) => r.gid)));
    // A rename keeps it.
    const renamed = await owner.client.put(`/api/v3/groups/${g.slug}`, { name: `${g.name} renamed` });
    expect(renamed.status).toBe(200);
    const row = await kit.forum.ctx.db.selectFrom('groups').select(['slug', 'gid']).where('name', '=', `${g.name} renamed`).executeTakeFirstOrThrow();
    expect(row.slug).not.toBe(g.slug);
    expect(row.gid).toBe(gid);
  });

  it('an owner uploads a cover: the page shows it, the clean-up keeps it while used and removes it once replaced', async () => {
    const owner = await kit.forum.member();
    const g = await newGroup(owner);
    const first = await send(owner.client, `/api/v3/groups/${g.slug}/cover`, 'wide.png', await png(1600, 500));
    expect(first.status).toBe(200);
    const oldUrl: string = first.body.response.images[0].url;
    expect(oldUrl).toMatch(/^\/assets\/uploads\/files\/.*\.png$/);
    const page = (await kit.forum.client().get(`/api/groups/${g.slug}`)).body as GroupDetailsPage;
    expect(page.group['cover:url']).toBe(oldUrl);
    expect(page.group['cover:thumb:url']).toBe(oldUrl);
    expect(page.group['cover:position']).toBe('50% 50%');
    await kit.forum.ctx.hooks.idle();
    expect(await refs(oldUrl)).toEqual([{ kind: 'group-cover', ref_id: await gidOf(g.slug) }]);
    await cleanLater();
    expect((await fetchFile(oldUrl)).status).toBe(200);

    // Moved: the position is kept (clamped), bad positions refused.
    const moved = await owner.client.put(`/api/v3/groups/${g.slug}/cover`, { position: '20% 130%' });
    expect(moved.status).toBe(200);
    expect(moved.body.response).toEqual({ 'cover:url': oldUrl, 'cover:thumb:url': oldUrl, 'cover:position': '20% 100%' });
    const bad = await owner.client.put(`/api/v3/groups/${g.slug}/cover`, { position: 'url(javascript:x)' });
    expect([bad.status, bad.body.status.key]).toEqual([400, 'error:invalid-data']);

    // Replaced: the old file is unused and goes; the new one stays.
    const second = await send(owner.client, `/api/v3/groups/${g.slug}/cover`, 'other.png', await png(1200, 400));
    expect(second.status).toBe(200);
    const newUrl: string = second.body.response.images[0].url;
    expect(newUrl).not.toBe(oldUrl);
    await cleanLater();
    expect(await refs(oldUrl)).toEqual([]);
    expect((await fetchFile(oldUrl)).status).toBe(404);
    expect((await fetchFile(newUrl)).status).toBe(200);

    // Removed: the group shows none and the file goes.
    const removed = await owner.client.del(`/api/v3/groups/${g.slug}/cover`);
    expect(removed.status).toBe(200);
    expect(removed.body.response['cover:url']).toBe('');
    await cleanLater();
    expect((await fetchFile(newUrl)).status).toBe(404);
    expect(((await kit.forum.client().get(`/api/groups/${g.slug}`)).body as GroupDetailsPage).group['cover:url']).toBe('');
  });

  it('a deleted group no longer keeps its cover file', async () => {
    const owner = await kit.forum.member();
    const g = await newGroup(owner);
    const up = await send(owner.client, `/api/v3/groups/${g.slug}/cover`, 'c.png', await png(900, 300));
    const url: string = up.body.response.images[0].url;
    await cleanLater();
    expect((await fetchFile(url)).status).toBe(200);
    expect((await owner.client.del(`/api/v3/groups/${g.slug}`)).status).toBe(200);
    await cleanLater();
    expect(await refs(url)).toEqual([]);
    expect((await fetchFile(url)).status).toBe(404);
  });

  it('only owners and admins may change it; guests 401, members 403 with the key', async () => {
    const owner = await kit.forum.member();
    const g = await newGroup(owner);
    const member = await kit.forum.member();
    expect((await member.client.put(`/api/v3/groups/${g.slug}/membership/${member.user.uid}`)).status).toBe(200);
    const denied = await send(member.client, `/api/v3/groups/${g.slug}/cover`, 'x.png', await png(40, 20));
    expect([denied.status, denied.body.status.key]).toEqual([403, 'error:no-privileges']);
    const guest = await send(kit.forum.client(), `/api/v3/groups/${g.slug}/cover`, 'x.png', await png(40, 20));
    expect([guest.status, guest.body.status.key]).toEqual([401, 'error:not-logged-in']);
    for (const call of [
      () => member.client.put(`/api/v3/groups/${g.slug}/cover`, { position: '0% 0%' }),
      () => member.client.del(`/api/v3/groups/${g.slug}/cover`),
    ]) {
      const res = await call();
      expect([res.status, res.body.status.key]).toEqual([403, 'error:no-privileges']);
    }
    const missing = await send(owner.client, '/api/v3/groups/no-such-group/cover', 'x.png', await png(40, 20));
    expect([missing.status, missing.body.status.key]).toEqual([404, 'error:no-group']);
    expect(((await kit.forum.client().get(`/api/groups/${g.slug}`)).body as GroupDetailsPage).group['cover:url']).toBe('');
    const byAdmin = await send(kit.admin.client, `/api/v3/groups/${g.slug}/cover`, 'a.png', await png(41, 20));
    expect(byAdmin.status).toBe(200);
    expect(((await kit.forum.client().get(`/api/groups/${g.slug}`)).body as GroupDetailsPage).group['cover:url']).toBe(byAdmin.body.response.images[0].url);
  });

  it('refuses what is not an image, and a file over the size limit', async () => {
    const owner = await kit.forum.member();
    const g = await newGroup(owner);
    await kit.forum.ctx.settings.set({ allowedFileExtensions: 'png,txt' });
    try {
      const text = await send(owner.client, `/api/v3/groups/${g.slug}/cover`, 'notes.txt', Buffer.from('hello there'));
      expect([text.status, text.body.status.key]).toEqual([400, 'error:invalid-image']);
      // A script named as a picture: the bytes are sniffed.
      const fake = await send(owner.client, `/api/v3/groups/${g.slug}/cover`, 'fake.png', Buffer.from('<script>alert(1)</script>'));
      expect(fake.status).toBe(400);
      expect(fake.body.status.key).toMatch(/^error:/);
    } finally {
      await kit.forum.ctx.settings.set({ allowedFileExtensions: 'png,jpg,jpeg,gif,webp' });
    }
    await kit.forum.ctx.settings.set({ maximumFileSize: 1 });
    try {
      const big = await send(owner.client, `/api/v3/groups/${g.slug}/cover`, 'big.png', Buffer.concat([await png(10, 10), Buffer.alloc(4096, 1)]));
      expect([big.status, big.body.status.key]).toEqual([413, 'error:file-too-big']);
    } finally {
      await kit.forum.ctx.settings.set({ maximumFileSize: 2048 });
    }
    expect(((await kit.forum.client().get(`/api/groups/${g.slug}`)).body as GroupDetailsPage).group['cover:url']).toBe('');
  });
});
