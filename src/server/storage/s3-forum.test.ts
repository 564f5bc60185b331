import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageMigrate } from '../domains/backups/cli.js';
import { SYSTEM } from '../setup.js';
import { freshPostgres, startTestForum, TEST_PASSWORD, type TestForum } from '../test/harness.js';
import { HttpClient } from '../test/http-client.js';
import { freePort } from '../test/net.js';
import { startTestS3, type TestS3 } from '../test/s3.js';
import { diskStore, openStorage } from './index.js';

const png = (r: number) =>
  sharp({ create: { width: 30, height: 20, channels: 3, background: { r, g: 10, b: 10 } } })
    .png()
    .toBuffer();

/** Uploads files as the composer does; returns the JSON answer. */
async function upload(client: HttpClient, name: string, bytes: Buffer): Promise<{ status: number; url: string }> {
  const form = new FormData();
  form.append('files[]', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${client.baseUrl}/api/post/upload`, {
    method: 'POST',
    body: form,
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': client.csrf ?? (await client.refreshCsrf()) },
  });
  const json = (await res.json()) as { response?: { images?: { url: string }[] } };
  return { status: res.status, url: json.response?.images?.[0]?.url ?? '' };
}

const filesUnder = (dir: string): string[] => {
  try {
    return readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return [];
  }
};

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => s3?.close());

describe('a forum whose files are in an S3 bucket', () => {
  let forum: TestForum;
  beforeAll(async () => {
    forum = await startTestForum({ env: { PALAVER_STORAGE: s3.url } });
  });
  afterAll(async () => forum?.close());

  it('stores uploads in the bucket (nothing on disk) and serves them with the forum’s headers, or by a signed URL when the admin chooses', async () => {
    expect(forum.ctx.storage.kind).toBe('s3');
    const m = await forum.member();
    const bytes = await png(200);
    const up = await upload(m.client, 'red.png', bytes);
    expect(up.status).toBe(200);
    expect(filesUnder(path.join(forum.ctx.config.dataDir, 'uploads'))).toEqual([]);
    const key = `uploads/${up.url.replace(/^.*\/assets\/uploads\//, '')}`;
    expect((await openStorage({ dataDir: '/nonexistent', storage: s3.url }).stat(key))?.size).toBeGreaterThan(0);

    const served = await fetch(new URL(up.url, forum.baseUrl));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    const body = Buffer.from(await served.arrayBuffer());
    expect((await sharp(body).metadata()).width).toBe(30);

    await forum.ctx.settings.set({ uploadsSignedUrls: true });
    const redirected = await fetch(new URL(up.url, forum.baseUrl), { redirect: 'manual' });
    expect(redirected.status).toBe(302);
    const signed = redirected.headers.get('location')!;
    expect(signed.startsWith(s3.endpoint)).toBe(true);
    expect(new URL(signed).searchParams.get('X-Amz-Expires')).toBe('3600');
    const direct = await fetch(signed);
    expect(direct.status).toBe(200);
    expect(Buffer.from(await direct.arrayBuffer()).equals(body)).toBe(true);
    // A missing file is still a 404 from the forum, not a signed link to nothing.
    expect((await fetch(new URL(up.url.replace(/[0-9a-f]{64}/, 'f'.repeat(64)), forum.baseUrl), { redirect: 'manual' })).status).toBe(404);
    await forum.ctx.settings.set({ uploadsSignedUrls: false });
  });

  it('keeps members’ exports and backups in the bucket too', async () => {
    const m = await forum.member();
    expect((await m.client.post(`/api/v3/users/${m.user.uid}/exports/profile`, {})).status).toBe(202);
    await forum.ctx.jobs.runDue();
    const res = await fetch(`${forum.baseUrl}/api/v3/users/${m.user.uid}/exports/profile`, {
      headers: { cookie: [...m.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: { uid: number } }).user.uid).toBe(m.user.uid);
    const { backupsOf } = await import('../domains/backups/routes.js');
    const name = await backupsOf(forum.ctx).create('manual');
    expect((await backupsOf(forum.ctx).list()).map((b) => b.name)).toContain(name);
    expect(filesUnder(forum.ctx.config.dataDir).filter((f) => /exports|backups/.test(f))).toEqual([]);
  });
});

describe('two processes with no shared disk', () => {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  let db: { url: string; drop: () => Promise<void> };
  afterAll(async () => {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
    await db?.drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** `palaver start` in a child process with a data dir of its own; resolves when it answers. */
  async function startProcess(extra: Record<string, string>): Promise<string> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'palaver-node-'));
    dirs.push(dataDir);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, '../main.ts'), 'start'], {
      env: {
        ...process.env,
        ...s3.env,
        DATABASE_URL: db.url,
        REDIS_URL: '',
        PALAVER_STORAGE: s3.url,
        PALAVER_DATA_DIR: dataDir,
        PALAVER_SECRET: 'two-nodes-share-this-secret',
        PORT: String(port),
        HOST: '127.0.0.1',
        PALAVER_URL: url,
        LOG_LEVEL: 'error',
        PALAVER_RATE_POSTS: '1000',
        ...extra,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    children.push(child);
    await expect
      .poll(async () => (await fetch(`${url}/api/config`).catch(() => null))?.status ?? (child.exitCode !== null ? `exited: ${err}` : 0), {
        timeout: 60_000,
        interval: 250,
      })
      .toBe(200);
    return url;
  }

  it('a file uploaded through process A is served by process B', async () => {
    db = await freshPostgres(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
    const a = await startProcess({ PALAVER_ADMIN_USERNAME: 'owner', PALAVER_ADMIN_EMAIL: 'owner@example.com', PALAVER_ADMIN_PASSWORD: TEST_PASSWORD });
    const b = await startProcess({});
    const client = new HttpClient(a);
    expect((await client.post('/login', { username: 'owner', password: TEST_PASSWORD })).status).toBe(200);
    const bytes = await png(77);
    const up = await upload(client, 'shared.png', bytes);
    expect(up.status).toBe(200);
    const fromA = Buffer.from(await (await fetch(new URL(up.url, a))).arrayBuffer());
    const fromB = await fetch(new URL(up.url, b));
    expect(fromB.status).toBe(200);
    expect(Buffer.from(await fromB.arrayBuffer()).equals(fromA)).toBe(true);
    // Neither data dir holds the file: the bucket is the only copy.
    for (const d of dirs) expect(filesUnder(path.join(d, 'uploads'))).toEqual([]);
  }, 120_000);
});

describe('palaver storage migrate', () => {
  it('copies a disk forum’s files into the bucket byte for byte, and only once', async () => {
    const forum = await startTestForum();
    try {
      await forum.ctx.categories.create(SYSTEM, { name: 'Moving' });
      const m = await forum.member();
      const up = await upload(m.client, 'moving.png', await png(5));
      expect(up.status).toBe(200);
      const config = { ...forum.ctx.config, storage: s3.url.replace(/\/t[0-9a-f]+\?/, '/moved?') };
      expect(await storageMigrate(config, 's3', { progress: () => undefined, result: () => undefined })).toBeGreaterThanOrEqual(2);
      // Run again: nothing left to copy.
      expect(await storageMigrate(config, 's3', { progress: () => undefined, result: () => undefined })).toBe(0);
      const bucket = openStorage(config);
      const key = `uploads/${up.url.replace(/^.*\/assets\/uploads\//, '')}`;
      expect((await bucket.get(key))!.equals((await diskStore(forum.ctx.config.dataDir).get(key))!)).toBe(true);
      bucket.close();
    } finally {
      await forum.close();
    }
  }, 60_000);
});
