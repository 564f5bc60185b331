// Import cycles (issue 51): none at run time, and the cycles through type imports may only
// shrink (they go as services take their dependencies explicitly instead of the context).
// Usage: node scripts/check-cycles.mjs  (CI runs it; exits 1 on a violation)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The type-import cycles that existed when the check was written: lower these as they go, never raise them. */
const TYPE_CYCLES_AT_MOST = { server: 84, client: 2 };
const ENTRIES = { server: 'src/server/**/*.ts', client: 'src/client/**/*.{ts,tsx}' };

const dir = mkdtempSync(path.join(tmpdir(), 'cycles-'));
function cycles(glob, withTypes) {
  const out = path.join(dir, 'out.json');
  const args = ['dpdm', '--no-warning', '--no-tree', '--no-progress', '--exclude', '\\.test\\.tsx?$|node_modules', '-o', out, glob];
  if (!withTypes) args.splice(1, 0, '-T');
  execFileSync('npx', args, { stdio: ['ignore', 'ignore', 'inherit'] });
  return JSON.parse(readFileSync(out, 'utf8')).circulars;
}

let failed = false;
for (const [name, glob] of Object.entries(ENTRIES)) {
  const runtime = cycles(glob, false);
  if (runtime.length) {
    failed = true;
    console.error(`${name}: ${runtime.length} import cycle(s) at run time:`);
    for (const c of runtime) console.error('  ' + c.join(' -> '));
  }
  const typed = cycles(glob, true).length;
  const max = TYPE_CYCLES_AT_MOST[name];
  if (typed > max) {
    failed = true;
    console.error(`${name}: ${typed} import cycles through type imports, more than the ${max} allowed (a new cycle: import the type from where it is declared, not through the context)`);
  }
  console.log(`${name}: ${runtime.length} runtime cycles, ${typed} through type imports (at most ${max})`);
}
rmSync(dir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
