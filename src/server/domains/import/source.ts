import { Redis } from 'ioredis';
import pg from 'pg';

/** A NodeBB hash object as stored: every value a string. */
export type NbHash = Record<string, string>;

/**
 * NodeBB's database, read-only, whichever backend holds it (Redis or its PostgreSQL
 * `legacy_*` layout): the few reads the importer makes. Big sorted sets are walked in pages
 * from a cursor (the last record read: by rank on Redis, keyset pagination on PostgreSQL), never read whole.
 */
export interface NodebbSource {
  describe(): string;
  /** The hashes of these keys, null where missing, in one round trip. */
  hashes(keys: string[]): Promise<(NbHash | null)[]>;
  /**
   * One page of a sorted set from `cursor` ('' at the start): its [member, score] pairs and the
   * next cursor ('' when done): the last record read (Redis: its member and score; PostgreSQL:
   * its member). The cursor is what a resumed import starts from, inside a phase.
   */
  zpage(key: string, cursor: string, count: number): Promise<{ items: [string, number][]; next: string }>;
  /** Each key's sorted set whole (small per-entity sets: a post's voters, a room's members). */
  zsets(keys: string[]): Promise<[string, number][][]>;
  /** Each key's set whole (small per-entity sets: a topic's tags). */
  sets(keys: string[]): Promise<string[][]>;
  /** Each key's list whole (a post's edit history). */
  lists(keys: string[]): Promise<string[][]>;
  /** Keys matching a glob (`*` only), in pages. */
  keys(pattern: string): AsyncIterable<string[]>;
  /** A sorted set's size. */
  zcard(key: string): Promise<number>;
  /** Which of `members` are in the sorted set `key`. */
  inZset(key: string, members: string[]): Promise<Set<string>>;
  /** For each sorted set of `keys`, which of `members` it holds (a room in each member's unread list). */
  inZsetMany(keys: string[], members: string[]): Promise<Set<string>[]>;
  /** String values of these keys ('' where missing). */
  strings(keys: string[]): Promise<string[]>;
  /** The score of each [sorted set, member] pair (null where it is not there), in one round trip. */
  scores(pairs: [string, string][]): Promise<(number | null)[]>;
  close(): Promise<void>;
}

