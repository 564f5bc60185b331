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
export async function scratchRedis(
  lines: DumpLine[],
  base = process.env.IMPORT_REDIS ?? 'redis://127.0.0.1:6379',
): Promise<{ url: string; drop: () => Promise<void> }> {
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
          await c.query('INSERT INTO legacy_zset (_key, value, score) SELECT $1, v, s FROM unnest($2::text[], $3::numeric[]) AS x(v, s)', [
            l.k,
            l.v.map((x) => x[0]),
            l.v.map((x) => x[1]),
          ]);
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

/**
 * A generated NodeBB forum in NodeBB's layout (as bench/import.mjs makes one): `posts` posts in
 * topics of 20, a member per 25 posts, 4 categories, a vote on every fifth post and a bookmark
 * on every seventh, tags, read positions. Big enough for a phase of many pages.
 */
export function syntheticForum(posts: number): DumpLine[] {
  const users = Math.max(4, Math.ceil(posts / 25));
  const topics = Math.ceil(posts / 20);
  const start = Date.UTC(2024, 0, 1);
  const words = 'alpha beta gamma delta forum reply thread keyboard switch clack'.split(' ');
  const out: DumpLine[] = [];
  const zset = (k: string, v: [string, number][]) => out.push({ k, t: 'zset', v });
  zset(
    'categories:cid',
    [1, 2, 3, 4].map((c) => [String(c), c]),
  );
  for (let c = 1; c <= 4; c++) {
    out.push({
      k: `category:${c}`,
      t: 'hash',
      v: { cid: String(c), name: `Category ${c}`, slug: `${c}/category-${c}`, parentCid: '0', order: String(c), timestamp: String(start) },
    });
    for (const priv of ['find', 'read', 'topics:read', 'topics:create', 'topics:reply'])
      zset(`group:cid:${c}:privileges:groups:${priv}:members`, [['registered-users', start]]);
  }
  const joined: [string, number][] = [];
  for (let u = 1; u <= users; u++) {
    out.push({
      k: `user:${u}`,
      t: 'hash',
      v: {
        uid: String(u),
        username: `member${u}`,
        userslug: `member${u}`,
        email: `member${u}@example.com`,
        'email:confirmed': '1',
        joindate: String(start + u),
        reputation: String(u % 7),
      },
    });
    joined.push([String(u), start + u]);
    zset(`uid:${u}:tids_read`, [[String(1 + (u % topics)), start + 5000 + u]]);
  }
  zset('users:joindate', joined);
  const tids: [string, number][] = [];
  for (let t = 1; t <= topics; t++) {
    const first = (t - 1) * 20 + 1;
    out.push({
      k: `topic:${t}`,
      t: 'hash',
      v: {
        tid: String(t),
        cid: String(1 + (t % 4)),
        uid: String(1 + (t % users)),
        mainPid: String(first),
        title: `Topic ${t} about ${words[t % words.length]}`,
        slug: `${t}/topic-${t}`,
        timestamp: String(start + first * 1000),
        viewcount: String(t % 100),
        tags: `${words[t % words.length]},${words[(t + 3) % words.length]}`,
      },
    });
    tids.push([String(t), start + first * 1000]);
  }
  zset('topics:tid', tids);
  const pids: [string, number][] = [];
  for (let i = 1; i <= posts; i++) {
    const at = start + i * 1000;
    out.push({
      k: `post:${i}`,
      t: 'hash',
      v: {
        pid: String(i),
        tid: String(Math.ceil(i / 20)),
        uid: String(1 + (i % users)),
        content: `Reply **${i}** about ${words[i % words.length]} and _${words[(i * 7) % words.length]}_.`,
        timestamp: String(at),
      },
    });
    pids.push([String(i), at]);
    const voter = 1 + ((i + 1) % users);
    if (i % 5 === 0) {
      out.push({ k: `pid:${i}:upvote`, t: 'set', v: [String(voter)] });
      zset(`uid:${voter}:upvote`, [[String(i), at + 500]]);
    }
    if (i % 7 === 0) out.push({ k: `pid:${i}:users_bookmarked`, t: 'set', v: [String(voter)] });
  }
  zset('posts:pid', pids);
  // Per-member sorted sets written once each (a member votes on many posts).
  const merged = new Map<string, DumpLine>();
  for (const l of out) {
    const had = merged.get(l.k);
    if (had && had.t === 'zset' && l.t === 'zset') had.v.push(...l.v);
    else merged.set(l.k, l);
  }
  return [...merged.values()];
}
