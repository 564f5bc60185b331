import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskStore } from '../../storage/index.js';
import { startTestForum, type TestForum } from '../../test/harness.js';
import { FORMAT, HEADER_NAME } from './format.js';
import { openTarget } from './restore-store.js';
import { backup, restore } from './run.js';
import { fileSource, freshTarget, type Target } from './test-kit.js';

/** Tar entries of an archive (uncompressed), in order. */
async function entriesOf(gz: Buffer): Promise<{ name: string; body: Buffer }[]> {
  const out: { name: string; body: Buffer }[] = [];
  const extract = tar.extract();
  const done = (async () => {
    for await (const e of extract as unknown as AsyncIterable<AsyncIterable<Buffer> & { header: { name: string } }>) {
      const chunks: Buffer[] = [];
      for await (const c of e) chunks.push(c);
      out.push({ name: e.header.name, body: Buffer.concat(chunks) });
    }
  })();
  extract.end(gunzipSync(gz));
  await done;
  return out;
}

/** A tar.gz of these entries, in order. */
async function packOf(entries: { name: string; body: Buffer }[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const read = (async () => {
    for await (const c of pack as unknown as AsyncIterable<Buffer>) chunks.push(c);
  })();
  for (const e of entries) await new Promise<void>((resolve, reject) => pack.entry({ name: e.name }, e.body, (err) => (err ? reject(err) : resolve())));
  pack.finalize();
  await read;
  return gzipSync(Buffer.concat(chunks));
}

/** A ustar header claiming `size` bytes for `name` (tar-stream will not write a lie). */
function tarHeader(name: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  h.write('00000000000\0', 136);
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}

describe('a bad archive is refused before anything is written', () => {
  let forum: TestForum;
  let good: Buffer;
  let target: Target;
  const dir = mkdtempSync(path.join(tmpdir(), 'palaver-bad-'));
  const header = (extra: object = {}) =>
    Buffer.from(
      JSON.stringify({ format: FORMAT, app: 'palaver', created: Date.now(), version: '0', dialect: 'sqlite', migrations: ['0001_initial'], ...extra }),
    );

  beforeAll(async () => {
    forum = await startTestForum();
    const file = path.join(dir, 'good.tar.gz');
    await backup(forum.ctx.config, forum.ctx.storage, createWriteStream(file));
    good = readFileSync(file);
    target = await freshTarget(process.env.DATABASE_URL ? 'postgres' : 'sqlite');
  }, 60_000);
  afterAll(async () => {
    await target?.dispose();
    await forum?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const attempt = async (name: string, bytes: Buffer) => {
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    const files = diskStore(target.config.dataDir);
    const err = (await restore(target.config, fileSource(file), { files }).then(
      () => null,
      (e: unknown) => e,
    )) as { key?: string; params?: unknown[] } | null;
    // Nothing written: the target database has no table, its store no file.
    const t = await openTarget(target.config);
    expect(await t.state()).toBe('no-tables');
    await t.close();
    const left: string[] = [];
    for await (const o of files.list('uploads/')) left.push(o.key);
    expect(left).toEqual([]);
    return err;
  };

  it('a truncated archive', async () => {
    expect((await attempt('truncated.tar.gz', good.subarray(0, Math.floor(good.length / 2))))?.key).toBe('error:backup-truncated');
  });

  it('a flipped byte, in the compressed stream or in a table part', async () => {
    const flipped = Buffer.from(good);
    flipped[Math.floor(flipped.length / 2)]! ^= 0x40;
    expect((await attempt('flipped.tar.gz', flipped))?.key).toMatch(/^error:backup-(corrupt|checksum|truncated)$/);
    // A byte changed inside a row, the archive rebuilt around it: the part's sha-256 no longer matches the manifest.
    const entries = await entriesOf(good);
    const part = entries.find((e) => e.name.startsWith('tables/groups/'))!;
    part.body = Buffer.from(part.body.toString().replace(/"[^"]{3}/, '"zzz'));
    const err = await attempt('row-changed.tar.gz', await packOf(entries));
    expect(err).toMatchObject({ key: 'error:backup-checksum', params: [part.name] });
  });

  it('a foreign tarball, and a file that is not gzip at all', async () => {
    expect((await attempt('foreign.tar.gz', await packOf([{ name: 'README', body: Buffer.from('hello') }])))?.key).toBe('error:backup-foreign');
    expect((await attempt('plain.txt', Buffer.from('just some text, not an archive')))?.key).toBe('error:backup-foreign');
  });

  it('a path-traversal entry, and nothing is written outside the target', async () => {
    const evil = path.join(dir, 'x');
    const err = await attempt(
      'traversal.tar.gz',
      await packOf([
        { name: HEADER_NAME, body: header() },
        { name: '../../x', body: Buffer.from('owned') },
      ]),
    );
    expect(err).toMatchObject({ key: 'error:backup-bad-entry', params: ['../../x'] });
    expect(existsSync(evil)).toBe(false);
    expect(existsSync(path.join(target.config.dataDir, '..', '..', 'x'))).toBe(false);
    const nested = await attempt(
      'traversal2.tar.gz',
      await packOf([
        { name: HEADER_NAME, body: header() },
        { name: 'files/uploads/../../../x', body: Buffer.from('owned') },
      ]),
    );
    expect(nested?.key).toBe('error:backup-bad-entry');
  });

  it('an entry that claims 10 GB, refused from its header', async () => {
    const entries = await packOf([{ name: HEADER_NAME, body: header() }]);
    const tarBytes = gunzipSync(entries);
    // The header entry, then a header claiming 10 GB followed by a few bytes (an archive never sends them all).
    const headerEnd = 512 + Math.ceil(header().length / 512) * 512;
    const bomb = Buffer.concat([tarBytes.subarray(0, headerEnd), tarHeader('files/uploads/files/aa/bb/big.bin', 10 * 1024 ** 3), Buffer.alloc(4096)]);
    expect(await attempt('huge.tar.gz', gzipSync(bomb))).toMatchObject({ key: 'error:backup-too-large', params: ['files/uploads/files/aa/bb/big.bin'] });
  });

  it('an archive of a newer Palaver: a newer format, or migrations this build does not have', async () => {
    expect((await attempt('format2.tar.gz', await packOf([{ name: HEADER_NAME, body: header({ format: 2 }) }])))?.key).toBe('error:backup-format-newer');
    expect(
      await attempt('newer.tar.gz', await packOf([{ name: HEADER_NAME, body: header({ migrations: ['0001_initial', '9999_from_the_future'] }) }])),
    ).toMatchObject({
      key: 'error:backup-newer',
      params: ['9999_from_the_future'],
    });
  });

  it('the good archive restores (the refusals above were the archives’ fault)', async () => {
    const file = path.join(dir, 'good.tar.gz');
    await restore(target.config, fileSource(file), { files: diskStore(target.config.dataDir) });
    const t = await openTarget(target.config);
    expect(await t.state()).toBe('has-data');
    await t.close();
  });
});
