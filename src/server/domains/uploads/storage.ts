import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

/**
 * Where uploaded files live. One small interface so a bucket (S3 and the like) can replace
 * the local folder later: names are relative paths such as `files/ab/cd/<sha256>.png`.
 */
export interface UploadStorage {
  /** Stores the bytes under `name` (a content hash: storing the same name again is a no-op). */
  put(name: string, bytes: Buffer): Promise<void>;
  /** The bytes, or null when there is no such file. */
  get(name: string): Promise<Buffer | null>;
  /** Removes the file (no error when it is already gone). */
  delete(name: string): Promise<void>;
  /** True when the file exists. */
  has(name: string): Promise<boolean>;
  /** The public URL path of a stored name, relative to the forum (`/assets/uploads/<name>`). */
  url(name: string): string;
}

/** A stored name must be this shape: nothing a path traversal could use. */
export const STORED_NAME = /^(files|thumbs)\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.[a-z0-9]{1,8}$/;

/** The content-hashed name of stored bytes: sharded by the first two bytes of the hash. */
export function hashedName(folder: 'files' | 'thumbs', sha256: string, ext: string): string {
  return `${folder}/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}.${ext}`;
}

/** Files in `<dataDir>/uploads/…`; written to a temporary name then renamed, so a crash never leaves half a file under the real name. */
export class LocalStorage implements UploadStorage {
  constructor(
    readonly root: string,
    private readonly relativePath: string,
  ) {}

  private file(name: string): string {
    if (!STORED_NAME.test(name)) throw new Error(`bad stored name: ${name}`);
    return path.join(this.root, name);
  }

  async put(name: string, bytes: Buffer): Promise<void> {
    const file = this.file(name);
    if (await this.has(name)) return;
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, bytes, { flag: 'wx' });
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async get(name: string): Promise<Buffer | null> {
    if (!STORED_NAME.test(name)) return null;
    try {
      return await readFile(this.file(name));
    } catch {
      return null;
    }
  }

  async delete(name: string): Promise<void> {
    await rm(this.file(name), { force: true });
  }

  async has(name: string): Promise<boolean> {
    if (!STORED_NAME.test(name)) return false;
    try {
      return (await stat(this.file(name))).isFile();
    } catch {
      return false;
    }
  }

  url(name: string): string {
    return `${this.relativePath}/assets/uploads/${name}`;
  }
}
