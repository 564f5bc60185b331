// A private production build of the server for the benchmark, in bench/.cache/build/, so a
// run measures one consistent snapshot of src/ (and never rewrites dist/ under someone's feet).
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, CACHE } from './paths.mjs';
import { newest } from '../../scripts/ensure-built.mjs';
import { buildServer } from '../../scripts/build-server.mjs';

export const BUILD = path.join(CACHE, 'build');
const STAMP = path.join(BUILD, '.stamp');
/** The server's modules one by one (not bundled), for the bench's own scripts to import (seed.mjs, queries.mjs, notify.mjs). */
const MODULES = path.join(BUILD, 'modules');

function link(target, at) {
  rmSync(at, { force: true, recursive: false });
  if (existsSync(target)) symlinkSync(target, at);
}

/** The .ts files below a folder, tests and test helpers left out. */
function sources(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((f) => !f.includes(`${path.sep}test${path.sep}`));
}

/**
 * Builds the server as `npm run build` does (scripts/build-server.mjs: one bundle) into
 * bench/.cache/build/dist/server, and its modules one by one into bench/.cache/build/modules
 * for the bench's scripts, when the sources are newer than the last build. public/ and the
 * client bundles (dist/client, dist/ssr, built by `npm run build`) are linked in so paths
 * resolve as in a real install. Returns the path of the bundle's main.js.
 */
export async function ensureServerBuild({ log = (s) => process.stderr.write(`${s}\n`), force = false } = {}) {
  const main = path.join(BUILD, 'dist/server/main.js');
  const stamp = Math.max(
    newest(path.join(ROOT, 'src/server')),
    newest(path.join(ROOT, 'src/shared')),
    statSync(path.join(ROOT, 'scripts/build-server.mjs')).mtimeMs,
  );
  const built = existsSync(STAMP) && existsSync(main) ? statSync(STAMP).mtimeMs : 0;
  if (force || stamp > built) {
    log('bench: building the server (scripts/build-server.mjs) into bench/.cache/build …');
    const started = Date.now();
    mkdirSync(path.join(BUILD, 'dist'), { recursive: true });
    await buildServer({ outdir: path.join(BUILD, 'dist/server'), quiet: true });
    rmSync(MODULES, { recursive: true, force: true });
    const esbuild = await import('esbuild');
    await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: [...sources(path.join(ROOT, 'src/server')), ...sources(path.join(ROOT, 'src/shared'))],
      outbase: path.join(ROOT, 'src'),
      outdir: MODULES,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'error',
    });
    writeFileSync(STAMP, String(Date.now()));
    log(`bench: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  link(path.join(ROOT, 'public'), path.join(BUILD, 'public'));
  link(path.join(ROOT, 'dist/client'), path.join(BUILD, 'dist/client'));
  link(path.join(ROOT, 'dist/ssr'), path.join(BUILD, 'dist/ssr'));
  return main;
}

/** The compiled server module at a path inside src/server (e.g. 'context.js'). */
export function serverModule(rel) {
  return path.join(MODULES, 'server', rel);
}
