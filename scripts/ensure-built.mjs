// Builds whatever is missing or older than its sources, so `npm start` works on a fresh clone.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/** The newest modification time of any file below a folder (0 when it is missing). */
export function newest(dir) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

function stale(output, ...sources) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((s) => newest(path.join(root, s)) > built);
}

function run(cmd, args) {
  process.stderr.write(`palaver: building (${path.basename(cmd)} ${args.join(' ')})\n`);
  // Always a production build, even when called from a test runner that sets NODE_ENV=test
  // (React would otherwise be bundled with its development JSX runtime).
  execFileSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}

/** Builds the server and the client when their output is missing or stale. */
export function ensureBuilt() {
  if (stale(path.join(root, 'dist/server/main.js'), 'src/server', 'src/shared')) {
    run(bin('tsc'), ['-p', 'tsconfig.build.json']);
  }
  const hasClient = existsSync(path.join(root, 'src/client/main.tsx')) && existsSync(path.join(root, 'vite.config.ts'));
  if (hasClient && stale(path.join(root, 'dist/client/.vite/manifest.json'), 'src/client', 'src/shared', 'public')) {
    run(bin('vite'), ['build', '--logLevel', 'warn']);
    if (existsSync(path.join(root, 'src/client/entry-server.tsx'))) {
      run(bin('vite'), ['build', '--ssr', 'src/client/entry-server.tsx', '--outDir', 'dist/ssr', '--logLevel', 'warn']);
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureBuilt();
