import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

// http_ece has no type declarations: the one call the tests make, typed here.
const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string }): Buffer;
};

/** A push as the loopback push service received it. */
export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A browser's side of web push for tests: a P-256 key pair and an auth secret, as a browser
 * makes them when it subscribes, and the decryption of what the forum sent (RFC 8291).
 */
export class TestBrowser {
  readonly ecdh = createECDH('prime256v1');
  readonly auth = randomBytes(16).toString('base64url');
  readonly p256dh: string;

  constructor() {
    this.ecdh.generateKeys();
    this.p256dh = this.ecdh.getPublicKey().toString('base64url');
  }

  /** The subscription JSON a browser posts for an endpoint. */
  subscription(endpoint: string) {
    return { endpoint, expirationTime: null, keys: { p256dh: this.p256dh, auth: this.auth } };
  }

  /** Decrypts a push body (aes128gcm) with this browser's private key and auth secret. */
  decrypt(body: Buffer): unknown {
    return JSON.parse(ece.decrypt(body, { version: 'aes128gcm', privateKey: this.ecdh, authSecret: this.auth }).toString('utf8'));
  }
}

/**
 * A push service on a loopback HTTP port: records every push and answers with `status` (201
 * as real push services do; 410 for a gone subscription, 500 for a failing service).
 */
export class TestPushService {
  received: ReceivedPush[] = [];
  status = 201;
  private server: Server | null = null;
  port = 0;

  /** Starts listening on 127.0.0.1. */
  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(this.status).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** An endpoint URL on this service (one per browser). */
  endpoint(name: string): string {
    return `http://127.0.0.1:${this.port}/push/${name}`;
  }

  /** The pushes one endpoint received. */
  to(name: string): ReceivedPush[] {
    return this.received.filter((r) => r.path === `/push/${name}`);
  }

  /** Stops the server. */
  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
