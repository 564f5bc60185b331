import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { AdminUploadsPage } from '../../../shared/schemas/admin-people.js';
import type { HttpClient } from '../../test/http-client.js';
import { makeCategory, postTopic } from '../topics/testing.js';
import { useForum } from '../../test/forum-kit.js';

/** Sends files as a browser's form does (multipart, field `files[]`). */
async function send(client: HttpClient, url: string, name: string, bytes: Buffer) {
  const form = new FormData();
  form.append('files[]', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  const csrf = client.csrf ?? (await client.refreshCsrf());
  const res = await fetch(client.baseUrl + url, {
    method: 'POST',
    body: form,
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': csrf },
  });
  return { status: res.status, body: (await res.json()) as any };
}
const png = (r: number) =>
  sharp({ create: { width: 20, height: 20, channels: 3, background: { r, g: 40, b: 90 } } })
    .png()
    .toBuffer();

const kit = useForum();

describe('admin/manage/uploads', () => {
  it('lists files with size, uploader and the posts using them; deletes an orphan; admin upload', async () => {
    const { client: member, user } = await kit.forum.loginAs();
    const used = await send(member, '/api/post/upload', 'used.png', await png(10));
    expect(used.status).toBe(200);
    const usedUrl = used.body.response.images[0].url as string;
    const topic = await postTopic(member, await makeCategory(kit.forum.ctx), { content: `A picture: ![x](${usedUrl}) in a post.` });
    const orphan = await send(member, '/api/post/upload', 'orphan.png', await png(200));
    expect(orphan.status).toBe(200);
    await kit.forum.ctx.hooks.idle();

    const res = await kit.admin.client.get<AdminUploadsPage>('/api/admin/manage/uploads');
    expect(res.status).toBe(200);
    expect(res.body.currentFolder).toBe('/');
    const byName = new Map(res.body.files.map((f) => [f.name, f]));
    const u = byName.get('used.png')!;
    expect(u.uploader?.uid).toBe(user.uid);
    expect(u.size).toBeGreaterThan(0);
    expect(u.sizeHumanReadable).toMatch(/B$/);
    expect(u.pids).toEqual([topic.mainPid]);
    expect(u.orphan).toBe(false);
    const o = byName.get('orphan.png')!;
    expect(o.orphan).toBe(true);

    const orphans = await kit.admin.client.get<AdminUploadsPage>('/api/admin/manage/uploads?orphans=1');
    expect(orphans.body.files.map((f) => f.name)).toEqual(['orphan.png']);
    expect((await kit.admin.client.del(`/api/v3/uploads/${o.id}`)).status).toBe(200);
    expect((await kit.admin.client.get<AdminUploadsPage>('/api/admin/manage/uploads?orphans=1')).body.files).toEqual([]);
    expect((await fetch(new URL(o.url, kit.forum.baseUrl))).status).toBe(404);

    const mine = await send(kit.admin.client, '/api/admin/upload/file', 'admin-file.png', await png(90));
    expect(mine.status).toBe(200);
    expect((await kit.admin.client.get<AdminUploadsPage>('/api/admin/manage/uploads')).body.files.some((f) => f.name === 'admin-file.png')).toBe(true);

    expect((await member.get('/api/admin/manage/uploads')).status).toBe(403);
    expect((await send(member, '/api/admin/upload/file', 'x.png', await png(5))).status).toBe(403);
    expect((await kit.forum.client().get('/api/admin/manage/uploads')).status).toBe(401);
  });
});
