import { SOCKET_ORIGIN } from '../config.js';
/**
 * Which browser origins may open a socket (NodeBB's `socket.io:origins`, the client config's
 * `socketioOrigins`): a list of `scheme://host[:port]` entries, where the port may be `*` (any
 * port) and `*` alone admits every origin. A request from the page's own origin (its Origin
 * names the host the request came to) is always admitted, and so is one with no Origin (not a
 * browser page: a native client or a test). Anything else, say a page on another site opening
 * a socket with the member's cookies, is refused before the handshake.
 */

/** The default list: the forum URL's host on any port over its scheme (NodeBB's default). */
export function defaultSocketOrigins(url: string): string[] {
  const u = new URL(url);
  return [`${u.protocol}//${u.hostname}:*`];
}

/** The origins allowed to open a socket: the configured list, else the forum URL's host. */
export function socketOrigins(config: { socketOrigins: string[] | null; url: string }): string[] {
  return config.socketOrigins ?? defaultSocketOrigins(config.url);
}

interface Entry {
  protocol: string;
  hostname: string;
  /** null: any port. */
  port: string | null;
}

function parseEntry(entry: string): Entry | null {
  const m = SOCKET_ORIGIN.exec(entry.trim());
  if (!m) return null;
  const protocol = m[1]!.toLowerCase();
  const hostname = m[2]!.toLowerCase();
  const port = m[3] === '*' ? null : m[3] ?? (protocol === 'https:' ? '443' : '80');
  return { protocol, hostname, port };
}

const defaultPort = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');

/** Whether a socket request from `origin` (the Origin header) to `host` (the Host header) may proceed under `allowed`. */
export function socketOriginAllowed(origin: string | undefined, host: string | undefined, allowed: readonly string[]): boolean {
  if (!origin) return true;
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  if (host && o.host.toLowerCase() === host.toLowerCase()) return true;
  for (const entry of allowed) {
    if (entry === '*') return true;
    const e = parseEntry(entry);
    if (e && e.protocol === o.protocol && e.hostname === o.hostname.toLowerCase() && (e.port === null || e.port === defaultPort(o))) return true;
  }
  return false;
}
