import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** A real S3-compatible server (s3rver) on loopback, for one test file. */
export interface TestS3 {
  /** `s3://<bucket>/<prefix>?endpoint=…`: what PALAVER_STORAGE is set to. */
  url: string;
  endpoint: string;
  bucket: string;
  /** The credentials s3rver checks, as the AWS variables a forum process reads. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** s3rver's fixed credentials: it checks every request's signature against them. */
export const S3_KEYS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };

/**
 * Starts s3rver on a free loopback port with one bucket, and sets the AWS variables of this
 * process (the SDK reads them when a client is made).
 */
export async function startTestS3(prefix = `t${randomBytes(3).toString('hex')}`): Promise<TestS3> {
  const { default: S3rver } = await import('s3rver');
  const dir = mkdtempSync(path.join(tmpdir(), 'palaver-s3-'));
  const bucket = 'palaver-test';
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory: dir, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = (await server.run()) as { port: number };
  Object.assign(process.env, S3_KEYS);
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    url: `s3://${bucket}/${prefix}?endpoint=${encodeURIComponent(endpoint)}`,
    endpoint,
    bucket,
    env: { ...S3_KEYS },
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
