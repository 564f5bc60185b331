import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startPreviewServer } from './preview-server.js';

const require = createRequire(import.meta.url);
const root = join(import.meta.dirname, '../..');
const STALE_LOCK_MS = 5 * 60 * 1000;

/**
 * Builds the client (and server) when stale, once: test files run in parallel workers, so a
 * lock directory keeps two builds from writing dist/ at the same time.
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

export interface Harness {
  base: string;
  browser: Browser;
  /** A fresh page; `guest` serves it as a visitor. Collects console errors and third-party requests. */
  open(path: string, opts?: { guest?: boolean; width?: number }): Promise<{ page: Page; context: BrowserContext; errors: string[]; external: string[] }>;
  close(): Promise<void>;
}

/** Starts the stand-in server and Chromium (CHROMIUM_PATH, default /usr/bin/chromium). */
export async function startHarness(rp = '/forum'): Promise<Harness> {
  await buildOnce();
  const server = await startPreviewServer(0, rp);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ARGS });
  const origin = new URL(server.url).origin;
  return {
    base: server.url,
    browser,
    async open(path, opts = {}) {
      const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: 900 } });
      if (opts.guest) await context.addCookies([{ name: 'guest', value: '1', url: origin }]);
      const page = await context.newPage();
      const errors: string[] = [];
      const external: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        // Expected HTTP error statuses of the scenarios are not app errors.
        if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
      });
      page.on('request', (r) => {
        if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) external.push(r.url());
      });
      await page.goto(server.url + path, { waitUntil: 'networkidle' });
      await page.waitForSelector('html[data-loaded]', { state: 'attached' });
      return { page, context, errors, external };
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** Runs axe-core in the page and returns its violations as short strings. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8') });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(d: Document, o: unknown): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const res = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'best-practice'] });
    return res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** Adds a link inside the content area (to click internal addresses the fixtures do not link). */
export async function addLink(page: Page, id: string, href: string): Promise<void> {
  await page.evaluate(([i, h]) => {
    const a = document.createElement('a');
    a.id = i!;
    a.href = h!;
    a.textContent = i!;
    document.querySelector('main')!.prepend(a);
  }, [id, href]);
}
