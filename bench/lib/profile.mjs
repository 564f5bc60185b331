// Summarises a V8 .cpuprofile (from node --cpu-prof): self time by function, and by file.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.mjs';

function where(frame) {
  const url = frame.url.replace(/^file:\/\//, '').replace(`${ROOT}/`, '');
  return url ? `${url}:${frame.lineNumber + 1}` : '';
}

/** The hottest functions (self time) of the newest profile in dir. */
export function summariseProfile(dir, top = 25) {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort();
  if (!files.length) return { file: null, top: [] };
  const file = path.join(dir, files[files.length - 1]);
  const prof = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  // Sample counts weighted by their time deltas give each node's self time.
  for (let i = 0; i < prof.samples.length; i++) {
    const node = byId.get(prof.samples[i]);
    const dt = prof.timeDeltas[i] ?? 0;
    if (!node || node.callFrame.functionName === '(idle)') continue;
    total += dt;
    const key = `${node.callFrame.functionName || '(anonymous)'}|${where(node.callFrame)}`;
    self.set(key, (self.get(key) ?? 0) + dt);
  }
  const byFile = new Map();
  for (const [key, t] of self) {
    const w = key.split('|')[1].replace(/:\d+$/, '') || key.split('|')[0];
    const group = w.includes('node_modules/') ? `node_modules/${w.split('node_modules/').pop().split('/').slice(0, w.includes('node_modules/@') ? 2 : 1).join('/')}` : w;
    byFile.set(group, (byFile.get(group) ?? 0) + t);
  }
  const list = [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, t]) => ({ name: key.split('|')[0], where: key.split('|')[1], pct: (100 * t) / total }));
  const files2 = [...byFile]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15)
    .map(([f, t]) => ({ file: f, pct: (100 * t) / total }));
  return { file, busyMs: total / 1000, top: list, byFile: files2 };
}