/** Opens NodeBB's database from its URL: redis://host:port/db or postgres://user@host/db. */
export async function openSource(url: string): Promise<NodebbSource> {
  if (/^rediss?:\/\//.test(url)) return RedisSource.open(url);
  if (/^postgres(ql)?:\/\//.test(url)) return PgSource.open(url);
  throw new Error(`--from must be a redis:// or postgres:// URL (got ${url})`);
}

class RedisSource implements NodebbSource {
  private constructor(
    private readonly redis: Redis,
    private readonly url: string,
  ) {}

  static async open(url: string): Promise<RedisSource> {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: false });
    await redis.connect();
    return new RedisSource(redis, url);
  }

  describe(): string {
    return `Redis ${this.url.replace(/\/\/[^@]*@/, '//')}`;
  }

  async hashes(keys: string[]): Promise<(NbHash | null)[]> {
    if (!keys.length) return [];
    const p = this.redis.pipeline();
    for (const k of keys) p.hgetall(k);
    const res = (await p.exec()) ?? [];
    return res.map(([err, v]) => {
      if (err) throw err;
      const h = v as NbHash;
      return Object.keys(h).length ? h : null;
    });
  }

  /**
   * In the set's order (score, then member), from the last [member, score] read: its rank
   * now, and the page after it (ZRANGE by rank: O(log n) to find it, whatever the set's size).
   * A cursor whose member is gone meanwhile starts again at its score (a page read twice is
   * written twice: the same rows).
   */
  async zpage(key: string, cursor: string, count: number): Promise<{ items: [string, number][]; next: string }> {
    let start = 0;
    if (cursor.startsWith('[')) {
      const [member, score] = JSON.parse(cursor) as [string, number];
      const rank = await this.redis.zrank(key, member);
      start = rank !== null ? rank + 1 : await this.redis.zcount(key, '-inf', `(${score}`);
    }
    const flat = await this.redis.zrange(key, start, start + count - 1, 'WITHSCORES');
    const items: [string, number][] = [];
    for (let i = 0; i < flat.length; i += 2) items.push([flat[i]!, Number(flat[i + 1])]);
    return { items, next: items.length < count ? '' : JSON.stringify(items[items.length - 1]) };
  }

  async zsets(keys: string[]): Promise<[string, number][][]> {
    if (!keys.length) return [];
    const p = this.redis.pipeline();
    for (const k of keys) p.zrange(k, 0, -1, 'WITHSCORES');
    const res = (await p.exec()) ?? [];
    return res.map(([err, v]) => {
      if (err) throw err;
      const flat = v as string[];
      const out: [string, number][] = [];
      for (let i = 0; i < flat.length; i += 2) out.push([flat[i]!, Number(flat[i + 1])]);
      return out;
    });
  }

  async sets(keys: string[]): Promise<string[][]> {
    if (!keys.length) return [];
    const p = this.redis.pipeline();
    for (const k of keys) p.smembers(k);
    return ((await p.exec()) ?? []).map(([err, v]) => {
      if (err) throw err;
      return v as string[];
    });
  }

  async lists(keys: string[]): Promise<string[][]> {
    if (!keys.length) return [];
    const p = this.redis.pipeline();
    for (const k of keys) p.lrange(k, 0, -1);
    return ((await p.exec()) ?? []).map(([err, v]) => {
      if (err) throw err;
      return v as string[];
    });
  }

  async *keys(pattern: string): AsyncIterable<string[]> {
    let cursor = '0';
    do {
      const [next, batch] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (batch.length) yield batch;
    } while (cursor !== '0');
  }

  zcard(key: string): Promise<number> {
    return this.redis.zcard(key);
  }

  async inZset(key: string, members: string[]): Promise<Set<string>> {
    if (!members.length) return new Set();
    const scores = await this.redis.zmscore(key, ...members);
    return new Set(members.filter((_, i) => scores[i] !== null));
  }

  async strings(keys: string[]): Promise<string[]> {
    if (!keys.length) return [];
    return (await this.redis.mget(...keys)).map((v) => v ?? '');
  }

  async inZsetMany(keys: string[], members: string[]): Promise<Set<string>[]> {
    if (!keys.length || !members.length) return keys.map(() => new Set());
    const p = this.redis.pipeline();
    for (const k of keys) p.zmscore(k, ...members);
    return ((await p.exec()) ?? []).map(([err, v]) => {
      if (err) throw err;
      const scores = v as (string | null)[];
      return new Set(members.filter((_, i) => scores[i] !== null));
    });
  }

  async scores(pairs: [string, string][]): Promise<(number | null)[]> {
    if (!pairs.length) return [];
    const p = this.redis.pipeline();
    for (const [k, m] of pairs) p.zscore(k, m);
    return ((await p.exec()) ?? []).map(([err, v]) => {
      if (err) throw err;
      return v === null || v === undefined ? null : Number(v);
    });
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

/** NodeBB's PostgreSQL layout: legacy_object (type, expireAt) and one table per type. */
class PgSource implements NodebbSource {
  private constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
  ) {}

  static async open(url: string): Promise<PgSource> {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    // Read-only: the importer never writes NodeBB's database.
    pool.on('connect', (c) => void c.query('SET default_transaction_read_only = on').catch(() => undefined));
    await pool.query('SELECT 1 FROM legacy_object LIMIT 1');
    return new PgSource(pool, url);
  }

  describe(): string {
    return `PostgreSQL ${this.url.replace(/\/\/[^@]*@/, '//')}`;
  }

  /** Live keys only: NodeBB treats an expired key as missing. */
  private readonly live = `NOT EXISTS (SELECT 1 FROM legacy_object o WHERE o._key = t._key AND o."expireAt" IS NOT NULL AND o."expireAt" <= now())`;

  async hashes(keys: string[]): Promise<(NbHash | null)[]> {
    if (!keys.length) return [];
    const { rows } = await this.pool.query<{ _key: string; data: Record<string, unknown> }>(
      `SELECT t._key, t.data FROM legacy_hash t WHERE t._key = ANY($1::text[]) AND ${this.live}`,
      [keys],
    );
    const by = new Map(rows.map((r) => [r._key, r.data]));
    return keys.map((k) => {
      const d = by.get(k);
      if (!d) return null;
      // NodeBB's JSONB keeps numbers as numbers; Redis gives strings: the mappers read strings.
      const h: NbHash = {};
      for (const [f, v] of Object.entries(d)) h[f] = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
      return h;
    });
  }

  async zpage(key: string, cursor: string, count: number): Promise<{ items: [string, number][]; next: string }> {
    // Keyset over the primary key (_key, value): a page never re-reads what came before it.
    const { rows } = await this.pool.query<{ value: string; score: string }>(
      `SELECT t.value, t.score FROM legacy_zset t WHERE t._key = $1 AND t.value > $2 AND ${this.live} ORDER BY t.value LIMIT $3`,
      [key, cursor, count],
    );
    const items = rows.map((r) => [r.value, Number(r.score)] as [string, number]);
    return { items, next: rows.length < count ? '' : rows[rows.length - 1]!.value };
  }

  async zsets(keys: string[]): Promise<[string, number][][]> {
    if (!keys.length) return [];
    const { rows } = await this.pool.query<{ _key: string; value: string; score: string }>(
      `SELECT t._key, t.value, t.score FROM legacy_zset t WHERE t._key = ANY($1::text[]) AND ${this.live} ORDER BY t._key, t.score`,
      [keys],
    );
    const by = new Map<string, [string, number][]>();
    for (const r of rows) {
      let l = by.get(r._key);
      if (!l) by.set(r._key, (l = []));
      l.push([r.value, Number(r.score)]);
    }
    return keys.map((k) => by.get(k) ?? []);
  }

  async sets(keys: string[]): Promise<string[][]> {
    if (!keys.length) return [];
    const { rows } = await this.pool.query<{ _key: string; member: string }>(
      `SELECT t._key, t.member FROM legacy_set t WHERE t._key = ANY($1::text[]) AND ${this.live}`,
      [keys],
    );
    const by = new Map<string, string[]>();
    for (const r of rows) {
      let l = by.get(r._key);
      if (!l) by.set(r._key, (l = []));
      l.push(r.member);
    }
    return keys.map((k) => by.get(k) ?? []);
  }

  async lists(keys: string[]): Promise<string[][]> {
    if (!keys.length) return [];
    const { rows } = await this.pool.query<{ _key: string; array: string[] }>(
      `SELECT t._key, t."array" AS array FROM legacy_list t WHERE t._key = ANY($1::text[]) AND ${this.live}`,
      [keys],
    );
    const by = new Map(rows.map((r) => [r._key, r.array]));
    return keys.map((k) => by.get(k) ?? []);
  }

  async *keys(pattern: string): AsyncIterable<string[]> {
    const like = pattern.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
    let after = '';
    for (;;) {
      const { rows } = await this.pool.query<{ _key: string }>(
        `SELECT t._key FROM legacy_object t WHERE t._key LIKE $1 AND t._key > $2 AND (t."expireAt" IS NULL OR t."expireAt" > now()) ORDER BY t._key LIMIT 1000`,
        [like, after],
      );
      if (!rows.length) return;
      yield rows.map((r) => r._key);
      after = rows[rows.length - 1]!._key;
      if (rows.length < 1000) return;
    }
  }

  async zcard(key: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM legacy_zset WHERE _key = $1`, [key]);
    return Number(rows[0]?.n ?? 0);
  }

  async inZset(key: string, members: string[]): Promise<Set<string>> {
    if (!members.length) return new Set();
    const { rows } = await this.pool.query<{ value: string }>(
      `SELECT t.value FROM legacy_zset t WHERE t._key = $1 AND t.value = ANY($2::text[]) AND ${this.live}`,
      [key, members],
    );
    return new Set(rows.map((r) => r.value));
  }

  async inZsetMany(keys: string[], members: string[]): Promise<Set<string>[]> {
    if (!keys.length || !members.length) return keys.map(() => new Set());
    const { rows } = await this.pool.query<{ _key: string; value: string }>(
      `SELECT t._key, t.value FROM legacy_zset t WHERE t._key = ANY($1::text[]) AND t.value = ANY($2::text[]) AND ${this.live}`,
      [keys, members],
    );
    const by = new Map<string, Set<string>>();
    for (const r of rows) {
      let s = by.get(r._key);
      if (!s) by.set(r._key, (s = new Set()));
      s.add(r.value);
    }
    return keys.map((k) => by.get(k) ?? new Set());
  }

  async strings(keys: string[]): Promise<string[]> {
    if (!keys.length) return [];
    const { rows } = await this.pool.query<{ _key: string; data: string }>(
      `SELECT t._key, t.data FROM legacy_string t WHERE t._key = ANY($1::text[]) AND ${this.live}`,
      [keys],
    );
    const by = new Map(rows.map((r) => [r._key, r.data]));
    return keys.map((k) => by.get(k) ?? '');
  }

  async scores(pairs: [string, string][]): Promise<(number | null)[]> {
    if (!pairs.length) return [];
    const { rows } = await this.pool.query<{ _key: string; value: string; score: string }>(
      `SELECT t._key, t.value, t.score FROM legacy_zset t JOIN unnest($1::text[], $2::text[]) AS p(k, v) ON t._key = p.k AND t.value = p.v WHERE ${this.live}`,
      [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
    );
    const by = new Map(rows.map((r) => [`${r._key}\u0000${r.value}`, Number(r.score)]));
    return pairs.map(([k, m]) => by.get(`${k}\u0000${m}`) ?? null);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
