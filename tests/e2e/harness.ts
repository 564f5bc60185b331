/**
 * Browser-test harness: the real forum (src/server, in this process, on a fresh database) and
 * one Chromium per test file, with a fresh context per test. Every request a page makes must go
 * to 127.0.0.1; any other host, any uncaught page error and any content-security policy
 * violation fail the test that made it.
 */
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import { buildApp, type App } from '../../src/server/app.js';
import { SESSION_COOKIE } from '../../src/server/http/auth.js';
import type { UserRow } from '../../src/server/domains/users/store.js';
import { startTestForum, TEST_PASSWORD, type TestForum } from '../../src/server/test/harness.js';

const require = createRequire(import.meta.url);
const root = join(import.meta.dirname, '../..');
const STALE_LOCK_MS = 5 * 60 * 1000;
/** Where screenshots go (git-ignored). */
export const SCREENSHOTS = join(root, 'test-output/screenshots');
/**
 * The axe-core script injected into pages: the minified build, which Chromium takes in half the
 * time of the readable one (0.5 s against 1.0 s a page on a 2-core CI machine).
 */
export const AXE_PATH = require.resolve('axe-core/axe.min.js');
/** Its text, read once (per worker: test files share the module cache). */
let axeSource: string | null = null;

/**
 * Builds whatever is stale (server, client, SSR bundle), once: test files run in parallel
 * workers, so a lock directory keeps two builds from writing dist/ at the same time.
 */
