// The server's production build: src/server/main.ts and everything it imports, our code and the
// pure-JavaScript packages alike, bundled by esbuild into a few files in dist/server/. Node then
// loads some 20 files at start instead of some 2,050 modules (docs/memory.md, "Where the memory
// goes": each module costs its record, its loader cache entries and its share of start-up).
// The type check is `npm run typecheck`, which CI runs before the build.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Packages left to Node's own loader, each for a reason that bundling would break:
 * - native code: better-sqlite3, @node-rs/argon2, sharp;
 * - loaded only when used (by `import()` or createRequire, see lazy-imports.test.ts), so a
 *   forum that never uses them never reads them: sharp, nodemailer, @simplewebauthn/server, pg,
 *   ioredis, @socket.io/redis-adapter;
 * - reading their own files by `__dirname` at run time: pino (its transport workers), socket.io
 *   (the client files it serves), @fastify/swagger (its package.json).
 */
export const EXTERNAL = [
  'better-sqlite3',
  '@node-rs/argon2',
  'sharp',
  'nodemailer',
  '@simplewebauthn/server',
  'pg',
  'ioredis',
  '@socket.io/redis-adapter',
  'pino',
  'socket.io',
  '@fastify/swagger',
];

/**
 * Bundles the server into `outdir` (emptied first): main.js, the entry `bin/palaver.mjs` runs,
 * and the chunks it loads. Code splitting keeps each `import()` a file of its own, loaded when
 * first used: the CLI after the memory flags are set (main.ts), the password-strength
 * dictionaries, the demo seed. All files sit in one folder, so a module's `import.meta.url`
 * (i18n.ts's public/, analytics' package.json) resolves as it did from dist/server/<file>.js.
 */
export async function buildServer({ outdir = path.join(root, 'dist/server'), quiet = false } = {}) {
  const esbuild = await import('esbuild');
  rmSync(outdir, { recursive: true, force: true });
  const started = Date.now();
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['src/server/main.ts'],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    // CommonJS packages in an ES module bundle still call require() for Node's built-ins.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: true,
    legalComments: 'none',
    logLevel: quiet ? 'error' : 'warning',
  });
  return Date.now() - started;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ms = await buildServer();
  process.stderr.write(`palaver: server bundled into dist/server in ${ms} ms\n`);
}
