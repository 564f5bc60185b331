import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../../setup.js';
import type { FileStore } from '../../storage/index.js';
import { startTestForum, type TestForum, type TestMember } from '../../test/harness.js';
import { MAINTENANCE_RETRY_AFTER } from '../../http/maintenance.js';
import { backupsOf } from './routes.js';
import { BackupsService } from './service.js';

describe('the backups admin page and its API', () => {
  let forum: TestForum;
  let admin: TestMember;
  let member: TestMember;
  let cid: number;

  beforeAll(async () => {
    forum = await startTestForum({ settings: { siteTitle: 'Palaver Test Forum' } });
    admin = await forum.member({ admin: true });
    member = await forum.member();
    cid = (await forum.ctx.categories.create(SYSTEM, { name: 'Kept' })).cid;
    await forum.ctx.topics.create(member.viewer, { cid, title: 'In the backup', content: 'This topic is in the backup.' });
  });
  afterAll(async () => forum?.close());

  it('makes a backup as a job, lists it, serves it to admins only, and deletes it', async () => {
    expect((await member.client.get('/api/v3/admin/backups')).status).toBe(403);
    expect((await member.client.post('/api/v3/admin/backups', {})).status).toBe(403);
    const queued = await admin.client.post('/api/v3/admin/backups', {});
    expect(queued.status).toBe(202);
    expect(queued.body.response).toMatchObject({ op: 'backup', state: 'queued' });
    // A second one while the first waits is refused.
    expect((await admin.client.post('/api/v3/admin/backups', {})).body.status.key).toBe('error:backup-busy');
    await forum.ctx.jobs.runDue();
    const list = await admin.client.get('/api/v3/admin/backups');
    expect(list.body.response.status).toMatchObject({ op: 'backup', state: 'done', phase: 'done' });
    expect(list.body.response.status.done).toBeGreaterThan(0);
    const [b] = list.body.response.backups;
    expect(b).toMatchObject({ kind: 'manual' });
    expect(b.size).toBeGreaterThan(100);

    const page = await admin.client.get('/api/admin/advanced/backups');
    expect(page.status).toBe(200);
    expect(page.body.template.name).toBe('admin/advanced/backups');
    expect(page.body.backups[0].name).toBe(b.name);
    expect(page.body.storage).toMatchObject({ kind: 'disk', database: forum.ctx.dialect });
    expect((await member.client.get('/api/admin/advanced/backups')).status).toBe(403);

    const res = await fetch(`${forum.baseUrl}/api/v3/admin/backups/${b.name}`, {
      headers: { cookie: [...admin.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(b.name);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(gunzipSync(bytes).subarray(0, 19).toString()).toBe('palaver-backup.json');
    expect((await member.client.get(`/api/v3/admin/backups/${b.name}`)).status).toBe(403);
    expect((await admin.client.get('/api/v3/admin/backups/..%2F..%2Fsecret')).status).toBe(404);

    expect((await admin.client.del(`/api/v3/admin/backups/${b.name}`)).status).toBe(200);
    expect((await admin.client.get('/api/v3/admin/backups')).body.response.backups).toEqual([]);
    expect((await admin.client.del(`/api/v3/admin/backups/${b.name}`)).status).toBe(404);
  });

  it('takes an uploaded archive; refuses a file that is not one by its name', async () => {
    const name = await backupsOf(forum.ctx).create('manual');
    const bytes = (await forum.ctx.storage.get(`backups/${name}`))!;
    const send = async (filename: string, body: Buffer) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(body)], { type: 'application/gzip' }), filename);
      const res = await fetch(`${forum.baseUrl}/api/v3/admin/backups/upload`, {
        method: 'POST',
        body: form,
        headers: { cookie: [...admin.client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': await admin.client.refreshCsrf() },
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const up = await send('forum.tar.gz', bytes);
    expect(up.status).toBe(200);
    expect(up.body.response).toMatchObject({ kind: 'uploaded', size: bytes.length });
    const bad = await send('notes.txt', Buffer.from('hello'));
    expect(bad.status).toBe(400);
    expect(bad.body.status.key).toBe('error:backup-foreign');
  });

  it('restores over the running forum behind maintenance mode: members get 503 meanwhile, the forum is the archive’s after', async () => {
    const name = await backupsOf(forum.ctx).create('manual');
    // Written after the backup: the restore takes it away.
    const later = await forum.ctx.topics.create(member.viewer, { cid, title: 'After the backup', content: 'Gone after the restore.' });
    expect((await admin.client.post(`/api/v3/admin/backups/${name}/restore`, { confirm: 'Wrong Title' })).body.status.key).toBe('error:backup-confirm-title');

    // The restore's second read of the archive waits for the test: the maintenance page is up by then.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let opens = 0;
    const storage: FileStore = Object.create(forum.ctx.storage) as FileStore;
    storage.open = async (key) => {
      if (key === `backups/${name}` && ++opens === 2) await gate;
      return forum.ctx.storage.open(key);
    };
    const service = new BackupsService({ ...forum.ctx, storage });
    const queued = await admin.client.post(`/api/v3/admin/backups/${name}/restore`, { confirm: 'Palaver Test Forum' });
    expect(queued.status).toBe(202);
    const running = service.restoreNow(name, admin.user.uid);
    try {
      await expect.poll(async () => (await member.client.get('/api/recent')).status).toBe(503);
      const page = await member.client.get('/api/recent');
      expect(page.headers.get('retry-after')).toBe(String(MAINTENANCE_RETRY_AFTER));
      const write = await member.client.post('/api/v3/topics', { cid, title: 'During the restore', content: 'Refused while it runs.' });
      expect(write.status).toBe(503);
      expect(write.body.status.key).toBe('error:maintenance-mode');
      const html = await forum.client().get('/recent');
      expect(html.status).toBe(503);
      expect(html.text).toContain('undergoing maintenance');
      // Administrators keep the forum, and anyone may still reach the sign-in page.
      expect((await admin.client.get('/api/recent')).status).toBe(200);
      expect((await forum.client().get('/login')).status).toBe(200);
    } finally {
      release();
      await running;
    }
    await forum.ctx.jobs.runDue();

    expect((await forum.ctx.settings.get()).maintenanceMode).toBe(false);
    const recent = await member.client.get('/api/recent');
    expect(recent.status).toBe(200);
    const titles = (recent.body.topics as { title: string }[]).map((t) => t.title);
    expect(titles).toContain('In the backup');
    expect(titles).not.toContain('After the backup');
    expect(await forum.ctx.topics.get(later.topic.tid)).toBeFalsy();
    expect((await service.progress()).state).toBe('done');
  });

  it('a restore that fails leaves the forum as it was and out of maintenance', async () => {
    const name = await backupsOf(forum.ctx).create('manual');
    const marker = await forum.ctx.topics.create(member.viewer, { cid, title: 'Survives a failed restore', content: 'Still here.' });
    // The archive is cut short after it was listed: the restore's check refuses it before writing.
    const whole = (await forum.ctx.storage.get(`backups/${name}`))!;
    await forum.ctx.storage.put(`backups/${name}`, whole.subarray(0, Math.floor(whole.length * 0.6)));
    await expect(backupsOf(forum.ctx).restoreNow(name, admin.user.uid)).rejects.toMatchObject({ key: 'error:backup-truncated' });
    expect((await backupsOf(forum.ctx).progress()).error).toEqual({ key: 'error:backup-truncated', params: [] });
    expect(await forum.ctx.topics.get(marker.topic.tid)).toBeTruthy();
    expect((await forum.ctx.settings.get()).maintenanceMode).toBe(false);
    expect((await member.client.get('/api/recent')).status).toBe(200);
  });

  it('the maintenance setting itself: members get 503, admins do not', async () => {
    await forum.ctx.settings.set({ maintenanceMode: true });
    try {
      expect((await member.client.get('/api/recent')).status).toBe(503);
      expect((await member.client.post('/api/v3/topics', { cid, title: 'Not now', content: 'Refused in maintenance.' })).status).toBe(503);
      expect((await admin.client.get('/api/recent')).status).toBe(200);
    } finally {
      await forum.ctx.settings.set({ maintenanceMode: false });
    }
    expect((await member.client.get('/api/recent')).status).toBe(200);
  });

  it('scheduled backups: made when due, once per period, the newest N kept', async () => {
    const service = backupsOf(forum.ctx);
    await forum.ctx.settings.set({ backupSchedule: 'off', backupKeep: 2 });
    expect(await service.tick()).toBeNull();
    await forum.ctx.settings.set({ backupSchedule: 'daily' });
    const first = await service.tick();
    expect(first).toMatch(/-scheduled\.tar\.gz$/);
    // Not due again within the day.
    expect(await service.tick(Date.now() + 3600_000)).toBeNull();
    const made = [first];
    for (let d = 1; d <= 2; d++) {
      await new Promise((r) => setTimeout(r, 1100)); // archive names carry the second they were made
      made.push(await service.tick(Date.now() + d * 24 * 3600_000));
    }
    const scheduled = (await service.list()).filter((b) => b.kind === 'scheduled').map((b) => b.name);
    expect(scheduled).toEqual([made[2], made[1]]);
    // Manual backups are not counted against the schedule's keep.
    expect((await service.list()).some((b) => b.kind === 'manual')).toBe(true);
  });
});