async function buildOnce(): Promise<void> {
  const lock = join(root, 'dist/.e2e-build-lock');
  mkdirSync(join(root, 'dist'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another worker builds; a lock left by a crashed run is taken over after 5 minutes.
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    const { ensureBuilt } = (await import(pathToFileURL(join(root, 'scripts/ensure-built.mjs')).href)) as { ensureBuilt(): void };
    ensureBuilt();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Chromium flags that keep a headless run quiet and offline (see STACK.md). */
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** This machine: 127.0.0.1, and localhost for the security-key test (WebAuthn refuses an IP address as its domain). */
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost']);

export const DESKTOP = { width: 1366, height: 900 };
export const PHONE = { width: 390, height: 844 };

export interface ContextOptions {
  /** Signed in as this member (a session made through the auth service); a visitor otherwise. */
  as?: UserRow;
  viewport?: { width: number; height: number };
  /** false: JavaScript disabled (server render only). */
  javaScript?: boolean;
  /** 'allow': the forum's service worker registers (blocked by default). */
  serviceWorkers?: 'allow' | 'block';
  /** Another browser's User-Agent header (the server reads it, e.g. useragent.isSafari). */
  userAgent?: string;
  /**
   * The browser's locale (navigator.language and Accept-Language); en-GB by default, so a
   * visitor reads the source texts (Chromium's own default, en-US, now has its own files).
   */
  locale?: string;
}

export interface E2E {
  forum: TestForum;
  /** http://127.0.0.1:<port><relative_path> */
  base: string;
  rp: string;
  browser: Browser;
  /** A fresh browser context (closed after the test). */
  context(opts?: ContextOptions): Promise<BrowserContext>;
  /** A fresh page at `path` (under the forum root), once the app has booted. */
  open(path: string, opts?: ContextOptions): Promise<Page>;
  /** Goes to `path` in an existing page and waits for the app to boot. */
  goto(page: Page, path: string): Promise<void>;
  /** Stops the HTTP and socket server (the data stays). */
  stopServer(): Promise<void>;
  /** Starts the forum again on the same port and data. */
  startServer(): Promise<void>;
}

/** A browser test's time limit (the suite's is 30 s). */
const E2E_TEST_TIMEOUT = 90_000;

/**
 * Registers the hooks of a browser test file: one forum (seeded by `seed`) and one Chromium
 * for the file; after each test its contexts close and its page errors and third-party
 * requests fail it. Returns an accessor valid inside tests.
 */
export function useE2E<S>(seed: (forum: TestForum) => Promise<S>, opts: { relativePath?: string } = {}): () => E2E & { data: S } {
  // A browser test walks through several pages, with screenshots and accessibility checks;
  // on a slower CI machine the longest took 28–31 s against the suite's 30 s. Each step
  // still fails in 10 s (the contexts' default timeouts below), so a missing element is
  // reported as such and not as the test's time running out.
  vi.setConfig({ testTimeout: E2E_TEST_TIMEOUT });
  let h: (E2E & { data: S }) | null = null;
  let browser: Browser | null = null;
  let forum: TestForum | null = null;
  let restarted: App | null = null;
  let contexts: BrowserContext[] = [];
  let problems: string[] = [];

  beforeAll(async () => {
    await buildOnce();
    const started = await Promise.all([
      startTestForum({ relativePath: opts.relativePath ?? '/forum' }),
      // launch() gives every browser a fresh temporary user-data-dir of its own.
      chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ARGS }),
    ]);
    forum = started[0];
    browser = started[1];
    const f = forum;
    const b = browser;
    const base = f.baseUrl;
    const url = new URL(base);
    const rp = url.pathname.replace(/\/$/, '');
    const port = Number(url.port);
    const data = await seed(f);

    const context = async (o: ContextOptions = {}) => {
      const ctx = await b.newContext({
        viewport: o.viewport ?? DESKTOP,
        javaScriptEnabled: o.javaScript ?? true,
        serviceWorkers: o.serviceWorkers ?? 'block',
        locale: o.locale ?? 'en-GB',
        ...(o.userAgent ? { userAgent: o.userAgent } : {}),
      });
      contexts.push(ctx);
      // Bounded waits: a missing element fails in seconds, with the locator in the message.
      ctx.setDefaultTimeout(10_000);
      ctx.setDefaultNavigationTimeout(10_000);
      ctx.on('request', (r) => {
        const u = new URL(r.url());
        if (/^(https?|wss?):$/.test(u.protocol) && !LOCAL_HOSTS.has(u.hostname)) problems.push(`third-party request: ${r.url()}`);
      });
      ctx.on('page', (p) => watch(p));
      if (o.as) {
        const sid = await f.ctx.auth.createSession(o.as.uid, '127.0.0.1', 'e2e', 30);
        await ctx.addCookies([{ name: SESSION_COOKIE, value: sid, domain: '127.0.0.1', path: rp || '/', httpOnly: true, sameSite: 'Lax' }]);
      }
      return ctx;
    };
    const watch = (p: Page) => {
      p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      // Chromium reports what the content-security policy blocks as console errors.
      p.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) problems.push(`CSP violation: ${m.text()}`);
      });
      p.on('websocket', (ws) => {
        if (!LOCAL_HOSTS.has(new URL(ws.url()).hostname)) problems.push(`third-party websocket: ${ws.url()}`);
      });
    };
    const goto = async (page: Page, path: string) => {
      await page.goto(base + path);
      const js = await page.evaluate(() => true).catch(() => false);
      if (js) {
        await page.waitForSelector('html[data-loaded]', { state: 'attached', timeout: 10_000 }).catch((err: Error) => {
          throw new Error(`${path} did not finish loading: ${err.message}`);
        });
      }
    };

    h = {
      forum: f,
      base,
      rp,
      browser: b,
      data,
      context,
      async open(path, o) {
        const ctx = await context(o);
        const page = await ctx.newPage();
        if (o?.javaScript === false) await page.goto(base + path);
        else await goto(page, path);
        return page;
      },
      goto,
      async stopServer() {
        await (restarted ?? f.app).close();
      },
      async startServer() {
        const app = await buildApp(f.ctx.config);
        await app.listen({ port, host: '127.0.0.1' });
        restarted = app;
        // The forum's services are the new app's from now on (the old database handle is closed).
        Object.assign(f, {
          app,
          ctx: app.ctx,
          createUser: async (o: Parameters<TestForum['createUser']>[0] = {}) =>
            app.ctx.users.create({ username: o.username!, email: o.email ?? `${o.username}@example.com`, password: o.password ?? TEST_PASSWORD }, { admin: o.admin }),
        });
      },
    };
  });

  afterEach(async () => {
    const found = problems;
    problems = [];
    await Promise.all(contexts.map(async (c) => c.close().catch(() => undefined)));
    contexts = [];
    expect(found, 'third-party requests or page errors').toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    if (restarted) await restarted.close();
    await forum?.close();
  });

  return () => {
    if (!h) throw new Error('useE2E: used outside a test');
    return h;
  };
}

