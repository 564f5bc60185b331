// Experiment (node --import): caches better-sqlite3 prepared statements by SQL text, to
// measure what a statement cache in src/server/db/index.ts would save. Kysely's SQLite driver
// calls db.prepare(sql) for every query; SQLite then re-parses and re-plans each time.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../package.json'));
const Database = require('better-sqlite3');
const prepare = Database.prototype.prepare;
const MAX = 1000;
Database.prototype.prepare = function cachedPrepare(sql) {
  let cache = this.__stmtCache;
  if (!cache) Object.defineProperty(this, '__stmtCache', { value: (cache = new Map()) });
  let stmt = cache.get(sql);
  if (!stmt) {
    stmt = prepare.call(this, sql);
    if (cache.size >= MAX) cache.delete(cache.keys().next().value);
    cache.set(sql, stmt);
  }
  return stmt;
};
