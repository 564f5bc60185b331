import type { Readable } from 'node:stream';

/** A stored object's size in bytes and last change (ms since the epoch). */
export interface ObjectInfo {
  size: number;
  mtime: number;
}

/** An object opened for reading: its bytes as a stream, its size and time. */
export interface OpenedObject extends ObjectInfo {
  stream: Readable;
}

/**
 * Where every file the forum keeps lives: uploads (`uploads/…`), members' exports
 * (`exports/…`) and backups (`backups/…`). Keys are relative, `/`-separated, checked by
 * `assertKey`. Two drivers: the data dir on disk (the default) and an S3-compatible bucket
 * (`PALAVER_STORAGE=s3://…`), so several machines can share the files.
 */
export interface FileStore {
  readonly kind: 'disk' | 's3';
  /** Where the files are, for logs and the admin page (never a secret). */
  describe(): string;
  /** Stores bytes (or a stream of unknown length) under `key`; readers never see a half-written object. */
  put(key: string, body: Buffer | Readable, opts?: { contentType?: string }): Promise<void>;
  /** The whole object, or null when there is none (for small objects: uploads, marks). */
  get(key: string): Promise<Buffer | null>;
  /** The object as a stream with its size, or null when there is none. */
  open(key: string): Promise<OpenedObject | null>;
  /** Size and time, or null when there is no such object. */
  stat(key: string): Promise<ObjectInfo | null>;
  /** Removes an object (no error when it is already gone). */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix` (a folder, ending in `/`), in no promised order. */
  list(prefix: string): AsyncIterable<ObjectInfo & { key: string }>;
  /**
   * A URL the browser can fetch the object from directly for `expiresIn` seconds (S3's
   * presigned GET), or null when the store cannot make one (disk).
   */
  signedUrl(key: string, opts: { expiresIn: number; contentType?: string; disposition?: string }): Promise<string | null>;
  /** Lets go of connections (S3's sockets). */
  close(): void;
}

/** A key: relative, `/`-separated segments of safe characters, no `.` or `..` segment. */
const KEY = /^[a-z][a-z0-9-]*(\/[A-Za-z0-9_][A-Za-z0-9._-]*)+$/;

/** Throws unless `key` is a safe relative key (nothing a path traversal could use). */
export function assertKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((s) => s === '.' || s === '..') || key.length > 512) throw new Error(`bad storage key: ${JSON.stringify(key)}`);
}

/** True when `key` is a safe relative key. */
export function isKey(key: string): boolean {
  try {
    assertKey(key);
    return true;
  } catch {
    return false;
  }
}

/** The store the configuration names: an S3 bucket (its SDK loaded on first use) or the data dir. */
