import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, rmdir, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertKey, type FileStore, type ObjectInfo, type OpenedObject } from './keys.js';

/**
 * Files under the data dir: `<dataDir>/<key>`, as Palaver kept them before object storage
 * (`uploads/files/…`, `exports/<uid>/…`). Written to a temporary name and renamed, so a
 * crash never leaves half a file under the real name.
 */
export class DiskStore implements FileStore {
  readonly kind = 'disk' as const;

  constructor(readonly root: string) {}

  describe(): string {
    return this.root;
  }

  private file(key: string): string {
    assertKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Buffer | Readable): Promise<void> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(tmp, { flags: 'wx' }));
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.file(key));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async open(key: string): Promise<OpenedObject | null> {
    const info = await this.stat(key);
    if (!info) return null;
    return { ...info, stream: createReadStream(this.file(key)) };
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const st = await stat(this.file(key));
      return st.isFile() ? { size: st.size, mtime: Math.floor(st.mtimeMs) } : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.file(key);
    await rm(file, { force: true });
    // Folders left empty go too (a member's exports, an upload's shard), as objects leave no folder behind in a bucket.
    for (let dir = path.dirname(file); dir.startsWith(this.root + path.sep) && dir !== this.root; dir = path.dirname(dir)) {
      if (
        !(await rmdir(dir).then(
          () => true,
          () => false,
        ))
      )
        break;
    }
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo & { key: string }> {
    const base = prefix.replace(/\/+$/, '');
    const dir = path.join(this.root, ...base.split('/'));
    let entries: string[];
    try {
      entries = (await readdir(dir, { recursive: true })) as string[];
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    for (const rel of entries) {
      // Temporary names of writes in progress are not objects yet.
      if (rel.endsWith('.tmp')) continue;
      const st = await stat(path.join(dir, rel)).catch(() => null);
      if (st?.isFile()) yield { key: `${base}/${rel.split(path.sep).join('/')}`, size: st.size, mtime: Math.floor(st.mtimeMs) };
    }
  }

  async signedUrl(): Promise<string | null> {
    return null;
  }

  close(): void {}
}

function isMissing(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
