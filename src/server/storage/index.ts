import type { Readable } from 'node:stream';
import path from 'node:path';
import { describeS3, parseStorageUrl, type Config, type S3Location } from '../config.js';
import { DiskStore } from './disk.js';

// The location's parser lives with the configuration, which checks it at start.
export { describeS3, parseStorageUrl, type S3Location };

import { assertKey, type FileStore, type ObjectInfo, type OpenedObject } from './keys.js';

export { assertKey, isKey, type FileStore, type ObjectInfo, type OpenedObject } from './keys.js';

export function openStorage(config: Pick<Config, 'dataDir' | 'storage'>): FileStore {
  if (!config.storage) return new DiskStore(config.dataDir);
  return new LazyS3Store(parseStorageUrl(config.storage));
}

/**
 * The S3 driver behind a promise: the AWS SDK (some 10 MB of a process's memory) is loaded
 * with the first file asked for, not at start-up, as pg and ioredis are only with their URLs.
 */
class LazyS3Store implements FileStore {
  readonly kind = 's3' as const;
  private store: Promise<FileStore> | null = null;

  constructor(private readonly loc: S3Location) {}

  private load(): Promise<FileStore> {
    return (this.store ??= import('./s3.js').then(({ S3Store }) => new S3Store(this.loc)));
  }

  describe(): string {
    return describeS3(this.loc);
  }

  async put(key: string, body: Buffer | Readable, opts?: { contentType?: string }): Promise<void> {
    assertKey(key);
    return (await this.load()).put(key, body, opts);
  }

  async get(key: string): Promise<Buffer | null> {
    return (await this.load()).get(key);
  }

  async open(key: string): Promise<OpenedObject | null> {
    return (await this.load()).open(key);
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    return (await this.load()).stat(key);
  }

  async delete(key: string): Promise<void> {
    return (await this.load()).delete(key);
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo & { key: string }> {
    yield* (await this.load()).list(prefix);
  }

  async signedUrl(key: string, opts: { expiresIn: number; contentType?: string; disposition?: string }): Promise<string | null> {
    return (await this.load()).signedUrl(key, opts);
  }

  close(): void {
    void this.store?.then((s) => s.close()).catch(() => undefined);
  }
}

/** The disk store of a data dir (what a forum without PALAVER_STORAGE uses). */
export function diskStore(dataDir: string): FileStore {
  return new DiskStore(path.resolve(dataDir));
}
