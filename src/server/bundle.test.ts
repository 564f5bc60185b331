// The production build of the server (scripts/build-server.mjs): one bundle in a few files. Its
// three promises: the memory flags are set before the bulk of the server loads (main.js loads
// only the configuration's modules before it imports the CLI); every file is ASCII, so V8 holds
// its source text at one byte a character; and the packages that must stay Node's (native code,
// lazily loaded, reading their own files) are imported, not bundled.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');
const out = mkdtempSync(path.join(tmpdir(), 'palaver-bundle-'));
const read = (file: string) => readFileSync(path.join(out, file), 'utf8');
/** The files a module imports by a static `import` (not `import()`), from its bundled text. */
const staticImports = (js: string) => [...js.matchAll(/(?:^|[;\n}])\s*import\s*(?:[^'"()]*?from\s*)?["'](\.\/[^"']+)["']/g)].map((m) => m[1]!.slice(2));
/** The source files a bundled file was made from, by its source map. */
const sourcesOf = (file: string) => (JSON.parse(read(`${file}.map`)) as { sources: string[] }).sources.map((s) => path.relative(repo, path.resolve(out, s)));

beforeAll(() => {
  execFileSync(process.execPath, [path.join(repo, 'scripts/build-server.mjs'), '--outdir', out], { cwd: repo, stdio: 'pipe' });
}, 60_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the server bundle', () => {
  it('loads only the configuration before main.js imports the CLI, so the memory flags come first', () => {
    const main = read('main.js');
    expect(main).toMatch(/await import\(["']\.\/cli-[A-Z0-9]+\.js["']\)/);
    const first = new Set<string>();
    const visit = (file: string) => {
      for (const f of staticImports(read(file))) {
        if (first.has(f)) continue;
        first.add(f);
        visit(f);
      }
    };
    visit('main.js');
    const modules = [...first, 'main.js'].flatMap(sourcesOf);
    expect(modules).toContain('src/server/memory-start.ts');
    expect(modules.filter((m) => m.startsWith('node_modules/'))).toEqual([]);
    expect(modules.filter((m) => !['config', 'memory', 'memory-start', 'main'].some((n) => m === `src/server/${n}.ts`))).toEqual([]);
  });

  it('is ASCII in every file', () => {
    const files = readdirSync(out).filter((f) => f.endsWith('.js'));
    expect(files.length).toBeGreaterThan(3);
    for (const f of files) expect(read(f).match(/[^\t-\x7f]/)?.[0], f).toBeUndefined();
    // markdown-it's typographer has a regular expression of '…', escaped, not dropped.
    expect(files.some((f) => read(f).includes('\\u2026'))).toBe(true);
  });

  it('bundles the pure-JavaScript packages and leaves the others to Node', () => {
    const files = readdirSync(out).filter((f) => f.endsWith('.js'));
    const bundled = new Set(
      files
        .flatMap(sourcesOf)
        .map((s) => /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(s)?.[1])
        .filter(Boolean),
    );
    for (const name of ['fastify', 'kysely', 'typebox', 'markdown-it']) expect(bundled).toContain(name);
    for (const name of ['better-sqlite3', 'sharp', 'nodemailer', '@simplewebauthn/server', 'pg', 'ioredis', 'pino', 'socket.io'])
      expect(bundled).not.toContain(name);
    const text = files.map(read).join('\n');
    expect(text).toMatch(/from\s*["']better-sqlite3["']/);
    expect(text).toMatch(/import\(["']sharp["']\)/);
  });
});

// The client's server-render bundle (dist/ssr, `npm run build`): React's development build,
// chosen at run time by NODE_ENV, which `npm start` leaves unset, rendered every page with its
// checks (issue 58's profile). The build folds NODE_ENV to production, so it is not there at all.
const ssrBundle = path.join(repo, 'dist/ssr/entry-server.js');
describe.skipIf(!existsSync(ssrBundle))('the server-render bundle', () => {
  it("holds React's production build only, whatever NODE_ENV the server starts with", () => {
    const js = readFileSync(ssrBundle, 'utf8');
    expect(js).not.toContain('process.env.NODE_ENV');
    // A warning only React DOM's development build has.
    expect(js).not.toContain('flushSync was called from inside a lifecycle method');
    expect(js).toContain('renderToString');
  });
});
