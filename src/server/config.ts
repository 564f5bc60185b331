import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MEMORY_MODES, type MemoryMode } from './memory.js';

/** One entry of the socket origins list (realtime/origins.ts): `http(s)://host[:port|:*]`. Here, not there: the configuration loads before anything else. */
export const SOCKET_ORIGIN = /^(https?:)\/\/([^\s/:?#]+|\[[0-9a-f:.]+\])(?::(\d{1,5}|\*))?\/?$/i;

/** Whether `entry` is a valid origins entry (`*`, or `http(s)://host[:port|:*]`). */
function validSocketOrigin(entry: string): boolean {
  return entry === '*' || SOCKET_ORIGIN.test(entry.trim());
}

/** Infrastructure configuration, read once at start from the environment and config.json. */
export interface Config {
  /** Public base URL without a trailing slash, e.g. http://host/forum */
  url: string;
  /** Path part of url ('' at the root, '/forum' under a sub-path). */
  relativePath: string;
  port: number;
  host: string;
  dataDir: string;
  /** null: the embedded SQLite file in dataDir. */
  databaseUrl: string | null;
  /** Where files live: null for the data dir, or `s3://bucket/prefix?endpoint=…&region=…` (storage/index.ts). */
  storage: string | null;
  redisUrl: string | null;
  /** Prefix of every Redis key and channel, so several forums can share one Redis. */
  redisPrefix: string;
  /** Socket.io transports in the order clients try them; websocket alone suits a balancer without sticky sessions. */
  socketTransports: ('websocket' | 'polling')[];
  /** Where browsers open their socket (NodeBB's websocketAddress): '' for this server, or another origin serving it. */
  websocketAddress: string;
  /**
   * Browser origins allowed to open a socket besides the page's own (NodeBB's `socket.io:origins`):
   * `scheme://host[:port|:*]` entries or `*`; null for the forum URL's host on any port (realtime/origins.ts).
   */
  socketOrigins: string[] | null;
  secret: string;
  env: 'production' | 'development' | 'test';
  /** Served in the client config; changes when the server is rebuilt or restarted. */
  cacheBuster: string;
  logLevel: string;
  /** How long a page served to guests may be reused (ms); 0 turns the guest cache off. */
  guestCacheMs: number;
  /** `off` keeps nothing in any cache (every read builds its answer anew): for tests and diagnosis. */
  cache: 'on' | 'off';
  /** How long an outbox row stays with the process that wrote or took it before another may run it (ms). */
  outboxLeaseMs: number;
  trustProxy: boolean;
  /**
   * Hosts the outgoing-request guard lets through although they are not public (http/outgoing.ts):
   * for tests that start a receiver on loopback. Empty by default; a production forum keeps it so.
   */
  outgoingAllow: string[];
  /** How a serving process trades memory for CPU: auto (low on SQLite under 1 GB), low or fast (see memory.ts). */
  memory: MemoryMode;
  admin: { username: string; email: string; password: string } | null;
  rateLimits: {
    /** Login attempts per IP per minute. */
    login: number;
    /** Registrations per IP per hour. */
    register: number;
    /** Posts (topics and replies) per member per minute. */
    posts: number;
  };
}

/** Raised when a configuration value is invalid; carries one line per bad value. */
export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Source = Record<string, unknown>;

function readConfigFile(file: string, problems: string[]): Source {
  if (!existsSync(file)) return {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Source;
    problems.push(`${file}: must hold a JSON object`);
  } catch (err) {
    problems.push(`${file}: not valid JSON (${(err as Error).message})`);
  }
  return {};
}

function intValue(name: string, raw: unknown, fallback: number, problems: string[], min = 0, max = 1e9): number {
  if (raw === undefined || raw === '') return fallback;
  const n = typeof raw === 'number' ? raw : Number(String(raw));
  if (!Number.isInteger(n) || n < min || n > max) {
    problems.push(`${name}: expected a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    return fallback;
  }
  return n;
}

function loadSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * Builds the configuration from environment variables (which win) and an optional
 * config.json; throws ConfigError listing every bad value.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const problems: string[] = [];
  const fileName = env.PALAVER_CONFIG ?? path.join(cwd, 'config.json');
  const file = readConfigFile(path.resolve(cwd, fileName), problems);
  const pick = (envName: string, fileKey: string): unknown => env[envName] ?? file[fileKey];

  const port = intValue('PORT', pick('PORT', 'port'), 4567, problems, 0, 65535);
  const host = String(pick('HOST', 'host') ?? '127.0.0.1');
  const rawUrl = String(pick('PALAVER_URL', 'url') ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`);
  let url = rawUrl.replace(/\/+$/, '');
  let relativePath = '';
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('protocol');
    relativePath = parsed.pathname.replace(/\/+$/, '');
    url = `${parsed.origin}${relativePath}`;
  } catch {
    problems.push(`PALAVER_URL: expected an http(s) URL such as http://example.com/forum, got ${JSON.stringify(rawUrl)}`);
  }

  const dataDir = path.resolve(cwd, String(pick('PALAVER_DATA_DIR', 'dataDir') ?? './data'));
  const dbRaw = pick('DATABASE_URL', 'databaseUrl');
  const databaseUrl = dbRaw ? String(dbRaw) : null;
  if (databaseUrl && !/^(postgres|postgresql):\/\//.test(databaseUrl)) {
    problems.push(`DATABASE_URL: only postgres:// URLs are supported (leave it unset for SQLite), got ${JSON.stringify(databaseUrl.replace(/:[^:@/]*@/, ':***@'))}`);
  }
  const storageRaw = pick('PALAVER_STORAGE', 'storage');
  const storage = storageRaw ? String(storageRaw) : null;
  if (storage) {
    try {
      parseStorageUrl(storage);
    } catch (err) {
      problems.push(`PALAVER_STORAGE: ${(err as Error).message}, got ${JSON.stringify(storage)}`);
    }
  }
  const redisRaw = pick('REDIS_URL', 'redisUrl');
  const redisUrl = redisRaw ? String(redisRaw) : null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) {
    problems.push(`REDIS_URL: expected a redis:// URL, got ${JSON.stringify(redisUrl.replace(/:[^:@/]*@/, ':***@'))}`);
  }
  const transportsRaw = pick('PALAVER_SOCKET_TRANSPORTS', 'socketTransports') ?? 'websocket,polling';
  const socketTransports = (Array.isArray(transportsRaw) ? transportsRaw.map(String) : String(transportsRaw).split(',')).map((t) => t.trim()).filter(Boolean);
  if (!socketTransports.length || socketTransports.some((t) => t !== 'websocket' && t !== 'polling') || new Set(socketTransports).size !== socketTransports.length) {
    problems.push(`PALAVER_SOCKET_TRANSPORTS: expected "websocket", "polling" or both, comma separated, got ${JSON.stringify(transportsRaw)}`);
  }
  const websocketAddress = String(pick('PALAVER_WEBSOCKET_ADDRESS', 'websocketAddress') ?? '').trim();
  if (websocketAddress && !/^(https?|wss?):\/\/[^\s/?#]+\/?$/.test(websocketAddress)) {
    problems.push(`PALAVER_WEBSOCKET_ADDRESS: expected an origin such as https://live.example.org, got ${JSON.stringify(websocketAddress)}`);
  }
  const originsRaw = pick('PALAVER_SOCKET_ORIGINS', 'socketioOrigins');
  const socketOrigins =
    originsRaw === undefined || originsRaw === ''
      ? null
      : (Array.isArray(originsRaw) ? originsRaw.map(String) : String(originsRaw).split(',')).map((o) => o.trim()).filter(Boolean);
  if (socketOrigins && (!socketOrigins.length || socketOrigins.some((o) => !validSocketOrigin(o)))) {
    problems.push(`PALAVER_SOCKET_ORIGINS: expected origins such as https://example.org or https://example.org:*, comma separated, or *, got ${JSON.stringify(originsRaw)}`);
  }
  const nodeEnv = String(pick('NODE_ENV', 'env') ?? 'production');
  if (!['production', 'development', 'test'].includes(nodeEnv)) {
    problems.push(`NODE_ENV: expected production, development or test, got ${JSON.stringify(nodeEnv)}`);
  }
  const secretRaw = pick('PALAVER_SECRET', 'secret');
  if (secretRaw !== undefined && String(secretRaw).length < 16) {
    problems.push('PALAVER_SECRET: must be at least 16 characters long');
  }
  const adminUsername = env.PALAVER_ADMIN_USERNAME;
  const adminEmail = env.PALAVER_ADMIN_EMAIL;
  const adminPassword = env.PALAVER_ADMIN_PASSWORD;
  const anyAdmin = adminUsername || adminEmail || adminPassword;
  if (anyAdmin && !(adminUsername && adminEmail && adminPassword)) {
    problems.push('PALAVER_ADMIN_USERNAME, PALAVER_ADMIN_EMAIL and PALAVER_ADMIN_PASSWORD: set all three or none');
  }
  const limits = (file.rateLimits ?? {}) as Source;
  const rateLimits = {
    login: intValue('PALAVER_RATE_LOGIN', env.PALAVER_RATE_LOGIN ?? limits.login, 10, problems, 1),
    register: intValue('PALAVER_RATE_REGISTER', env.PALAVER_RATE_REGISTER ?? limits.register, 10, problems, 1),
    posts: intValue('PALAVER_RATE_POSTS', env.PALAVER_RATE_POSTS ?? limits.posts, 30, problems, 1),
  };
  const guestCacheMs = intValue('PALAVER_GUEST_CACHE_MS', pick('PALAVER_GUEST_CACHE_MS', 'guestCacheMs'), 2000, problems, 0, 600_000);
  const cache = String(pick('PALAVER_CACHE', 'cache') ?? 'on');
  if (cache !== 'on' && cache !== 'off') problems.push(`PALAVER_CACHE: expected on or off, got ${JSON.stringify(cache)}`);
  const outboxLeaseMs = intValue('PALAVER_OUTBOX_LEASE_MS', pick('PALAVER_OUTBOX_LEASE_MS', 'outboxLeaseMs'), 60_000, problems, 100, 3_600_000);
  const allowRaw = pick('PALAVER_OUTGOING_ALLOW', 'outgoingAllow') ?? '';
  const outgoingAllow = (Array.isArray(allowRaw) ? allowRaw.map(String) : String(allowRaw).split(',')).map((h) => h.trim()).filter(Boolean);
  const memory = String(pick('PALAVER_MEMORY', 'memory') ?? 'auto');
  if (!(MEMORY_MODES as readonly string[]).includes(memory)) {
    problems.push(`PALAVER_MEMORY: expected ${MEMORY_MODES.join(', ')}, got ${JSON.stringify(memory)}`);
  }
  if (problems.length) throw new ConfigError(problems);

  return {
    url,
    relativePath,
    port,
    host,
    dataDir,
    databaseUrl,
    storage,
    redisUrl,
    redisPrefix: String(pick('PALAVER_REDIS_PREFIX', 'redisPrefix') ?? 'palaver:'),
    socketTransports: socketTransports as Config['socketTransports'],
    websocketAddress: websocketAddress.replace(/\/$/, ''),
    socketOrigins,
    secret: secretRaw !== undefined ? String(secretRaw) : loadSecret(dataDir),
    env: nodeEnv as Config['env'],
    cacheBuster: String(pick('PALAVER_CACHE_BUSTER', 'cacheBuster') ?? Date.now().toString(36)),
    guestCacheMs,
    cache: cache as Config['cache'],
    outboxLeaseMs,
    logLevel: String(pick('LOG_LEVEL', 'logLevel') ?? (nodeEnv === 'test' ? 'silent' : 'info')),
    trustProxy: String(pick('PALAVER_TRUST_PROXY', 'trustProxy') ?? 'false') === 'true',
    memory: memory as MemoryMode,
    outgoingAllow,
    admin: anyAdmin ? { username: adminUsername!, email: adminEmail!, password: adminPassword! } : null,
    rateLimits,
  };
}

/** The parsed `PALAVER_STORAGE` value of an S3 store. */
export interface S3Location {
  bucket: string;
  /** Key prefix inside the bucket ('' or ending in '/'). */
  prefix: string;
  endpoint: string | null;
  region: string;
  /** Path-style URLs (`endpoint/bucket/key`): what MinIO, Ceph and most self-hosted stores need. */
  pathStyle: boolean;
}

/**
 * Parses `s3://bucket/prefix?endpoint=https://…&region=…&pathStyle=true`; throws with a
 * sentence for a bad value (config.ts reports it at start).
 */
export function parseStorageUrl(raw: string): S3Location {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error('expected s3://bucket/prefix?endpoint=…&region=…');
  }
  if (u.protocol !== 's3:') throw new Error('only s3:// is supported (leave it unset for the data dir)');
  const bucket = u.hostname;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error(`bucket name ${JSON.stringify(bucket)} is not a valid S3 bucket name`);
  const prefix = decodeURIComponent(u.pathname).replace(/^\/+|\/+$/g, '');
  if (prefix && !/^[A-Za-z0-9._/-]+$/.test(prefix)) throw new Error('the prefix may hold letters, digits, ".", "_", "-" and "/"');
  const endpoint = u.searchParams.get('endpoint');
  if (endpoint !== null && !/^https?:\/\/[^\s]+$/.test(endpoint)) throw new Error('endpoint must be an http(s) URL');
  for (const key of u.searchParams.keys()) {
    if (!['endpoint', 'region', 'pathStyle'].includes(key)) throw new Error(`unknown option ${JSON.stringify(key)} (endpoint, region, pathStyle)`);
  }
  const pathStyle = u.searchParams.get('pathStyle');
  return {
    bucket,
    prefix: prefix ? `${prefix}/` : '',
    endpoint,
    region: u.searchParams.get('region') || process.env.AWS_REGION || 'us-east-1',
    // A custom endpoint is nearly always a self-hosted store that wants path-style URLs.
    pathStyle: pathStyle === null ? endpoint !== null : pathStyle === 'true' || pathStyle === '1',
  };
}

/** How an S3 location is named in logs and on the admin page (no credentials in it). */
export function describeS3(loc: S3Location): string {
  return `s3://${loc.bucket}/${loc.prefix}${loc.endpoint ? ` (${loc.endpoint})` : ''}`;
}
