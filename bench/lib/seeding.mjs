// Getting a seeded database for a run: the cached SQLite file (seeded once per seed version),
// or a fresh PostgreSQL database seeded in place.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { CACHE, ROOT } from './paths.mjs';

/** Bump when the seed's shape or content changes in a way the file hash below cannot see. */
export const SEED_VERSION = 'seed-v1';

/** The seed's cache key: the version, the scale, and the seed/content/migration sources. */
export function seedKey(scale) {
  const h = createHash('sha1');
  h.update(`${SEED_VERSION}:${scale}`);
  for (const f of ['bench/seed.mjs', 'bench/lib/content.mjs']) h.update(readFileSync(path.join(ROOT, f)));
  const migrations = path.join(ROOT, 'src/server/db/migrations');
  for (const f of readdirSync(migrations).sort()) h.update(readFileSync(path.join(migrations, f)));
  return `${SEED_VERSION}-${h.digest('hex').slice(0, 10)}`;
}

function runSeed(env, metaFile, scale, log) {
  const t0 = Date.now();
  execFileSync(process.execPath, [path.join(ROOT, 'bench/seed.mjs'), metaFile, '--scale', String(scale)], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  log(`bench: seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return JSON.parse(readFileSync(metaFile, 'utf8'));
}

/**
 * A private copy of the cached seeded SQLite forum in runDir (seeding it first when the cache
 * has no file for this key). Returns the seed's meta plus { cached }.
 */
export function sqliteSeed({ scale, runDir, baseEnv, log }) {
  const key = seedKey(scale);
  const dir = path.join(CACHE, `seed-sqlite-${key}`);
  let cached = true;
  if (!existsSync(path.join(dir, 'meta.json'))) {
    cached = false;
    log(`bench: seeding a new SQLite forum (${key}); later runs reuse bench/.cache/seed-sqlite-${key}`);
    const tmp = `${dir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    runSeed({ ...baseEnv, PALAVER_DATA_DIR: tmp }, path.join(tmp, 'meta.json'), scale, log);
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  }
  mkdirSync(runDir, { recursive: true });
  // The seed process closed the database cleanly, so the WAL is checkpointed into the file.
  for (const f of ['palaver.sqlite', 'palaver.sqlite-wal']) {
    if (existsSync(path.join(dir, f))) copyFileSync(path.join(dir, f), path.join(runDir, f));
  }
  const meta = JSON.parse(readFileSync(path.join(dir, 'meta.json'), 'utf8'));
  return { ...meta, cached, key };
}

/**
 * Seeds the PostgreSQL database at url (which must be empty), or reuses it when a previous
 * run seeded it with the same key (its meta is kept in bench/.cache).
 */
export async function postgresSeed({ url, scale, baseEnv, log }) {
  const key = seedKey(scale);
  const id = createHash('sha1').update(url).digest('hex').slice(0, 10);
  const metaFile = path.join(CACHE, `seed-pg-${id}-${key}.json`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let topics = 0;
  try {
    const r = await client.query(`SELECT count(*)::int AS n FROM topics`);
    topics = r.rows[0].n;
  } catch {
    topics = 0; // no tables yet
  } finally {
    await client.end();
  }
  if (topics > 0 && existsSync(metaFile)) {
    const meta = JSON.parse(readFileSync(metaFile, 'utf8'));
    if (meta.shape.topics <= topics) {
      await analyze(url);
      return { ...meta, cached: true, key };
    }
  }
  if (topics > 0) throw new Error('bench: DATABASE_URL points at a database with topics the benchmark did not seed; give it a fresh, empty database');
  mkdirSync(CACHE, { recursive: true });
  log(`bench: seeding PostgreSQL (${key})`);
  const meta = runSeed({ ...baseEnv, DATABASE_URL: url }, metaFile, scale, log);
  writeFileSync(metaFile, JSON.stringify(meta, null, 2));
  await analyze(url);
  return { ...meta, cached: false, key };
}

/**
 * Gives PostgreSQL's planner the seeded tables' statistics (ANALYZE), as autovacuum would on a
 * forum that has been running: with autovacuum off (it is on some machines) the seed's 20,000
 * posts were never analyzed, and member reads planned without statistics cost 0.88 CPU ms
 * instead of 0.4–0.5 (the same run's SQLite), with the database's processes busy a third of
 * a core.
 */
async function analyze(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}
