import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../config.js';
import { startTestS3, type TestS3 } from '../test/s3.js';
import { assertKey, diskStore, openStorage, parseStorageUrl, type FileStore } from './index.js';

async function collect(store: FileStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of store.list(prefix)) keys.push(o.key);
  return keys.sort();
}

let s3: TestS3;
const dir = mkdtempSync(path.join(tmpdir(), 'palaver-store-'));
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(['disk', 's3'] as const)('the %s store', (kind) => {
  let store: FileStore;
  beforeAll(() => {
    store = kind === 'disk' ? diskStore(dir) : openStorage({ dataDir: dir, storage: s3.url });
  });
  afterAll(() => store.close());

  it('keeps bytes and streams, lists, stats and deletes them', async () => {
    expect(store.kind).toBe(kind);
    await store.put('uploads/files/aa/bb/one.txt', Buffer.from('hello'));
    expect((await store.get('uploads/files/aa/bb/one.txt'))?.toString()).toBe('hello');
    // A stream of unknown length, larger than one multipart part.
    const big = Buffer.alloc(9 * 1024 * 1024 + 17, 3);
    await store.put('backups/big.bin', Readable.from([big.subarray(0, 5_000_000), big.subarray(5_000_000)]));
    const opened = await store.open('backups/big.bin');
    expect(opened?.size).toBe(big.length);
    const chunks: Buffer[] = [];
    for await (const c of opened!.stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(big)).toBe(true);
    const st = await store.stat('uploads/files/aa/bb/one.txt');
    expect(st?.size).toBe(5);
    expect(Math.abs(st!.mtime - Date.now())).toBeLessThan(60_000);
    expect(await collect(store, 'uploads/')).toEqual(['uploads/files/aa/bb/one.txt']);
    expect(await collect(store, 'nothing/')).toEqual([]);
    await store.delete('uploads/files/aa/bb/one.txt');
    await store.delete('uploads/files/aa/bb/one.txt');
    expect(await store.get('uploads/files/aa/bb/one.txt')).toBeNull();
    expect(await store.open('uploads/files/aa/bb/one.txt')).toBeNull();
    expect(await store.stat('uploads/files/aa/bb/one.txt')).toBeNull();
    expect(await collect(store, 'uploads/')).toEqual([]);
  });

  it('refuses keys that could leave its folder or prefix', async () => {
    for (const key of ['../x', 'uploads/../../x', '/etc/passwd', 'uploads/./x', 'uploads//x', 'uploads/a\\b', '']) {
      await expect(store.put(key, Buffer.from('x'))).rejects.toThrow(/bad storage key/);
    }
  });

  it('signs a URL the browser can fetch, on S3 only', async () => {
    await store.put('uploads/files/cc/dd/two.txt', Buffer.from('signed'));
    const url = await store.signedUrl('uploads/files/cc/dd/two.txt', { expiresIn: 60, disposition: 'attachment' });
    if (kind === 'disk') return expect(url).toBeNull();
    const res = await fetch(url!);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('signed');
    expect(res.headers.get('content-disposition')).toBe('attachment');
    // A presigned GET that expires (s3rver does not check signatures, so that is S3's to prove).
    const q = new URL(url!).searchParams;
    expect(q.get('X-Amz-Expires')).toBe('60');
    expect(q.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('PALAVER_STORAGE', () => {
  it('parses an S3 location and refuses bad ones with a sentence', () => {
    expect(parseStorageUrl('s3://my-bucket/forum/files?endpoint=http://127.0.0.1:9000&region=eu-west-1')).toEqual({
      bucket: 'my-bucket',
      prefix: 'forum/files/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      pathStyle: true,
    });
    expect(parseStorageUrl('s3://my-bucket').pathStyle).toBe(false);
    expect(() => loadConfig({ PALAVER_STORAGE: 'ftp://x/y', PALAVER_SECRET: 'x'.repeat(20) }, dir)).toThrow(ConfigError);
    expect(() => loadConfig({ PALAVER_STORAGE: 's3://a/b', PALAVER_SECRET: 'x'.repeat(20) }, dir)).toThrow(/bucket name/);
    expect(() => loadConfig({ PALAVER_STORAGE: 's3://abc/b?secret=1', PALAVER_SECRET: 'x'.repeat(20) }, dir)).toThrow(/unknown option/);
    expect(loadConfig({ PALAVER_STORAGE: 's3://abc/b', PALAVER_SECRET: 'x'.repeat(20) }, dir).storage).toBe('s3://abc/b');
    expect(() => assertKey('uploads/files/ab/cd/x.png')).not.toThrow();
  });
});