/** Runs axe-core in the page; returns its serious and critical violations as short strings. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: a <script> tag would be an inline script, which
  // the forum's content-security policy (rightly) blocks.
  await page.evaluate((axeSource ??= readFileSync(AXE_PATH, 'utf8')));
  return page.evaluate(async () => {
    // The check reads the page as it settles: a transition still running (a button's 0.15 s
    // hover colours under the pointer that just clicked where it now stands, a fade) has
    // colours between two states, which axe would measure as poor contrast. Endless
    // animations (spinners) are not waited for, nor any for longer than 2 s.
    const finite = document.getAnimations().filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    await Promise.race([Promise.all(finite.map(async (a) => a.finished.catch(() => undefined))), new Promise((r) => setTimeout(r, 2000))]);
    type Result = { violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] };
    const axe = (window as unknown as { axe: { run(d: Document, o: unknown): Promise<Result> } }).axe;
    const res = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] });
    return res.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.impact} ${v.id} (${v.help}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** Seeds categories, members and topics through the services, as members would make them. */
export async function seedSmall(forum: TestForum) {
  const { SYSTEM } = await import('../../src/server/setup.js');
  const ctx = forum.ctx;
  const general = await ctx.categories.create(SYSTEM, { name: 'General Discussion', description: 'Talk about anything.', icon: 'fa-comments', bgColor: '#2c7be5' });
  const help = await ctx.categories.create(SYSTEM, { name: 'Help & Support', description: 'Ask the community.', icon: 'fa-life-ring', bgColor: '#27ae60' });
  const alice = await forum.createUser({ username: 'alice', admin: true });
  const bob = await forum.createUser({ username: 'bob' });
  const carol = await forum.createUser({ username: 'carol' });
  const as = async (u: UserRow) => ({ ...(await ctx.privileges.viewer(u.uid)), master: true });
  const welcome = await ctx.topics.create(await as(alice), { cid: general.cid, title: 'Welcome to Palaver', content: 'Welcome everyone! This forum **feels fast**.' });
  await ctx.posts.reply(await as(bob), welcome.topic.tid, { content: 'Looks great, thanks for setting it up.' });
  await ctx.posts.reply(await as(carol), welcome.topic.tid, { content: 'Agreed! Happy to be here.' });
  const avatar = await ctx.topics.create(await as(bob), { cid: help.cid, title: 'How do I change my avatar?', content: 'I cannot find the setting for my picture.' });
  await seenEverything(forum, [alice, bob, carol]);
  return { general, help, alice, bob, carol, welcome: welcome.topic, avatar: avatar.topic };
}

/**
 * A seed is old news: its notifications are delivered and read, so a test starts with no
 * unread count (and titles without a "(n)" prefix). Call it at the end of a seed.
 */
export async function seenEverything(forum: TestForum, members: UserRow[]): Promise<void> {
  await forum.ctx.hooks.idle();
  for (const u of members) await forum.ctx.notifications.markAllRead(await forum.ctx.privileges.viewer(u.uid));
}

/** The path of a topic (slug as the server stores it). */
export const topicPath = (t: { tid: number; slug: string }) => `/topic/${t.slug.includes('/') ? t.slug : `${t.tid}/${t.slug}`}`;
/** The path of a category. */
export const categoryPath = (c: { cid: number; slug: string }) => `/category/${c.slug.includes('/') ? c.slug : `${c.cid}/${c.slug}`}`;
