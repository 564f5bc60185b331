import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { seedDemo } from '../../seed/demo.js';
import { prepareDatabase } from '../../setup.js';
import { diskStore, type FileStore } from '../../storage/index.js';
import { fillEmptyTables } from '../../test/fill-tables.js';
import { startTestForum, TEST_PASSWORD, type TestForum } from '../../test/harness.js';
import { HttpClient } from '../../test/http-client.js';
import { backup, restore } from './run.js';
import { NOT_BACKED_UP } from './store.js';
import { dumpTables, fileSource, freshTarget, withoutQueuedRebuild } from './test-kit.js';

async function storeFiles(store: FileStore): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const o of store.list('uploads/')) out.set(o.key, (await store.get(o.key))!.toString('base64'));
  return out;
}

describe('a backup restores row for row, into SQLite and into PostgreSQL', () => {
  let forum: TestForum;
  const dir = mkdtempSync(path.join(tmpdir(), 'palaver-roundtrip-'));
  const archive = path.join(dir, 'forum.tar.gz');
  let source: Record<string, string[]>;
  let memberName: string;
  let topicTitle: string;

  beforeAll(async () => {
    forum = await startTestForum();
    await seedDemo(forum.ctx);
    // A member with a known password and an uploaded image (a file in the store, a row, a reference).
    const { client, user } = await forum.loginAs();
    memberName = user.username;
    const form = new FormData();
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 9, g: 99, b: 199 } } })
      .png()
      .toBuffer();
    form.append('files[]', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'pic.png');
    const up = await fetch(`${forum.baseUrl}/api/post/upload`, {
      method: 'POST',
      body: form,
      headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': await client.refreshCsrf() },
    });
    expect(up.status).toBe(200);
    const topic = await client.post('/api/v3/topics', {
      cid: 1,
      title: 'Backed up with a picture',
      content: `Look: ![pic](${((await up.json()) as any).response.images[0].url})`,
    });
    expect(topic.status).toBe(200);
    topicTitle = 'Backed up with a picture';
    await forum.ctx.hooks.idle();
    const filled = await fillEmptyTables(forum.ctx, NOT_BACKED_UP);
    source = await dumpTables(forum.ctx.config);
    // Every table has rows: the round trip below carries every one.
    expect(
      Object.entries(source)
        .filter(([, rows]) => rows.length === 0)
        .map(([t]) => t),
    ).toEqual([]);
    expect(filled.length).toBeGreaterThan(0);
    const manifest = await backup(forum.ctx.config, forum.ctx.storage, createWriteStream(archive));
    expect(manifest.tables.map((t) => t.name).sort()).toEqual(Object.keys(source).sort());
    expect(manifest.files.length).toBeGreaterThanOrEqual(2);
  }, 120_000);
  afterAll(async () => {
    await forum?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['sqlite', 'postgres'] as const)(
    'into %s: every table and file, then the restored forum serves its pages',
    async (kind) => {
      const target = await freshTarget(kind);
      const files = diskStore(target.config.dataDir);
      try {
        const manifest = await restore(target.config, fileSource(archive), { files });
        expect(manifest.format).toBe(1);
        const restored = await dumpTables(target.config);
        // Less the one row the restore adds: the search index's rebuild, queued (the index is not in the archive).
        const same = withoutQueuedRebuild(restored, source);
        for (const name of Object.keys(source)) expect(same[name], name).toEqual(source[name]);
        expect(await storeFiles(files)).toEqual(await storeFiles(forum.ctx.storage));

        // A second restore into the now full database is refused: restore takes an empty one.
        await expect(restore(target.config, fileSource(archive), { files })).rejects.toMatchObject({ key: 'error:backup-target-not-empty' });

        const app = await buildApp(target.config);
        try {
          await prepareDatabase(app.ctx);
          await app.listen({ port: 0, host: '127.0.0.1' });
          const { port } = app.server.address() as { port: number };
          const client = new HttpClient(`http://127.0.0.1:${port}`);
          const home = await client.get('/');
          expect(home.status).toBe(200);
          const recent = await client.get('/api/recent');
          expect(recent.status).toBe(200);
          const topic = (recent.body.topics as { title: string; slug: string }[]).find((t) => t.title === topicTitle)!;
          expect(topic).toBeTruthy();
          const page = await client.get(`/topic/${topic.slug}`);
          expect(page.status).toBe(200);
          expect(page.text).toContain(topicTitle);
          const img = /\/assets\/uploads\/files\/[^"')\s]+\.png/.exec(page.text)![0];
          const served = await fetch(`http://127.0.0.1:${port}${img}`);
          expect(served.status).toBe(200);
          expect(served.headers.get('content-type')).toBe('image/png');
          // The search index is not in the archive: the restore queued its rebuild, which a process of the forum runs.
          expect((await client.get('/api/search?term=picture&in=titlesposts')).body.matchCount).toBe(0);
          // Every due job, ten at a time (the restored forum has its own queue too).
          for (let i = 0; i < 20 && (await app.ctx.jobs.runDue()) > 0; i++);
          // By word and by part of a word.
          expect((await client.get('/api/search?term=picture&in=titlesposts')).body.matchCount).toBeGreaterThanOrEqual(1);
          expect((await client.get('/api/search?term=ictur&in=titlesposts')).body.matchCount).toBeGreaterThanOrEqual(1);
          // The member signs in with the password they had: their row, hash and all, came back.
          expect((await client.post('/login', { username: memberName, password: TEST_PASSWORD })).status).toBe(200);
          // New rows get ids past the restored ones (sequences moved on).
          const created = await client.post('/api/v3/topics', { cid: 1, title: 'Written after the restore', content: 'New ids, no clash.' });
          expect(created.status).toBe(200);
        } finally {
          await app.close();
        }
      } finally {
        await target.dispose();
      }
    },
    120_000,
  );
});
