import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyServerOptions } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { ForumSettings } from '../../shared/constants.js';
import { buildApp, type App } from '../app.js';
import { loadConfig } from '../config.js';
import type { AppContext } from '../context.js';
import { prepareDatabase } from '../setup.js';
import type { Viewer } from '../domains/privileges/service.js';
import type { UserRow } from '../domains/users/store.js';
import { HttpClient } from './http-client.js';

export interface TestForum {
  app: App;
  ctx: AppContext;
  /** http://127.0.0.1:<port><relative_path> */
  baseUrl: string;
  /** A new cookie-keeping HTTP client against this forum. */
  client(): HttpClient;
  /** Creates a member through the service (password: "Correct-Horse-42"). */
  createUser(opts?: { username?: string; email?: string; password?: string; admin?: boolean }): Promise<UserRow>;
  /** A client logged in as a new (or given) member. */
  loginAs(user?: UserRow | { admin?: boolean }, password?: string): Promise<{ client: HttpClient; user: UserRow }>;
  /** loginAs, with the member's viewer for calling services directly. */
  member(user?: UserRow | { admin?: boolean }): Promise<TestMember>;
  close(): Promise<void>;
}

/** A logged-in member: their HTTP client, their row and their viewer. */
export interface TestMember {
  client: HttpClient;
  user: UserRow;
  viewer: Viewer;
}

export const TEST_PASSWORD = 'Correct-Horse-42';

/**
 * True when the suite runs with every cache off (`PALAVER_CACHE=off`, a CI run): tests of a
 * cache itself skip, and tests that also check a page came from the cache check only the rest.
 */
export const CACHE_OFF = process.env.PALAVER_CACHE === 'off';
let counter = 0;

/** A fresh PostgreSQL database (one test file's, or a restore's target) on the server `baseUrl` names. */
export async function freshPostgres(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `palaver_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      // Wait (briefly) for the forum's pool to finish closing, so FORCE has nothing to kill.
      for (let i = 0; i < 40; i++) {
        const { rows } = await c.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * Starts a real forum on a fresh database (a new SQLite file, or a new PostgreSQL database
 * when DATABASE_URL is set), listening on a random loopback port.
 */
export async function startTestForum(
  opts: { settings?: Partial<ForumSettings>; relativePath?: string; env?: Record<string, string>; logger?: FastifyServerOptions['logger']; port?: number } = {},
): Promise<TestForum> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'palaver-test-'));
  const pgDb = process.env.DATABASE_URL ? await freshPostgres(process.env.DATABASE_URL) : null;
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      PALAVER_DATA_DIR: dataDir,
      PALAVER_SECRET: 'test-secret-test-secret-test-secret',
      // With a port (federation tests: the forum's URL names it, as its actors' ids do).
      PALAVER_URL: `http://127.0.0.1${opts.port ? `:${opts.port}` : ''}${opts.relativePath ?? ''}`,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
      PALAVER_RATE_LOGIN: '1000',
      PALAVER_RATE_REGISTER: '1000',
      PALAVER_RATE_POSTS: '1000',
      // Tests read right after writing; the guest cache has its own test.
      PALAVER_GUEST_CACHE_MS: '0',
      // Push, captcha and spam-lookup tests start their receivers on loopback (http/outgoing.ts).
      PALAVER_OUTGOING_ALLOW: '127.0.0.1',
      // CI runs the whole suite once more with every cache off (core/cache.ts).
      ...(process.env.PALAVER_CACHE ? { PALAVER_CACHE: process.env.PALAVER_CACHE } : {}),
      ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, PALAVER_REDIS_PREFIX: `palaver-test:${randomBytes(6).toString('hex')}:` } : {}),
      ...opts.env,
    },
    dataDir,
  );
  const app = await buildApp(config, { logger: opts.logger });
  const ctx = app.ctx;
  await prepareDatabase(ctx);
  // Tests post quickly; flood control has its own tests that turn it back on. The captcha and the
  // consent step are the registration domain's tests' to turn on (registration/*.test.ts).
  await ctx.settings.set({ postDelay: 0, newbiePostDelay: 0, initialPostDelay: 0, minimumPasswordStrength: 1, 'captcha:register': false, 'captcha:loginFailures': 0, gdpr_enabled: false, ...opts.settings });
  await app.listen({ port: opts.port ?? 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}${config.relativePath}`;

  const forum: TestForum = {
    app,
    ctx,
    baseUrl,
    client: () => new HttpClient(baseUrl),
    async createUser(o = {}) {
      counter += 1;
      const username = o.username ?? `user${process.pid % 1000}x${counter}`;
      return ctx.users.create({ username, email: o.email ?? `${username}@example.com`, password: o.password ?? TEST_PASSWORD }, { admin: o.admin });
    },
    async loginAs(u = {}, password = TEST_PASSWORD) {
      const user = 'uid' in u ? u : await forum.createUser({ admin: u.admin });
      const client = forum.client();
      const res = await client.post('/login', { username: user.username, password });
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
      return { client, user };
    },
    async member(u = {}) {
      const { client, user } = await forum.loginAs(u);
      return { client, user, viewer: await ctx.privileges.viewer(user.uid) };
    },
    async close() {
      await app.close();
      if (pgDb) await pgDb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return forum;
}

/**
 * A second app process on the forum's database (and Redis, when set), listening on its own
 * port: the cluster tests' "other process". Its shared caches are subscribed before it returns.
 */
export async function startSecondProcess(forum: TestForum): Promise<{ app: App; url: string; close: () => Promise<void> }> {
  const app = await buildApp(forum.ctx.config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  await app.ctx.changes.listening();
  await forum.ctx.changes.listening();
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}${forum.ctx.config.relativePath}`;
  return { app, url, close: () => app.close() };
}
