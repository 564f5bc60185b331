import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client, type S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describeS3, type S3Location } from '../config.js';
import { assertKey, type FileStore, type ObjectInfo, type OpenedObject } from './keys.js';

/** Parts of a streamed upload (S3's multipart minimum is 5 MiB); two in flight at a time. */
const PART_SIZE = 8 * 1024 * 1024;

/**
 * Objects in an S3-compatible bucket (AWS S3, R2, MinIO, Backblaze B2, Ceph), under the
 * location's prefix. Credentials come from the SDK's standard chain (AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY, a profile, an instance role). Checksums are sent only where the
 * protocol requires them: the SDK's newer default (a CRC trailer on every upload) is not
 * understood by every S3-compatible server.
 */
export class S3Store implements FileStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly loc: S3Location) {
    this.client = new S3Client({
      region: loc.region,
      ...(loc.endpoint ? { endpoint: loc.endpoint } : {}),
      forcePathStyle: loc.pathStyle,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  describe(): string {
    return describeS3(this.loc);
  }

  private key(key: string): string {
    assertKey(key);
    return `${this.loc.prefix}${key}`;
  }

  async put(key: string, body: Buffer | Readable, opts: { contentType?: string } = {}): Promise<void> {
    // One request for a buffer; a multipart upload for a stream of unknown length (an object
    // appears only when the upload completes, so no reader sees half of it).
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.loc.bucket, Key: this.key(key), Body: body, ...(opts.contentType ? { ContentType: opts.contentType } : {}) },
      partSize: PART_SIZE,
      queueSize: 2,
      leavePartsOnError: false,
    });
    await upload.done();
  }

  async get(key: string): Promise<Buffer | null> {
    const opened = await this.open(key);
    if (!opened) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async open(key: string): Promise<OpenedObject | null> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.loc.bucket, Key: this.key(key) }));
      return { stream: res.Body as Readable, size: Number(res.ContentLength ?? 0), mtime: res.LastModified?.getTime() ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.loc.bucket, Key: this.key(key) }));
      return { size: Number(res.ContentLength ?? 0), mtime: res.LastModified?.getTime() ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.loc.bucket, Key: this.key(key) }));
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo & { key: string }> {
    const full = `${this.loc.prefix}${prefix.replace(/\/*$/, '/')}`;
    let token: string | undefined;
    do {
      const res = await this.client.send(new ListObjectsV2Command({ Bucket: this.loc.bucket, Prefix: full, ContinuationToken: token }));
      for (const o of res.Contents ?? []) {
        if (o.Key) yield { key: o.Key.slice(this.loc.prefix.length), size: Number(o.Size ?? 0), mtime: o.LastModified?.getTime() ?? 0 };
      }
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
  }

  async signedUrl(key: string, opts: { expiresIn: number; contentType?: string; disposition?: string }): Promise<string | null> {
    const cmd = new GetObjectCommand({
      Bucket: this.loc.bucket,
      Key: this.key(key),
      ...(opts.contentType ? { ResponseContentType: opts.contentType } : {}),
      ...(opts.disposition ? { ResponseContentDisposition: opts.disposition } : {}),
    });
    return getSignedUrl(this.client, cmd, { expiresIn: opts.expiresIn });
  }

  close(): void {
    this.client.destroy();
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as Partial<S3ServiceException> & { Code?: string };
  return e.$metadata?.httpStatusCode === 404 || e.name === 'NoSuchKey' || e.name === 'NotFound' || e.Code === 'NoSuchKey';
}
