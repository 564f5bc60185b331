// Development: rebuilds the client and its server-render bundle on change, and restarts the
// server (tsx watch) when server code or the render bundle changes. Ctrl+C stops all three.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
// PALAVER_LIVERELOAD: the server tells administrators' open pages to reload after a client rebuild.
const env = { ...process.env, NODE_ENV: 'development', PALAVER_LIVERELOAD: '1' };

const children = [
  spawn(bin('vite'), ['build', '--watch', '--mode', 'development', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit', env }),
  spawn(bin('vite'), ['build', '--ssr', 'src/client/entry-server.tsx', '--outDir', 'dist/ssr', '--watch', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...env, NODE_ENV: 'production' },
  }),
  spawn(bin('tsx'), ['watch', '--include', 'dist/ssr/entry-server.js', 'src/server/main.ts', 'start'], { cwd: root, stdio: 'inherit', env }),
];

const stop = () => {
  for (const c of children) c.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => code && code !== 0 && stop());
