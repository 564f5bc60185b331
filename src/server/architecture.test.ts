// The architecture check (CI runs it with the other tests): imports across module boundaries
// follow docs/architecture.md "Tables and boundaries". It reads the sources, so it needs no build.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TABLE_OWNERS } from './db/owners.js';

const SRC = path.resolve(import.meta.dirname, '..');
const DOMAINS = path.join(SRC, 'server', 'domains');

/** A domain's public surface: what another domain may import from it. */
const PUBLIC = new Set(['service', 'schemas', 'presenter']);
/** Modules another domain may import types from (row types), never values. */
const TYPES_ONLY = new Set(['store']);

/**
 * Imports of another domain's internals that existed when this check was written. The list
 * only shrinks: a new entry needs a reason here and in review; remove an entry when its
 * import goes (the check fails on a stale entry, so the list cannot rot).
 * Format: "<importing file, from src/server/domains> -> <imported file>".
 */
const ALLOWED_INTERNAL_IMPORTS = new Set([
  // Account pages of every domain share the owner check and NodeBB's account page base
  // (notifications/account-pages.ts, the first domain with account pages); it belongs in the
  // users service next.
  'registration/pages.ts -> notifications/account-pages.ts',
  // Every domain's account page carries NodeBB's UserObjectFull of the member (users/account-fields.ts,
  // its foreign counts read through their owners' batch parts). It belongs behind the users service;
  // a method there today adds type-import cycles through the context.
  'auth/pages.ts -> users/account-fields.ts',
  'groups/pages.ts -> users/account-fields.ts',
  'moderation/pages.ts -> users/account-fields.ts',
  'notifications/account-pages.ts -> users/account-fields.ts',
  'uploads/pages.ts -> users/account-fields.ts',
  // Topic access rules (member, assertReadable, loadTopic, canViewDeleted) are shared with
  // posts; they belong behind the topics service or in a shared access module.
  'posts/access.ts -> topics/access.ts',
  'posts/edit.ts -> topics/access.ts',
  'posts/read.ts -> topics/access.ts',
  'posts/reply.ts -> topics/access.ts',
  'posts/service.ts -> topics/access.ts',
  'posts/state.ts -> topics/access.ts',
  'posts/votes.ts -> topics/access.ts',
  // The topic page and topic creation use post internals (tools, rules, reading a post).
  'topics/create.ts -> posts/rules.ts',
  'topics/routes.ts -> posts/read.ts',
  // The tag page reuses the topic list's page size.
  'tags/pages.ts -> topics/list-pages.ts',
]);

/**
 * Tables used by a module that does not own them (db/owners.ts), as they were when the check
 * was written. The list only shrinks: move the use behind the owner's service or store, then
 * remove the entry (a stale entry fails). Format: "<file, from src/server> -> <table>".
 */
const ALLOWED_TABLE_CROSSINGS = new Set<string>([
  'domains/auth/store.ts -> users',
  'domains/categories/store.ts -> topics',
  'domains/categories/store.ts -> posts',
  'domains/groups/store.ts -> rewards',
  'domains/groups/store.ts -> users',
  'domains/notifications/digest-admin.ts -> users',
  'domains/notifications/store.ts -> group_members',
  'domains/notifications/store.ts -> privileges',
  'domains/notifications/store.ts -> users',
  'domains/notifications/store.ts -> topic_follows',
  'domains/notifications/store.ts -> topics',
  'domains/notifications/store.ts -> tag_follows',
  'domains/posts/store.ts -> topics',
  'domains/posts/store.ts -> group_members',
  'domains/rewards/store.ts -> users',
  'domains/tags/store.ts -> topics',
  'domains/topics/store.ts -> topic_tags',
  'domains/topics/store.ts -> categories',
  'domains/topics/store.ts -> posts',
  'domains/users/lists.ts -> posts',
  'domains/users/lists.ts -> topics',
  'domains/users/lists.ts -> votes',
  'domains/users/lists.ts -> bookmarks',
  'domains/users/lists.ts -> topic_follows',
  'domains/users/lists.ts -> topic_reads',
  'plugins/mentions/store.ts -> users',
  'plugins/mentions/store.ts -> groups',
  'plugins/mentions/store.ts -> group_members',
  'plugins/mentions/store.ts -> post_edits',
  'plugins/mentions/store.ts -> posts',
]);

