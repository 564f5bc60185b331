import { existsSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../../setup.js';
import { startTestForum, TEST_PASSWORD, type TestForum, type TestMember } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import { parseCsv } from '../../test/csv.js';

let forum: TestForum;
let cid: number;
let owner: TestMember;

/** A raw GET with the client's cookies: the body as bytes (downloads are not JSON). */
async function download(client: HttpClient, url: string, method = 'GET') {
  const res = await fetch(client.baseUrl + url, { method, headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const png = (width: number) =>
  sharp({ create: { width, height: 12, channels: 3, background: { r: 20, g: 140, b: 90 } } })
    .png()
    .toBuffer();

async function uploadImage(client: HttpClient, name: string, bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.append('files[]', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  const res = await fetch(client.baseUrl + '/api/post/upload', {
    method: 'POST',
    body: form,
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': client.csrf ?? (await client.refreshCsrf()) },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { response: { images: { url: string }[] } }).response.images[0]!.url;
}

async function makeExport(client: HttpClient, uid: number, type: string) {
  const res = await client.post(`/api/v3/users/${uid}/exports/${type}`);
  expect(res.status).toBe(202);
  await forum.ctx.jobs.runDue();
  await forum.ctx.hooks.idle();
}

beforeAll(async () => {
  forum = await startTestForum();
  cid = (await forum.ctx.categories.create(SYSTEM, { name: 'Exports' })).cid;
  owner = await forum.member();
});
afterAll(async () => forum?.close());

describe('data exports', () => {
  it('exports the profile as JSON: nothing before it is made, then a notification and the file', async () => {
    const { client, user } = owner;
    await client.put(`/api/v3/users/${user.uid}`, { fullname: 'Grace Hopper', about: 'Compilers' });
    expect((await download(client, `/api/v3/users/${user.uid}/exports/profile`, 'HEAD')).status).toBe(404);
    expect((await client.get(`/api/v3/users/${user.uid}/exports/profile`)).status).toBe(404);
    await makeExport(client, user.uid, 'profile');
    expect((await download(client, `/api/v3/users/${user.uid}/exports/profile`, 'HEAD')).status).toBe(204);
    const file = await download(client, `/api/v3/users/${user.uid}/exports/profile`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('application/json');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${user.userslug}_profile.json"`);
    const json = JSON.parse(Buffer.from(file.bytes).toString('utf8'));
    expect(json.user).toMatchObject({ uid: user.uid, username: user.username, email: user.email, fullname: 'Grace Hopper', about: 'Compilers' });
    expect(json.user).not.toHaveProperty('password_hash');
    expect(json.groups).toContain('registered-users');
    const { unread } = (await client.get('/api/v3/notifications')).body.response as { unread: { bodyShort: string; path: string }[] };
    expect(unread.map((n) => [n.bodyShort, n.path])).toContainEqual(['[[notifications:data-export-ready, profile]]', `/user/${user.userslug}/data`]);
  });

  it('exports the posts as CSV with quotes, commas and line breaks kept', async () => {
    const { client, user } = owner;
    const tricky = 'He said "hello", then\nleft; 1,2,3';
    const topic = (await client.post('/api/v3/topics', { cid, title: 'Exported topic, with a comma', content: tricky, tags: [] })).body.response;
    await client.post(`/api/v3/topics/${topic.tid}`, { content: 'A plain second post for the export.' });
    await makeExport(client, user.uid, 'posts');
    const file = await download(client, `/api/v3/users/${user.uid}/exports/posts`);
    expect(file.headers.get('content-type')).toContain('text/csv');
    const rows = parseCsv(Buffer.from(file.bytes).toString('utf8'));
    expect(rows[0]).toEqual(['pid', 'tid', 'topic', 'timestamp', 'edited', 'deleted', 'upvotes', 'downvotes', 'content']);
    expect(rows).toHaveLength(3);
    expect(rows[1]![2]).toBe('Exported topic, with a comma');
    expect(rows[1]![8]).toBe(tricky);
    expect(rows[2]![8]).toBe('A plain second post for the export.');
    expect(Number(rows[1]![1])).toBe(topic.tid);
  });

  it('writes counts as numbers and defuses a post that reads as a formula', async () => {
    const { client, user } = owner;
    const topic = (await client.post('/api/v3/topics', { cid, title: '=HYPERLINK("http://x.example")', content: '-2+3 is what this post starts with', tags: [] })).body.response;
    await makeExport(client, user.uid, 'posts');
    const rows = parseCsv(Buffer.from((await download(client, `/api/v3/users/${user.uid}/exports/posts`)).bytes).toString('utf8'));
    const row = rows.find((r) => r[0] === String(topic.mainPid))!;
    expect(row[2]).toBe(`'=HYPERLINK("http://x.example")`);
    expect(row[8]).toBe("'-2+3 is what this post starts with");
    expect(row.slice(5, 8)).toEqual(['0', '0', '0']);
  });

  it('exports the uploads as a ZIP holding the member’s files', async () => {
    const { client, user } = owner;
    const urls = [await uploadImage(client, 'photo.png', await png(30)), await uploadImage(client, 'photo.png', await png(31))];
    await makeExport(client, user.uid, 'uploads');
    const file = await download(client, `/api/v3/users/${user.uid}/exports/uploads`);
    expect(file.headers.get('content-type')).toBe('application/zip');
    const entries = unzipSync(file.bytes);
    expect(Object.keys(entries).sort()).toEqual(['2-photo.png', 'photo.png']);
    // Each entry is byte for byte a file the forum serves for the member.
    const served = await Promise.all(urls.map(async (u) => Buffer.from(await (await fetch(new URL(u, forum.baseUrl))).arrayBuffer()).toString('base64')));
    expect(
      Object.values(entries)
        .map((v) => Buffer.from(v).toString('base64'))
        .sort(),
    ).toEqual(served.sort());
  });

  it('lets only the member and admins ask for or download an export', async () => {
    const other = await forum.member();
    const admin = await forum.member({ admin: true });
    const url = `/api/v3/users/${owner.user.uid}/exports/profile`;
    expect((await other.client.post(url)).status).toBe(403);
    expect((await download(other.client, url)).status).toBe(403);
    expect((await download(forum.client(), url)).status).toBe(401);
    expect((await download(admin.client, url)).status).toBe(200);
    const bad = await owner.client.post(`/api/v3/users/${owner.user.uid}/exports/passwords`);
    expect([bad.status, bad.body.status.key]).toEqual([400, 'error:invalid-data']);
    expect((await admin.client.post('/api/v3/users/999999/exports/profile')).status).toBe(404);
  });

  it('shows the exports on the member’s data page, and removes expired ones', async () => {
    const page = await owner.client.get(`/api/user/${owner.user.userslug}/data`);
    expect(page.status).toBe(200);
    expect(page.body.template.name).toBe('account/data');
    const states = Object.fromEntries((page.body.exports as { type: string; timestamp: number }[]).map((e) => [e.type, e.timestamp > 0]));
    expect(states).toEqual({ profile: true, posts: true, uploads: true });
    expect(page.body.needsPassword).toBe(true);
    expect((await (await forum.member()).client.get(`/api/user/${owner.user.userslug}/data`)).status).toBe(403);

    const old = (Date.now() - 8 * 24 * 3600_000) / 1000;
    utimesSync(path.join(forum.ctx.config.dataDir, 'exports', String(owner.user.uid), 'posts.csv'), old, old);
    await forum.ctx.jobs.enqueue('exports.clean', {});
    await forum.ctx.jobs.runDue();
    expect((await download(owner.client, `/api/v3/users/${owner.user.uid}/exports/posts`, 'HEAD')).status).toBe(404);
    expect((await download(owner.client, `/api/v3/users/${owner.user.uid}/exports/profile`, 'HEAD')).status).toBe(204);
  });

  it('removes a member’s exports with their account', async () => {
    const m = await forum.member();
    await makeExport(m.client, m.user.uid, 'profile');
    const folder = path.join(forum.ctx.config.dataDir, 'exports', String(m.user.uid));
    expect(existsSync(folder)).toBe(true);
    expect((await m.client.del(`/api/v3/users/${m.user.uid}/account`, { password: TEST_PASSWORD })).status).toBe(200);
    await forum.ctx.hooks.idle();
    expect(existsSync(folder)).toBe(false);
  });

});
