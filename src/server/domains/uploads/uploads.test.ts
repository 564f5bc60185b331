import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SYSTEM } from '../../setup.js';
import { startTestForum, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import type { UserRow } from '../users/store.js';
import { ORPHAN_GRACE_MS } from './service.js';

interface Part {
  name: string;
  bytes: Buffer;
  type?: string;
}

/** Sends files as a browser's form does (multipart, field `files[]`), with the client's cookies and CSRF token. */
async function send(client: HttpClient, url: string, parts: Part[]) {
  const form = new FormData();
  for (const p of parts) form.append('files[]', new Blob([new Uint8Array(p.bytes)], { type: p.type ?? 'application/octet-stream' }), p.name);
  const csrf = client.csrf ?? (await client.refreshCsrf());
  const res = await fetch(client.baseUrl + url, {
    method: 'POST',
    body: form,
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': csrf },
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) as any };
}

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer();

describe('uploads', () => {
  let forum: TestForum;
  let member: { client: HttpClient; user: UserRow };
  let cid: number;
  let uploadsDir: string;

  const files = () => {
    const out: string[] = [];
    const walk = (d: string) => {
      if (!existsSync(d)) return;
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(d, e.name));
        else out.push(e.name);
      }
    };
    walk(uploadsDir);
    return out;
  };
  const rowCount = async () => Number((await forum.ctx.db.selectFrom('uploads').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const fetchFile = (url: string) => fetch(new URL(url, forum.baseUrl));

  beforeAll(async () => {
    forum = await startTestForum();
    uploadsDir = path.join(forum.ctx.config.dataDir, 'uploads');
    cid = (await forum.ctx.categories.create(SYSTEM, { name: 'Uploads' })).cid;
    member = await forum.loginAs();
  });
  afterAll(async () => forum?.close());
  beforeEach(async () => {
    await forum.ctx.settings.set({ maximumFileSize: 2048, allowedFileExtensions: 'png,jpg,gif,webp,pdf,txt', maximumImagePixels: 40_000_000, resizeImageWidth: 1920, allowTopicsThumbnail: true });
  });

  it('takes a PNG, scales it to the maximum width, answers NodeBB shape and serves it inert and cached', async () => {
    const res = await send(member.client, '/api/post/upload', [{ name: 'wide.png', bytes: await png(2400, 300), type: 'image/png' }]);
    expect(res.status).toBe(200);
    expect(res.body.status).toEqual({ code: 'ok', message: 'OK' });
    expect(res.body.response.images).toHaveLength(1);
    const { url, name } = res.body.response.images[0];
    expect(name).toBe('wide.png');
    expect(url).toMatch(/^\/assets\/uploads\/files\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png$/);
    const served = await fetchFile(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect(served.headers.get('cache-control')).toContain('immutable');
    expect(served.headers.get('content-disposition')).toBeNull();
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta.width).toBe(1920);
    expect(meta.format).toBe('png');
    // The same bytes again share the file; the member has a row for each.
    const again = await send(member.client, '/api/post/upload', [{ name: 'again.png', bytes: await png(2400, 300) }]);
    expect(again.body.response.images[0].url).toBe(url);
  });

  it('strips EXIF, GPS included, from a JPEG', async () => {
    const original = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3366aa' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'PhoneMaker', Model: 'Spy 3000' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' } })
      .toBuffer();
    const before = await sharp(original).metadata();
    expect(before.exif?.includes(Buffer.from('PhoneMaker'))).toBe(true);
    // The GPS IFD pointer (tag 0x8825) is there, in either byte order.
    expect(before.exif!.includes(Buffer.from([0x88, 0x25])) || before.exif!.includes(Buffer.from([0x25, 0x88]))).toBe(true);
    const res = await send(member.client, '/api/post/upload', [{ name: 'holiday.jpeg', bytes: original, type: 'image/jpeg' }]);
    expect(res.status).toBe(200);
    const url: string = res.body.response.images[0].url;
    expect(url).toMatch(/\.jpg$/);
    const served = Buffer.from(await (await fetchFile(url)).arrayBuffer());
    const after = await sharp(served).metadata();
    expect(after.format).toBe('jpeg');
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(served.includes(Buffer.from('PhoneMaker'))).toBe(false);
    expect(served.includes(Buffer.from('Exif\0'))).toBe(false);
  });

  it('takes GIF and WebP images, and several files at once', async () => {
    const gif = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#00ff00' } }).gif().toBuffer();
    const webp = await sharp({ create: { width: 50, height: 20, channels: 4, background: '#0000ff80' } }).webp().toBuffer();
    const res = await send(member.client, '/api/post/upload', [
      { name: 'anim.gif', bytes: gif },
      { name: 'pic.webp', bytes: webp },
    ]);
    expect(res.status).toBe(200);
    const urls = res.body.response.images.map((i: { url: string }) => i.url);
    expect(urls[0]).toMatch(/\.gif$/);
    expect(urls[1]).toMatch(/\.webp$/);
    expect((await fetchFile(urls[0])).headers.get('content-type')).toBe('image/gif');
    expect((await fetchFile(urls[1])).headers.get('content-type')).toBe('image/webp');
  });

  it('refuses a renamed executable, an unknown type, a broken image and an image bomb, storing nothing', async () => {
    const filesBefore = files().length;
    const rowsBefore = await rowCount();
    // An admin holds every upload privilege: what refuses these is the type check.
    const admin = await forum.loginAs({ admin: true });
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(200, 1)]);
    const pe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58, 0), Buffer.from([0x80, 0, 0, 0]), Buffer.alloc(64, 0), Buffer.from('PE\0\0'), Buffer.from([0x4c, 0x01]), Buffer.alloc(300, 0)]);
    for (const [name, bytes] of [['cat.png', elf], ['dog.png', pe], ['notes.exe', await png(10, 10)], ['script.sh', Buffer.from('#!/bin/sh\nrm -rf /\n')]] as const) {
      const res = await send(admin.client, '/api/post/upload', [{ name, bytes }]);
      expect(res.status, name).toBe(400);
      expect(res.body.status.key, name).toBe('error:invalid-file-type');
    }
    const broken = Buffer.concat([(await png(100, 100)).subarray(0, 60), Buffer.alloc(400, 7)]);
    const b = await send(member.client, '/api/post/upload', [{ name: 'broken.png', bytes: broken }]);
    expect(b.status).toBe(400);
    expect(b.body.status.key).toBe('error:invalid-image');
    await forum.ctx.settings.set({ maximumImagePixels: 1_000_000 });
    const bomb = await send(member.client, '/api/post/upload', [{ name: 'bomb.png', bytes: await png(2000, 2000) }]);
    expect(bomb.status).toBe(400);
    expect(bomb.body.status.key).toBe('error:image-too-large');
    // A good file with a bad one: neither is kept.
    const mixed = await send(member.client, '/api/post/upload', [
      { name: 'fine.png', bytes: await png(11, 13) },
      { name: 'bad.png', bytes: elf },
    ]);
    expect(mixed.status).toBe(400);
    expect(files().length).toBe(filesBefore);
    expect(await rowCount()).toBe(rowsBefore);
  });

  it('answers 413 error:file-too-big over maximumFileSize, storing nothing', async () => {
    await forum.ctx.settings.set({ maximumFileSize: 64 });
    const filesBefore = files().length;
    const rowsBefore = await rowCount();
    const res = await send(member.client, '/api/post/upload', [{ name: 'big.txt', bytes: Buffer.alloc(300 * 1024, 'a') }]);
    expect(res.status).toBe(413);
    expect(res.body.status.key).toBe('error:file-too-big');
    expect(res.body.status.params).toEqual([64]);
    expect(files().length).toBe(filesBefore);
    expect(await rowCount()).toBe(rowsBefore);
  });

  it('refuses guests and members without the upload privileges', async () => {
    const guest = forum.client();
    const res = await send(guest, '/api/post/upload', [{ name: 'a.png', bytes: await png(5, 5) }]);
    expect(res.status).toBe(401);
    await forum.ctx.privileges.take(0, ['upload:post:image'], 'registered-users');
    try {
      const denied = await send(member.client, '/api/post/upload', [{ name: 'a.png', bytes: await png(5, 5) }]);
      expect(denied.status).toBe(403);
    } finally {
      await forum.ctx.privileges.give(0, ['upload:post:image'], 'registered-users');
    }
    // upload:post:file is not a member default: a PDF is refused, an image accepted.
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    expect((await send(member.client, '/api/post/upload', [{ name: 'doc.pdf', bytes: pdf }])).status).toBe(403);
  });

  it('serves an SVG sandboxed and other files as attachments', async () => {
    const admin = await forum.loginAs({ admin: true });
    await forum.ctx.settings.set({ allowedFileExtensions: 'png,txt,svg' });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>');
    const s = await send(admin.client, '/api/post/upload', [{ name: 'x.svg', bytes: svg }]);
    expect(s.status).toBe(200);
    const served = await fetchFile(s.body.response.images[0].url);
    expect(served.headers.get('content-type')).toBe('image/svg+xml');
    expect(served.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
    const t = await send(admin.client, '/api/post/upload', [{ name: 'notes.txt', bytes: Buffer.from('hello <script>alert(1)</script>') }]);
    expect(t.status).toBe(200);
    const text = await fetchFile(t.body.response.images[0].url);
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(text.headers.get('content-disposition')).toBe('attachment');
    expect((await fetchFile('/assets/uploads/files/../../secret')).status).toBe(404);
    expect((await fetchFile(`/assets/uploads/files/00/00/${'0'.repeat(64)}.png`)).status).toBe(404);
  });

  it('lists and deletes the member\'s uploads (API and account page); others may not', async () => {
    const own = await forum.loginAs();
    const up = await send(own.client, '/api/post/upload', [{ name: 'mine.png', bytes: await png(33, 17) }]);
    const url: string = up.body.response.images[0].url;
    const list = await own.client.get('/api/v3/uploads');
    expect(list.status).toBe(200);
    expect(list.body.response.count).toBe(1);
    const item = list.body.response.uploads[0];
    expect(item).toMatchObject({ name: 'mine.png', url, mime: 'image/png', width: 33, height: 17, isImage: true });
    expect(item.thumb).toMatch(/\/assets\/uploads\/thumbs\/.*\.webp$/);
    const page = await own.client.get(`/api/user/${own.user.userslug}/uploads`);
    expect(page.status).toBe(200);
    expect(page.body.uploads.map((u: { name: string; url: string }) => [u.name, u.url])).toEqual([['mine.png', url]]);
    expect(page.body.privateUploads).toBe(false);
    expect(page.body.pagination.currentPage).toBe(1);
    expect(page.body.template.name).toBe('account/uploads');
    expect((await member.client.get(`/api/user/${own.user.userslug}/uploads`)).status).toBe(403);
    expect((await member.client.get(`/api/v3/uploads?uid=${own.user.uid}`)).status).toBe(403);
    expect((await member.client.del(`/api/v3/uploads/${item.id}`)).status).toBe(403);
    expect((await own.client.del(`/api/v3/uploads/${item.id}`)).status).toBe(200);
    expect((await fetchFile(url)).status).toBe(404);
    expect((await fetchFile(item.thumb)).status).toBe(404);
    expect((await own.client.get('/api/v3/uploads')).body.response.count).toBe(0);
    expect((await own.client.del(`/api/v3/uploads/${item.id}`)).status).toBe(404);
  });

  it('keeps topic thumbnails: upload, list, topic lists, order, remove; only the author or a moderator', async () => {
    const { topic } = await forum.ctx.topics.create(await forum.ctx.privileges.viewer(member.user.uid), { cid, title: 'A topic with thumbnails', content: 'Thumbnails below' });
    const tid = topic.tid;
    const a = await send(member.client, `/api/v3/topics/${tid}/thumbs`, [{ name: 'first.png', bytes: await png(64, 64) }]);
    expect(a.status).toBe(200);
    expect(a.body.response.images[0]).toMatchObject({ name: 'first.png' });
    const b = await send(member.client, `/api/v3/topics/${tid}/thumbs`, [{ name: 'second.png', bytes: await png(65, 64) }]);
    const [urlA, urlB] = [a.body.response.images[0].url, b.body.response.images[0].url];
    const list = await member.client.get(`/api/v3/topics/${tid}/thumbs`);
    expect(list.body.response.map((t: { url: string }) => t.url)).toEqual([urlA, urlB]);
    expect(list.body.response[0]).toMatchObject({ id: String(tid), name: 'first.png', path: urlA.replace('/assets/uploads/', '') });
    // Topic lists and the topic page carry them.
    const recent = await member.client.get('/api/recent');
    const listed = recent.body.topics.find((t: { tid: number }) => t.tid === tid);
    expect(listed.thumbs.map((t: { url: string }) => t.url)).toEqual([urlA, urlB]);
    expect(listed.numThumbs).toBe(2);
    // The category's list and the member's unread list too (another member's topic is unread to them).
    const inCategory = (await member.client.get(`/api/category/${cid}`)).body.topics.find((t: { tid: number }) => t.tid === tid);
    expect(inCategory.thumbs.map((t: { url: string }) => t.url)).toEqual([urlA, urlB]);
    const reader = await forum.loginAs();
    const unread = (await reader.client.get('/api/unread')).body.topics.find((t: { tid: number }) => t.tid === tid);
    expect(unread.thumbs.map((t: { url: string }) => t.url)).toEqual([urlA, urlB]);
    const topicPage = await member.client.get(`/api/topic/${tid}`);
    expect(topicPage.body.thumbs).toHaveLength(2);
    // Reorder, by path.
    const pathB = list.body.response[1].path;
    const ordered = await member.client.put(`/api/v3/topics/${tid}/thumbs/order`, { path: pathB, order: 0 });
    expect(ordered.status).toBe(200);
    expect(ordered.body.response.map((t: { url: string }) => t.url)).toEqual([urlB, urlA]);
    // The list read just before shows the new order at once (the member list cache drops on thumbnail changes).
    const relisted = (await member.client.get('/api/recent')).body.topics.find((t: { tid: number }) => t.tid === tid);
    expect(relisted.thumbs.map((t: { url: string }) => t.url)).toEqual([urlB, urlA]);
    // Another member may not touch them.
    const other = await forum.loginAs();
    expect((await other.client.del(`/api/v3/topics/${tid}/thumbs`, { path: pathB })).status).toBe(403);
    expect((await send(other.client, `/api/v3/topics/${tid}/thumbs`, [{ name: 'x.png', bytes: await png(8, 8) }])).status).toBe(403);
    // Remove one; an unknown path is a 404.
    const removed = await member.client.del(`/api/v3/topics/${tid}/thumbs`, { path: pathB });
    expect(removed.body.response.map((t: { url: string }) => t.url)).toEqual([urlA]);
    expect((await member.client.del(`/api/v3/topics/${tid}/thumbs`, { path: pathB })).status).toBe(404);
    // Choose an image already uploaded.
    const chosen = await member.client.put(`/api/v3/topics/${tid}/thumbs`, { path: urlB });
    expect(chosen.body.response.map((t: { url: string }) => t.url)).toEqual([urlA, urlB]);
    // Off by setting.
    await forum.ctx.settings.set({ allowTopicsThumbnail: false });
    const off = await send(member.client, `/api/v3/topics/${tid}/thumbs`, [{ name: 'y.png', bytes: await png(9, 9) }]);
    expect(off.status).toBe(403);
    expect(off.body.status.key).toBe('error:topic-thumbnails-are-disabled');
  });

  it("a topic's author may choose another member's image as thumbnail only when a post of the topic uses it", async () => {
    const author = member;
    const poster = await forum.loginAs();
    const { topic } = await forum.ctx.topics.create(await forum.ctx.privileges.viewer(author.user.uid), { cid, title: 'Thumbnails from replies', content: 'Replies bring pictures' });
    const up = async (w: number) => (await send(poster.client, '/api/post/upload', [{ name: `r${w}.png`, bytes: await png(w, 23) }])).body.response.images[0].url as string;
    const [used, elsewhere] = [await up(151), await up(152)];
    await forum.ctx.posts.reply(await forum.ctx.privileges.viewer(poster.user.uid), topic.tid, { content: `See ![p](${used})` });
    await forum.ctx.hooks.idle();
    expect((await author.client.put(`/api/v3/topics/${topic.tid}/thumbs`, { path: elsewhere })).status).toBe(404);
    const chosen = await author.client.put(`/api/v3/topics/${topic.tid}/thumbs`, { path: used });
    expect(chosen.status).toBe(200);
    expect(chosen.body.response.map((t: { url: string }) => t.url)).toEqual([used]);
  });

  it('a topic without chosen thumbnails shows the first image of its main post', async () => {
    const viewer = await forum.ctx.privileges.viewer(member.user.uid);
    const up = async (w: number) => (await send(member.client, '/api/post/upload', [{ name: `pic${w}.png`, bytes: await png(w, 30) }])).body.response.images[0].url as string;
    const [first, second] = [await up(141), await up(142)];
    const { topic } = await forum.ctx.topics.create(viewer, { cid, title: 'Holiday pictures here', content: `Text, then ![one](${first}) and ![two](${second})` });
    await forum.ctx.hooks.idle();
    const listed = (await member.client.get('/api/recent')).body.topics.find((t: { tid: number }) => t.tid === topic.tid);
    expect(listed.thumbs.map((t: { url: string; name: string }) => [t.url, t.name])).toEqual([[first, 'pic141.png']]);
    const all = await member.client.get(`/api/v3/topics/${topic.tid}/thumbs`);
    expect(all.body.response.map((t: { url: string }) => t.url).sort()).toEqual([first, second].sort());
    expect((await member.client.get(`/api/v3/topics/${topic.tid}/thumbs?thumbsOnly=1`)).body.response).toEqual([]);
    // Editing the main post changes it.
    await forum.ctx.posts.edit(viewer, topic.main_pid, { content: `Now only ![two](${second})` });
    await forum.ctx.hooks.idle();
    const after = (await member.client.get('/api/recent')).body.topics.find((t: { tid: number }) => t.tid === topic.tid);
    expect(after.thumbs.map((t: { url: string }) => t.url)).toEqual([second]);
  });

  it('the clean-up job removes files nothing uses after the grace period, keeping used ones', async () => {
    const writer = await forum.loginAs();
    const viewer = await forum.ctx.privileges.viewer(writer.user.uid);
    const up = async (w: number) => (await send(writer.client, '/api/post/upload', [{ name: `f${w}.png`, bytes: await png(w, 21) }])).body.response.images[0].url as string;
    const [unused, inPost, inEdit, missed] = [await up(101), await up(102), await up(103), await up(104)];
    const { topic } = await forum.ctx.topics.create(viewer, { cid, title: 'Pictures of things', content: `Look ![a](${inPost})` });
    const reply = await forum.ctx.posts.reply(viewer, topic.tid, { content: 'no picture yet' });
    await forum.ctx.posts.edit(viewer, reply.post.pid, { content: `now with ![b](${inEdit})` });
    await forum.ctx.hooks.idle();
    // A reference whose listener never ran (a crash): the job's last check finds it in the member's posts.
    const lost = await forum.ctx.posts.reply(viewer, topic.tid, { content: `lost ![c](${missed})` });
    await forum.ctx.hooks.idle();
    await forum.ctx.db.deleteFrom('upload_refs').where('kind', '=', 'post').where('ref_id', '=', lost.post.pid).execute();

    const exists = async (url: string) => (await fetchFile(url)).status === 200;
    expect(await forum.ctx.uploads.clean(Date.now())).toBe(0); // within the grace period
    const later = Date.now() + ORPHAN_GRACE_MS + 60_000;
    await forum.ctx.uploads.clean(later);
    expect(await exists(unused)).toBe(false);
    expect(await exists(inPost)).toBe(true);
    expect(await exists(inEdit)).toBe(true);
    expect(await exists(missed)).toBe(true);
    const names = (await writer.client.get('/api/v3/uploads')).body.response.uploads.map((u: { name: string }) => u.name).sort();
    expect(names).toEqual(['f102.png', 'f103.png', 'f104.png']);
    // The job is declared as a recurring job.
    const job = await forum.ctx.db.selectFrom('jobs').selectAll().where('name', '=', 'uploads.clean').executeTakeFirst();
    expect(job === undefined || job.name === 'uploads.clean').toBe(true);
  });

  it('a picture upload becomes the member\'s picture, square 512 px; only the member or an admin; images only', async () => {
    const me = await forum.loginAs();
    const first = await send(me.client, `/api/v3/users/${me.user.uid}/picture`, [{ name: 'me.jpg', bytes: await sharp({ create: { width: 900, height: 600, channels: 3, background: '#336699' } }).jpeg().withExif({ IFD0: { Make: 'PhoneMaker' } }).toBuffer() }]);
    expect(first.status).toBe(200);
    const oldUrl: string = first.body.response.images[0].url;
    expect(oldUrl).toMatch(/^\/assets\/uploads\/files\/.*\.jpg$/);
    const served = Buffer.from(await (await fetchFile(oldUrl)).arrayBuffer());
    const meta = await sharp(served).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([512, 512, 'jpeg']);
    expect(meta.exif).toBeUndefined();
    expect((await forum.ctx.users.get(me.user.uid))!.picture).toBe(oldUrl);
    expect((await me.client.get(`/api/v3/users/${me.user.uid}`)).body.response.picture).toBe(oldUrl);
    await forum.ctx.hooks.idle();
    const refs = (p: string) => forum.ctx.db.selectFrom('upload_refs').selectAll().where('path', '=', p).execute();
    const rel = (u: string) => u.replace(/^.*\/assets\/uploads\//, '');
    expect((await refs(rel(oldUrl))).map((r) => [r.kind, r.ref_id])).toEqual([['picture', me.user.uid]]);
    // A new picture: the old file is no longer used, and the clean-up removes it, keeping the new one.
    const second = await send(me.client, `/api/v3/users/${me.user.uid}/picture`, [{ name: 'tall.png', bytes: await png(300, 1000) }]);
    expect(second.status).toBe(200);
    const newUrl: string = second.body.response.images[0].url;
    expect(await sharp(Buffer.from(await (await fetchFile(newUrl)).arrayBuffer())).metadata()).toMatchObject({ width: 512, height: 512, format: 'png' });
    await forum.ctx.hooks.idle();
    expect(await refs(rel(oldUrl))).toEqual([]);
    await forum.ctx.uploads.clean(Date.now() + 2 * ORPHAN_GRACE_MS);
    expect((await fetchFile(oldUrl)).status).toBe(404);
    expect((await fetchFile(newUrl)).status).toBe(200);
    // Another member may not; an admin may; not an image is a 400; guests 401.
    const other = await forum.loginAs();
    const denied = await send(other.client, `/api/v3/users/${me.user.uid}/picture`, [{ name: 'x.png', bytes: await png(20, 20) }]);
    expect(denied.status).toBe(403);
    const admin = await forum.loginAs({ admin: true });
    expect((await send(admin.client, `/api/v3/users/${me.user.uid}/picture`, [{ name: 'y.png', bytes: await png(21, 20) }])).status).toBe(200);
    await forum.ctx.settings.set({ allowedFileExtensions: 'png,txt' });
    const text = await send(me.client, `/api/v3/users/${me.user.uid}/picture`, [{ name: 'notes.txt', bytes: Buffer.from('hello') }]);
    expect(text.status).toBe(400);
    expect(text.body.status.key).toBe('error:invalid-image');
    expect((await send(forum.client(), `/api/v3/users/${me.user.uid}/picture`, [{ name: 'z.png', bytes: await png(22, 20) }])).status).toBe(401);
  });

  it('the clean-up keeps a file a queued post names, removing an unreferenced one', async () => {
    const writer = await forum.loginAs();
    const up = async (w: number) => (await send(writer.client, '/api/post/upload', [{ name: `q${w}.png`, bytes: await png(w, 23) }])).body.response.images[0].url as string;
    const [queuedImage, unused] = [await up(151), await up(152)];
    await forum.ctx.settings.set({ postQueue: true, postQueueReputationThreshold: 0, postQueuePostCountThreshold: 1 });
    try {
      const res = await writer.client.post('/api/v3/topics', { cid, title: 'Waiting in the queue', content: `A picture ![q](${queuedImage})`, tags: [] });
      expect(res.status).toBe(200);
      expect(res.body.response.queued).toBe(true);
      await forum.ctx.hooks.idle();
      await forum.ctx.uploads.clean(Date.now() + 2 * 24 * 3600_000);
      expect((await fetchFile(queuedImage)).status).toBe(200);
      expect((await fetchFile(unused)).status).toBe(404);
    } finally {
      await forum.ctx.settings.set({ postQueue: false });
    }
  });
});