/** Modules whose code moves every table as data: backups, the importer, migrations, test set-up. */
const WHOLE_DATABASE = /^(domains\/backups\/|domains\/import\/|db\/migrations\/|test\/)|(^|\/)(test-kit|testing|fill-tables)\.ts$/;

/** The module a file of src/server belongs to, in TABLE_OWNERS' terms. */
function moduleOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'domains') return parts[1]!;
  if (parts[0] === 'plugins') return `plugins/${parts[1]}`;
  return parts.length > 1 ? parts[0]! : parts[0]!.replace(/\.ts$/, '');
}

/** The tables a source text names in Kysely's table positions (selectFrom, joins, writes). */
export function tablesOf(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/\b(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin|mergeInto|replaceInto)\(\s*(\[[^\]]*\]|['"][^'"]+['"])/g)) {
    for (const t of m[1]!.matchAll(/['"]([a-z_]+)(?:\s+as\s+\w+)?['"]/g)) found.add(t[1]!);
  }
  return [...found];
}

/**
 * Where a transaction may be opened: the action runner (every write of the forum), the
 * reentrant database that lets a nested write join it, the SQLite driver, and the restore of a
 * backup (its own connection). Everything else writes through `ctx.actions.run` / defineAction.
 */
const TRANSACTION_OPENERS = new Set(['core/action.ts', 'db/reentrant.ts', 'db/sqlite-driver.ts']);
/**
 * Files that still open their own transaction (`db.transaction()`) or use the legacy
 * `runAction`, as they were when the check was written. The list only shrinks: convert the
 * file's writes to the action runner, then remove it (a stale entry fails).
 */
const LEGACY_TRANSACTIONS = new Set<string>([]);

/** Every .ts/.tsx file below a folder, tests excluded. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

interface Import {
  /** The imported file, resolved to an absolute path without extension. */
  target: string;
  typeOnly: boolean;
}

/** The relative imports and re-exports of a file (static and dynamic). */
export function importsOf(file: string, text = readFileSync(file, 'utf8')): Import[] {
  const found: Import[] = [];
  const add = (spec: string, typeOnly: boolean) => {
    if (!spec.startsWith('.')) return;
    found.push({ target: path.resolve(path.dirname(file), spec).replace(/\.(js|ts|tsx|mjs)$/, ''), typeOnly });
  };
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?([^;]*?)\s+from\s+['"]([^'"]+)['"]/gm)) {
    const names = m[3]!;
    // `import { type A, type B }` imports types only, as does `import type`.
    const inlineTypes = /^\{[\s\S]*\}$/.test(names.trim()) && names.replace(/[{}\s]/g, '') !== '' && names.slice(1, -1).split(',').every((n) => !n.trim() || /^type\s/.test(n.trim()));
    add(m[4]!, Boolean(m[2]) || inlineTypes);
  }
  for (const m of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) add(m[1]!, false);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) add(m[1]!, false);
  return found;
}

const rel = (p: string) => path.relative(DOMAINS, p);

