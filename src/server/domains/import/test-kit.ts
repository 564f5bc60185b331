import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';

/** The committed fixture: a real NodeBB 4.11.2 forum's Redis database (fixtures/seed-nodebb.mjs made it). */
export const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'nodebb-redis.ndjson');

/** One key of a NodeBB dump (fixtures/dump-redis.mjs). */
export type DumpLine =
  | { k: string; t: 'hash'; v: Record<string, string> }
  | { k: string; t: 'zset'; v: [string, number][] }
  | { k: string; t: 'set' | 'list'; v: string[] }
  | { k: string; t: 'string'; v: string };

/** The dump's keys. */
export function readDump(file = FIXTURE): DumpLine[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as DumpLine);
}

const LOCK = '__palaver_import_test__';

/**
 * Loads a dump into a scratch Redis database of its own (10–15, claimed with a marker key so
 * test files running at once take different ones; never database 0, never FLUSHALL). Returns
 * its URL and a function that empties and frees it.
 */
export async function scratchRedis(lines: DumpLine[], base = process.env.IMPORT_REDIS ?? 'redis://127.0.0.1:6379'): Promise<{ url: string; drop: () => Promise<void> }> {
  for (let db = 10; db <= 15; db++) {
    const url = `${base.replace(/\/\d*$/, '')}/${db}`;
    const redis = new Redis(url);
    if ((await redis.set(LOCK, String(process.pid), 'EX', 600, 'NX')) !== 'OK') {
      redis.disconnect();
      continue;
    }
    // A database left over by a killed run: only its own marker is kept.
    for (;;) {
      const keys = (await redis.keys('*')).filter((k) => k !== LOCK);
      if (!keys.length) break;
      await redis.del(...keys);
    }
    const p = redis.pipeline();
    for (const l of lines) {
      if (l.t === 'hash') p.hset(l.k, l.v);
      else if (l.t === 'zset') p.zadd(l.k, ...l.v.flatMap(([m, s]) => [s, m]));
      else if (l.t === 'set') p.sadd(l.k, ...l.v);
      else if (l.t === 'list') p.rpush(l.k, ...l.v);
      else p.set(l.k, l.v as string);
    }
    await p.exec();
    // The marker is not NodeBB's: it lives beside the data, and the importer never reads it.
    return {
      url,
      drop: async () => {
        await redis.flushdb();
        redis.disconnect();
      },
    };
  }
  throw new Error('no free scratch Redis database (10-15)');
}

/** Creates NodeBB's PostgreSQL layout (src/database/postgres.js of NodeBB 4) in `url` and fills it from a dump. */
export async function loadNodebbPostgres(url: string, lines: DumpLine[]): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`
      CREATE TYPE LEGACY_OBJECT_TYPE AS ENUM ('hash', 'zset', 'set', 'list', 'string');
      CREATE TABLE legacy_object (_key TEXT NOT NULL PRIMARY KEY, type LEGACY_OBJECT_TYPE NOT NULL, "expireAt" TIMESTAMPTZ DEFAULT NULL, UNIQUE (_key, type));
      CREATE TABLE legacy_hash (_key TEXT NOT NULL PRIMARY KEY, data JSONB NOT NULL, type LEGACY_OBJECT_TYPE NOT NULL DEFAULT 'hash' CHECK (type = 'hash'),
        FOREIGN KEY (_key, type) REFERENCES legacy_object(_key, type) ON UPDATE CASCADE ON DELETE CASCADE);
      CREATE TABLE legacy_zset (_key TEXT NOT NULL, value TEXT NOT NULL, score NUMERIC NOT NULL, type LEGACY_OBJECT_TYPE NOT NULL DEFAULT 'zset' CHECK (type = 'zset'),
        PRIMARY KEY (_key, value), FOREIGN KEY (_key, type) REFERENCES legacy_object(_key, type) ON UPDATE CASCADE ON DELETE CASCADE);
      CREATE TABLE legacy_set (_key TEXT NOT NULL, member TEXT NOT NULL, type LEGACY_OBJECT_TYPE NOT NULL DEFAULT 'set' CHECK (type = 'set'),
        PRIMARY KEY (_key, member), FOREIGN KEY (_key, type) REFERENCES legacy_object(_key, type) ON UPDATE CASCADE ON DELETE CASCADE);
      CREATE TABLE legacy_list (_key TEXT NOT NULL PRIMARY KEY, "array" TEXT[] NOT NULL, type LEGACY_OBJECT_TYPE NOT NULL DEFAULT 'list' CHECK (type = 'list'),
        FOREIGN KEY (_key, type) REFERENCES legacy_object(_key, type) ON UPDATE CASCADE ON DELETE CASCADE);
      CREATE TABLE legacy_string (_key TEXT NOT NULL PRIMARY KEY, data TEXT NOT NULL, type LEGACY_OBJECT_TYPE NOT NULL DEFAULT 'string' CHECK (type = 'string'),
        FOREIGN KEY (_key, type) REFERENCES legacy_object(_key, type) ON UPDATE CASCADE ON DELETE CASCADE);
      CREATE INDEX idx__legacy_zset__key__score ON legacy_zset(_key ASC, score DESC);`);
    await c.query('BEGIN');
    for (const l of lines) {
      await c.query('INSERT INTO legacy_object (_key, type) VALUES ($1, $2)', [l.k, l.t]);
      if (l.t === 'hash') await c.query('INSERT INTO legacy_hash (_key, data) VALUES ($1, $2)', [l.k, JSON.stringify(l.v)]);
      else if (l.t === 'zset') {
        if (l.v.length)
          await c.query('INSERT INTO legacy_zset (_key, value, score) SELECT $1, v, s FROM unnest($2::text[], $3::numeric[]) AS x(v, s)', [l.k, l.v.map((x) => x[0]), l.v.map((x) => x[1])]);
      } else if (l.t === 'set') {
        if (l.v.length) await c.query('INSERT INTO legacy_set (_key, member) SELECT $1, unnest($2::text[])', [l.k, l.v]);
      } else if (l.t === 'list') await c.query('INSERT INTO legacy_list (_key, "array") VALUES ($1, $2)', [l.k, l.v]);
      else await c.query('INSERT INTO legacy_string (_key, data) VALUES ($1, $2)', [l.k, l.v]);
    }
    await c.query('COMMIT');
  } finally {
    await c.end();
  }
}
