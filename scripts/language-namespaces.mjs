// The language namespaces each page of the client needs (issue 56): the browser downloads
// only those (src/client/i18n/page-namespaces.ts, written by this script; a unit test fails when
// it is stale). A module's namespaces are those its source names in a key ('topic:…',
// `admin-manage:…`), with those of every module it imports (statically or lazily), so the
// first render in the browser has every text the server's render had.
//
//   node scripts/language-namespaces.mjs          # writes the file
//   node scripts/language-namespaces.mjs --check  # exit 1 when the file is stale
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const client = path.join(root, 'src/client');
const OUT = path.join(client, 'i18n/page-namespaces.ts');
const NAMESPACES = new Set(readdirSync(path.join(root, 'public/language/en-GB')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)));
/** The page chunks: the shell never follows the loaders' imports (each page is its own set). */
const LOADERS = path.join(client, 'pages/loaders.ts');
/** The admin area's frame: its namespaces are the admin pages' (and the setup page's), not every page's. */
const ADMIN_LAYOUT = path.join(client, 'pages/admin/AdminLayout.tsx');

function resolve(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (existsSync(c) && !c.endsWith('/') && /\.tsx?$/.test(c)) return c;
  }
  return null;
}

const sources = new Map();
function source(file) {
  let s = sources.get(file);
  if (s === undefined) sources.set(file, (s = readFileSync(file, 'utf8')));
  return s;
}

/** The modules a module imports (not type-only imports), resolved to files under src/. */
function imports(file) {
  const text = source(file);
  const out = [];
  const re = /(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) {
    const target = resolve(file, m[1] ?? m[2]);
    if (target) out.push(target);
  }
  return out;
}

/** The namespaces a module's own source names in keys. */
function named(file) {
  const found = new Set();
  for (const m of source(file).matchAll(/['"`[]([a-z][a-z0-9_-]*):[A-Za-z0-9$]/g)) if (NAMESPACES.has(m[1])) found.add(m[1]);
  return found;
}

/** A module's namespaces with those of everything it imports; `stop` modules are not followed. */
function closure(entry, stop = new Set()) {
  const seen = new Set();
  const out = new Set();
  const walk = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (stop.has(file) && file !== LOADERS) return;
    for (const ns of named(file)) out.add(ns);
    if (stop.has(file)) return;
    for (const dep of imports(file)) if (!dep.endsWith('.test.ts') && !dep.endsWith('.test.tsx')) walk(dep);
  };
  walk(entry);
  return out;
}

export function generate() {
  const shell = closure(path.join(client, 'main.tsx'), new Set([LOADERS, ADMIN_LAYOUT]));
  const admin = [...closure(ADMIN_LAYOUT)].filter((ns) => !shell.has(ns)).sort();
  const loaders = source(LOADERS);
  const pages = {};
  for (const m of loaders.matchAll(/^\s*'?([\w/-]+)'?: \(\) => import\('(\.[^']+)'\)/gm)) {
    const own = [...closure(resolve(LOADERS, m[2]))].filter((ns) => !shell.has(ns)).sort();
    pages[m[1]] = own;
  }
  const lines = [
    '// Written by scripts/language-namespaces.mjs: do not edit (a unit test fails when it is stale).',
    '',
    '/** The namespaces the app\'s shell (every page\'s bars, menus, composer, chat dock, dialogs) uses. */',
    `export const SHELL_NAMESPACES: readonly string[] = ${JSON.stringify([...shell].sort())};`,
    '',
    '/** The namespaces the admin area\'s frame (its navigation) adds on its pages. */',
    `export const ADMIN_FRAME_NAMESPACES: readonly string[] = ${JSON.stringify(admin)};`,
    '',
    '/** The namespaces each page module uses beyond the shell\'s. */',
    'export const PAGE_NAMESPACES: Readonly<Record<string, readonly string[]>> = {',
    ...Object.entries(pages).map(([k, v]) => `  ${/^[a-z]+$/.test(k) ? k : `'${k}'`}: ${JSON.stringify(v)},`),
    '};',
    '',
  ];
  return lines.join('\n').replace(/","/g, '", "');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const text = generate();
  if (process.argv.includes('--check')) {
    const now = existsSync(OUT) ? readFileSync(OUT, 'utf8') : '';
    if (now !== text) {
      console.error(`${path.relative(root, OUT)} is stale: run node scripts/language-namespaces.mjs`);
      process.exit(1);
    }
  } else writeFileSync(OUT, text);
}
