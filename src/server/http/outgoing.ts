import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The one way the server sends a request to another machine (web push endpoints, the spam
 * lookup, captcha verification): the guard against server-side request forgery. A host name is
 * resolved when the request is sent and every address it gives is checked; the connection goes
 * to the address that was checked (the resolution happens inside the socket's own `lookup`), so a
 * name that answers a public address to the check and 127.0.0.1 to the connect (DNS rebinding)
 * gets nowhere. Refused: loopback, private (10/8, 172.16/12, 192.168/16), link-local,
 * unique-local (fc00::/7), multicast, unspecified, carrier-grade NAT, broadcast, reserved and
 * documentation ranges, IPv6 forms that embed an IPv4 address (v4-mapped `::ffff:127.0.0.1`,
 * 6to4, NAT64, Teredo): everything ipaddr.js does not call plain unicast. Literal forms the URL
 * parser normalises (`0x7f.1`, `2130706433`, `[::ffff:7f00:1]`) are checked as the address they
 * name. Redirects are never followed.
 *
 * `PALAVER_OUTGOING_ALLOW` (config `outgoingAllow`) names hosts exempt from the check, exactly as
 * a URL's host reads once parsed (`127.0.0.1`, `localhost`): it exists for tests that start a
 * receiver on loopback, is empty by default, and a production forum leaves it so.
 */

/** Why a request was not sent: the host is not one the forum may reach. */
export class OutgoingRefused extends Error {
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`outgoing request to ${host} refused: ${reason}`);
    this.name = 'OutgoingRefused';
  }
}

/** True for an address the forum's server must not send a request to (see the module's comment). */
export function isForbiddenAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  // process() turns an IPv4-mapped IPv6 address into the IPv4 address it carries.
  return ipaddr.process(address).range() !== 'unicast';
}

/** A request's options. */
export interface OutgoingOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The whole exchange, connect to last byte (ms). */
  timeoutMs: number;
  /** The most of the answer's body kept (bytes); a longer answer fails the request. */
  maxBytes?: number;
}

/** An answer: its status, headers and body. */
export interface OutgoingResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const DEFAULT_MAX_BYTES = 1024 * 1024;

/** The guard: checks hosts and sends requests to the addresses it checked. */
export class OutgoingGuard {
  /** Hosts exempt from the address check (tests' loopback receivers; empty in production). */
  readonly allowed: Set<string>;

  constructor(allowed: Iterable<string> = []) {
    this.allowed = new Set([...allowed].map(normaliseHost));
  }

  /** True when the URL's host is exempt from the address check. */
  isAllowedHost(url: URL): boolean {
    return this.allowed.has(normaliseHost(url.hostname));
  }

  /**
   * Checks a URL before it is kept (a push subscription): a literal address must be public, and
   * a name that resolves must resolve to public addresses only. A name that does not resolve now
   * passes (the send checks again and fails then).
   */
  async assertPublic(raw: string | URL): Promise<void> {
    const url = typeof raw === 'string' ? new URL(raw) : raw;
    if (this.isAllowedHost(url)) return;
    const host = bare(url.hostname);
    if (isIP(host)) {
      if (isForbiddenAddress(host)) throw new OutgoingRefused(host, 'not a public address');
      return;
    }
    let addresses: LookupAddress[];
    try {
      addresses = await new Promise<LookupAddress[]>((resolve, reject) => dnsLookup(host, { all: true }, (err, a) => (err ? reject(err) : resolve(a))));
    } catch {
      return;
    }
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad) throw new OutgoingRefused(host, `resolves to ${bad.address}`);
  }

  /** Sends one request (http or https) after the check; rejects with OutgoingRefused, a network error or a timeout. */
  request(raw: string | URL, opts: OutgoingOptions): Promise<OutgoingResponse> {
    let url: URL;
    try {
      url = typeof raw === 'string' ? new URL(raw) : raw;
    } catch {
      return Promise.reject(new OutgoingRefused(String(raw), 'not a URL'));
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return Promise.reject(new OutgoingRefused(url.host, `protocol ${url.protocol}`));
    const host = bare(url.hostname);
    const exempt = this.isAllowedHost(url);
    if (!exempt && isIP(host) && isForbiddenAddress(host)) return Promise.reject(new OutgoingRefused(host, 'not a public address'));
    const send = url.protocol === 'https:' ? https.request : http.request;
    const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    return new Promise<OutgoingResponse>((resolve, reject) => {
      const req = send(
        url,
        {
          method: opts.method ?? 'GET',
          headers: opts.headers,
          // Node calls lookup only for a name (a literal address was checked above).
          lookup: exempt ? undefined : checkedLookup,
          signal: AbortSignal.timeout(opts.timeoutMs),
          // No keep-alive pool shared with other code: each request resolves and checks anew.
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              req.destroy(new Error(`answer larger than ${maxBytes} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : Buffer.from(opts.body));
    });
  }
}

/**
 * The socket's resolver: resolves the name, refuses it if any of its addresses is forbidden,
 * and hands the socket exactly the addresses it checked (one, or all when the socket asks for
 * all to try them in turn, as Node 20's `autoSelectFamily` does).
 */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as unknown as LookupAddress[];
    const bad = list.find((a) => isForbiddenAddress(a.address));
    if (bad || !list.length) return callback(new OutgoingRefused(hostname, bad ? `resolves to ${bad.address}` : 'no address'), '', 0);
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

function bare(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '');
}

function normaliseHost(host: string): string {
  return bare(host.toLowerCase()).replace(/\.$/, '');
}
