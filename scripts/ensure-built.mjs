// Builds whatever is missing or older than its sources, so `npm start` works on a fresh clone;
// a production install without the build tools serves its build as it is (with a warning).
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

/**
 * The builds that are missing or older than their sources: the server (bundled by esbuild,
 * scripts/build-server.mjs) and, when the client's sources are present, the client and its
 * server-render bundle (vite).
 */
function pendingBuilds() {
  const steps = [];
  const server = path.join(root, 'dist/server/main.js');
  // The bundler runs through its script, as `npm run build` runs it; `tool` is what it needs installed.
  if (stale(server, 'src/server', 'src/shared')) steps.push({ output: server, tool: 'esbuild', commands: [[process.execPath, ['scripts/build-server.mjs']]] });
  const hasClient = existsSync(path.join(root, 'src/client/main.tsx')) && existsSync(path.join(root, 'vite.config.ts'));
  const client = path.join(root, 'dist/client/.vite/manifest.json');
  if (hasClient && stale(client, 'src/client', 'src/shared', 'public')) {
    const commands = [[bin('vite'), ['build', '--logLevel', 'warn']]];
    if (existsSync(path.join(root, 'src/client/entry-server.tsx'))) {
      commands.push([bin('vite'), ['build', '--ssr', 'src/client/entry-server.tsx', '--outDir', 'dist/ssr', '--logLevel', 'warn']]);
    }
    steps.push({ output: client, tool: 'vite', commands });
  }
  return steps;
}

/**
 * Builds the server and the client when their output is missing or stale. Without the build
 * tools (a production install: `npm ci --omit=dev`), a stale build is served as it is, with
 * one warning line saying what to run; a missing build is an error with the same advice.
 */
export function ensureBuilt({ warn = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const steps = pendingBuilds();
  const toolless = steps.filter((s) => !existsSync(bin(s.tool)));
  if (toolless.length) {
    const missing = toolless.filter((s) => !existsSync(s.output));
    const advice = 'run `npm ci && npm run build` (then `npm prune --omit=dev` if you like) to rebuild';
    if (missing.length) {
      throw new Error(`palaver: no build in dist/ and the build tools (${toolless.map((s) => s.tool).join(', ')}) are not installed: ${advice}`);
    }
    warn(
      `palaver: warning: the build in dist/ is older than the sources and the build tools are not installed (production install): serving the old build; ${advice}`,
    );
    return;
  }
  for (const step of steps) for (const [cmd, args] of step.commands) run(cmd, args);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureBuilt();