describe('architecture', () => {
  it('reads imports, type-only ones included', () => {
    const imports = importsOf(path.join(DOMAINS, 'a', 'x.ts'), "import { type A, type B } from '../b/store.js';\nimport type { C } from '../c/store.js';\nimport { d, type E } from '../d/store.js';\nexport { f } from './f.js';\nconst g = await import('../g/service.js');\n");
    expect(imports.map((i) => [rel(i.target), i.typeOnly])).toEqual([
      ['b/store', true],
      ['c/store', true],
      ['d/store', false],
      ['a/f', false],
      ['g/service', false],
    ]);
  });

  it("a domain imports another domain only through its public surface (service, schemas, presenter; store's types)", () => {
    const violations: string[] = [];
    const used = new Set<string>();
    for (const file of sources(DOMAINS)) {
      const [domain] = rel(file).split(path.sep);
      for (const imp of importsOf(file)) {
        const target = rel(imp.target);
        if (target.startsWith('..')) continue;
        const [other, ...rest] = target.split(path.sep);
        if (other === domain) continue;
        const module = rest.join('/');
        if (PUBLIC.has(module) || (imp.typeOnly && TYPES_ONLY.has(module))) continue;
        const edge = `${rel(file).split(path.sep).join('/')} -> ${other}/${module}.ts`;
        if (ALLOWED_INTERNAL_IMPORTS.has(edge)) used.add(edge);
        else violations.push(edge);
      }
    }
    expect(violations, 'imports of another domain\'s internals (see docs/architecture.md "Tables and boundaries")').toEqual([]);
    // A fixed entry must leave the list, so that it only ever shrinks.
    expect([...ALLOWED_INTERNAL_IMPORTS].filter((e) => !used.has(e)), 'stale entries in ALLOWED_INTERNAL_IMPORTS').toEqual([]);
  });

  it('domain services and their helpers receive their explicit dependencies, not the whole context', () => {
    // Routes and page loaders are the HTTP layer and get the whole context; everything else
    // in a domain takes the `<Domain>Deps` its service declares (a Pick of what it uses).
    const bad: string[] = [];
    for (const file of sources(DOMAINS)) {
      if (/(^|\/)([\w-]+-)?(routes|pages|cli)\.ts$|(^|\/)(testing|admin-config)\.ts$/.test(rel(file).split(path.sep).join('/'))) continue;
      const text = readFileSync(file, 'utf8');
      if (/\bctx: AppContext\b|constructor\(private readonly ctx: AppContext\)/.test(text)) bad.push(rel(file));
    }
    expect(bad).toEqual([]);
  });

  it('the client imports no server code but the live events’ types', () => {
    const events = path.join(SRC, 'server', 'realtime', 'events');
    const bad: string[] = [];
    for (const file of sources(path.join(SRC, 'client'))) {
      for (const imp of importsOf(file)) {
        if (!imp.target.startsWith(path.join(SRC, 'server') + path.sep)) continue;
        if (imp.target === events && imp.typeOnly) continue;
        bad.push(`${path.relative(SRC, file)} -> ${path.relative(SRC, imp.target)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('shared code imports neither the server nor the client', () => {
    const bad: string[] = [];
    for (const file of sources(path.join(SRC, 'shared'))) {
      for (const imp of importsOf(file)) {
        const r = path.relative(SRC, imp.target);
        if (r.startsWith('server') || r.startsWith('client')) bad.push(`${path.relative(SRC, file)} -> ${r}`);
      }
    }
    expect(bad).toEqual([]);
  });
  it('a table is used only by its owner (db/owners.ts)', () => {
    const server = path.join(SRC, 'server');
    const violations: string[] = [];
    const used = new Set<string>();
    for (const abs of sources(server)) {
      const file = path.relative(server, abs).split(path.sep).join('/');
      if (WHOLE_DATABASE.test(file)) continue;
      const owner = moduleOf(file);
      for (const table of tablesOf(readFileSync(abs, 'utf8'))) {
        const tableOwner = (TABLE_OWNERS as Record<string, string>)[table];
        if (!tableOwner || tableOwner === owner) continue;
        const edge = `${file} -> ${table}`;
        if (ALLOWED_TABLE_CROSSINGS.has(edge)) used.add(edge);
        else violations.push(`${edge} (owned by ${tableOwner})`);
      }
    }
    expect(violations, "tables used outside their owner: go through the owner's service or store").toEqual([]);
    expect([...ALLOWED_TABLE_CROSSINGS].filter((e) => !used.has(e)), 'stale entries in ALLOWED_TABLE_CROSSINGS').toEqual([]);
  });

  it('finds the tables of a statement, aliases and lists included', () => {
    expect(tablesOf("db.selectFrom('posts as p').innerJoin('topics as t', 'a', 'b'); db.selectFrom(['users', 'groups as g']); tx.insertInto(\"votes\")")).toEqual(['posts', 'topics', 'users', 'groups', 'votes']);
  });
  it('no transaction is opened outside the action runner', () => {
    const server = path.join(SRC, 'server');
    const found: string[] = [];
    for (const abs of sources(server)) {
      const file = path.relative(server, abs).split(path.sep).join('/');
      if (TRANSACTION_OPENERS.has(file) || WHOLE_DATABASE.test(file)) continue;
      if (/\.transaction\(\)|\brunAction\(/.test(readFileSync(abs, 'utf8'))) found.push(file);
    }
    expect(found.filter((f) => !LEGACY_TRANSACTIONS.has(f)), 'transactions opened outside core/action.ts: write through ctx.actions.run').toEqual([]);
    expect([...LEGACY_TRANSACTIONS].filter((f) => !found.includes(f)), 'stale entries in LEGACY_TRANSACTIONS').toEqual([]);
  });
});
