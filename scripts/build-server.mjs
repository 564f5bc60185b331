// The server's production build: src/server/main.ts and everything it imports, our code and the
// pure-JavaScript packages alike, bundled by esbuild into a few files in dist/server/. Node then
// loads some 230 files at start (the bundle's 13 and those of the packages left to it) instead
// of some 2,150 (docs/memory.md, "Where it goes": each module costs its record, its loader cache
// entries and its share of start-up).
// The type check is `npm run typecheck`, which CI runs before the build.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Packages left to Node's own loader, each for a reason that bundling would break:
 * - native code: better-sqlite3, @node-rs/argon2, sharp;
 * - loaded only when used (by `import()` or createRequire, see lazy-imports.test.ts), so a
 *   forum that never uses them never reads them: sharp, nodemailer, @simplewebauthn/server, pg,
 *   ioredis, @socket.io/redis-adapter, @fastify/swagger, the AWS SDK (PALAVER_STORAGE=s3://…);
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
  '@aws-sdk/client-s3',
  '@aws-sdk/lib-storage',
  '@aws-sdk/s3-request-presigner',
];

/**
 * JavaScript text with every character beyond ASCII written as a \u escape: the same string,
 * regular expression or identifier to the parser (a character beyond the first plane as its
 * two surrogates, which a `u` regular expression also reads as one character).
 */
export function asciiOnly(js) {
  return js.replace(/[^\t-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

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
  const { outputFiles } = await esbuild.build({
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
    // The server keeps each file's source text in its heap for as long as it runs (V8 compiles
    // functions lazily from it). Comments and whitespace out, it is 5.3 MB instead of 8.7; one
    // character beyond Latin-1 (a comment's arrow, a regular expression's ẞ) made V8 hold a
    // whole file at two bytes a character, so what esbuild leaves (regular expressions) is
    // escaped below. Names are kept: a stack trace names its functions
    // (NODE_OPTIONS=--enable-source-maps gives the source lines, from the .map files).
    minifyWhitespace: true,
    minifySyntax: true,
    charset: 'ascii',
    sourcemap: true,
    legalComments: 'none',
    write: false,
    logLevel: quiet ? 'error' : 'warning',
  });
  mkdirSync(outdir, { recursive: true });
  for (const file of outputFiles) {
    writeFileSync(file.path, file.path.endsWith('.js') ? asciiOnly(file.text) : file.contents);
  }
  return Date.now() - started;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // `--outdir DIR`: elsewhere than dist/server (the tests' build).
  const at = process.argv.indexOf('--outdir');
  const outdir = at > 0 ? path.resolve(process.argv[at + 1]) : undefined;
  const ms = await buildServer({ outdir });
  process.stderr.write(`palaver: server bundled into ${path.relative(process.cwd(), outdir ?? path.join(root, 'dist/server')) || '.'} in ${ms} ms\n`);
}
