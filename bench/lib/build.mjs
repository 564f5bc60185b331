// A private production build of the server for the benchmark, in bench/.cache/build/, so a
// run measures one consistent snapshot of src/ (and never rewrites dist/ under someone's feet).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, CACHE } from './paths.mjs';
import { newest } from '../../scripts/ensure-built.mjs';

export const BUILD = path.join(CACHE, 'build');
const STAMP = path.join(BUILD, '.stamp');

function link(target, at) {
  rmSync(at, { force: true, recursive: false });
  if (existsSync(target)) symlinkSync(target, at);
}

/**
 * Compiles src/server and src/shared with tsconfig.build.json into bench/.cache/build/dist
 * when the sources are newer than the last build. public/ and the client bundles (dist/client,
 * dist/ssr, built by `npm run build`) are linked in so paths resolve as in a real install.
 * Returns the path of the compiled main.js.
 */
export function ensureServerBuild({ log = (s) => process.stderr.write(`${s}\n`), force = false } = {}) {
  const main = path.join(BUILD, 'dist/server/main.js');
  const sources = Math.max(newest(path.join(ROOT, 'src/server')), newest(path.join(ROOT, 'src/shared')), statSync(path.join(ROOT, 'tsconfig.build.json')).mtimeMs);
  const built = existsSync(STAMP) && existsSync(main) ? statSync(STAMP).mtimeMs : 0;
  if (force || sources > built) {
    log('bench: compiling the server (tsc -p tsconfig.build.json) into bench/.cache/build …');
    const started = Date.now();
    rmSync(path.join(BUILD, 'dist/server'), { recursive: true, force: true });
    rmSync(path.join(BUILD, 'dist/shared'), { recursive: true, force: true });
    mkdirSync(path.join(BUILD, 'dist'), { recursive: true });
    try {
      execFileSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json', '--outDir', path.join(BUILD, 'dist')], { cwd: ROOT, stdio: 'pipe' });
    } catch (err) {
      // tsc still emits on type errors; a half-finished edit elsewhere should not stop a run.
      const out = `${err.stdout ?? ''}${err.stderr ?? ''}`.trim().split('\n').slice(0, 8).join('\n');
      if (!existsSync(main)) throw new Error(`bench: the server does not compile:\n${out}`);
      log(`bench: tsc reported type errors (the emitted JavaScript is used anyway):\n${out}`);
    }
    writeFileSync(STAMP, String(Date.now()));
    log(`bench: compiled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  link(path.join(ROOT, 'public'), path.join(BUILD, 'public'));
  link(path.join(ROOT, 'dist/client'), path.join(BUILD, 'dist/client'));
  link(path.join(ROOT, 'dist/ssr'), path.join(BUILD, 'dist/ssr'));
  return main;
}

/** The compiled server module at a path inside dist/server (e.g. 'context.js'). */
export function serverModule(rel) {
  return path.join(BUILD, 'dist/server', rel);
}
