// A production install (`npm ci && npm run build && npm prune --omit=dev`) after an update:
// the sources are newer than the build and the build tools are gone. Simulated offline: a copy
// of the repository (its `git ls-files`) with the build from dist/ and a node_modules holding
// only the packages package-lock.json marks for production (what `npm ci --omit=dev` installs,
// linked from this checkout), and no node_modules/.bin. Needs a build (CI builds first).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './test/net.js';
// @ts-expect-error: a plain JavaScript module of the build scripts, without types
import { START_ENV } from '../../scripts/start-env.mjs';

const repo = path.resolve(import.meta.dirname, '../..');
const built = existsSync(path.join(repo, 'dist/server/main.js')) && existsSync(path.join(repo, 'dist/client/.vite/manifest.json'));
let dir: string;
const children: ChildProcess[] = [];

/** A copy of the repository as a production install has it. */
function productionCopy(): string {
  const target = mkdtempSync(path.join(tmpdir(), 'palaver-prod-'));
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const f of files) if (existsSync(path.join(repo, f))) cpSync(path.join(repo, f), path.join(target, f), { recursive: true });
  // Copied after the sources, so the build starts out newer than them, as after `npm run build`.
  cpSync(path.join(repo, 'dist'), path.join(target, 'dist'), { recursive: true });
  const lock = JSON.parse(readFileSync(path.join(repo, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  for (const [key, meta] of Object.entries(lock.packages)) {
    // Top-level packages only: nested ones live inside their parent's folder.
    const name = /^node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(key)?.[1];
    if (!name || meta.dev) continue;
    const link = path.join(target, 'node_modules', name);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(path.join(repo, 'node_modules', name), link, 'dir');
  }
  return target;
}

/** Runs `npm start`'s command (with the environment its script gives) in the copy until it listens (or exits); returns its output. */
async function start(): Promise<{ code: number | null; stderr: string; port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/palaver.mjs', 'start'], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...START_ENV, PORT: String(port), HOST: '127.0.0.1', PALAVER_DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'info' },
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => {
    child.once('exit', (c) => resolve(c));
    child.stdout!.on('data', () => stdout.includes('Palaver is listening') && resolve(null));
  });
  return { code, stderr, port, child };
}

beforeAll(() => {
  if (built) dir = productionCopy();
}, 60_000);
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!built)('a production install', () => {
  it('has no build tools, as after npm prune --omit=dev', () => {
    expect(existsSync(path.join(dir, 'node_modules', 'typescript'))).toBe(false);
    expect(existsSync(path.join(dir, 'node_modules', 'vite'))).toBe(false);
    expect(existsSync(path.join(dir, 'node_modules', 'react'))).toBe(false);
    expect(existsSync(path.join(dir, 'node_modules', 'fastify'))).toBe(true);
  });

  it('serves the old build, with one warning line, once the sources are newer than it', async () => {
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(dir, 'src/server/main.ts'), later, later);
    utimesSync(path.join(dir, 'src/client/main.tsx'), later, later);
    const { code, stderr, port, child } = await start();
    expect(code, stderr).toBeNull();
    expect(stderr).not.toMatch(/ENOENT|spawnSync/);
    const warnings = stderr.split('\n').filter((l) => l.startsWith('palaver: '));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/older than the sources.*npm ci && npm run build/);
    const config = await fetch(`http://127.0.0.1:${port}/api/config`);
    expect(config.status).toBe(200);
    // The client build is served: the page links its module script, which loads.
    const page = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    const script = /<script type="module" src="([^"]+)"/.exec(page)?.[1];
    expect(script).toBeTruthy();
    expect((await fetch(`http://127.0.0.1:${port}${script}`)).status).toBe(200);
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }, 120_000);

  it('says what to run, without a stack trace, when there is no build and no build tools', async () => {
    rmSync(path.join(dir, 'dist', 'server'), { recursive: true });
    const { code, stderr } = await start();
    expect(code).toBe(1);
    expect(stderr.trim()).toMatch(/^palaver: no build in dist\/ and the build tools \(esbuild.*\) are not installed: run `npm ci && npm run build`/);
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 120_000);
});
