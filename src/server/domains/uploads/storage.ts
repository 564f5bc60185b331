import type { FileStore, OpenedObject } from '../../storage/index.js';

/**
 * Where uploaded files live (the forum's file store: the data dir or a bucket). Names are
 * relative paths such as `files/ab/cd/<sha256>.png`.
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
  /** The file as a stream with its size and time, or null. */
  open(name: string): Promise<OpenedObject | null>;
  /** A presigned URL of the file (S3), or null when the store cannot make one. */
  signedUrl(name: string, opts: { expiresIn: number; contentType?: string; disposition?: string }): Promise<string | null>;
  /** The public URL path of a stored name, relative to the forum (`/assets/uploads/<name>`). */
  url(name: string): string;
}

/** A stored name must be this shape: nothing a path traversal could use. */
export const STORED_NAME = /^(files|thumbs)\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.[a-z0-9]{1,8}$/;

/** The content-hashed name of stored bytes: sharded by the first two bytes of the hash. */
export function hashedName(folder: 'files' | 'thumbs', sha256: string, ext: string): string {
  return `${folder}/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}.${ext}`;
}

/**
 * Uploads in the forum's file store (storage/index.ts) under `uploads/<name>`: the data dir's
 * `uploads/` folder as before, or an S3 bucket. Content-hashed names make a second put of the
 * same name a no-op.
 */
export class StoredUploads implements UploadStorage {
  constructor(
    readonly store: FileStore,
    private readonly relativePath: string,
  ) {}

  private key(name: string): string {
    if (!STORED_NAME.test(name)) throw new Error(`bad stored name: ${name}`);
    return `uploads/${name}`;
  }

  async put(name: string, bytes: Buffer): Promise<void> {
    if (await this.has(name)) return;
    await this.store.put(this.key(name), bytes);
  }

  async get(name: string): Promise<Buffer | null> {
    if (!STORED_NAME.test(name)) return null;
    return this.store.get(this.key(name));
  }

  /** The file as a stream with its size (what the route serves), or null. */
  async open(name: string): Promise<OpenedObject | null> {
    if (!STORED_NAME.test(name)) return null;
    return this.store.open(this.key(name));
  }

  /** A presigned URL of the file for `expiresIn` seconds, or null when the store cannot make one. */
  async signedUrl(name: string, opts: { expiresIn: number; contentType?: string; disposition?: string }): Promise<string | null> {
    if (!STORED_NAME.test(name)) return null;
    return this.store.signedUrl(this.key(name), opts);
  }

  async delete(name: string): Promise<void> {
    await this.store.delete(this.key(name));
  }

  async has(name: string): Promise<boolean> {
    if (!STORED_NAME.test(name)) return false;
    return (await this.store.stat(this.key(name))) !== null;
  }

  url(name: string): string {
    return `${this.relativePath}/assets/uploads/${name}`;
  }
}
