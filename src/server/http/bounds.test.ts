import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MAX_CACHED_PLACEHOLDERS, StatementCache } from '../db/statement-cache.js';
import { MemoryRateLimiter } from './ratelimit.js';

// Issue 17, defect 2: after a fuzz the server kept 150 MB. What grows with attacker input
// must stay bounded: prepared statements keyed by SQL text (every IN-list length is a new
// text) and rate-limit windows keyed by the name typed at login.

describe('memory bounds', () => {
  it('keeps at most maxEntries prepared statements, least recently used out first', () => {
    const file = new SQLite(':memory:');
    file.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v INT)');
    const cache = new StatementCache(file, 50);
    const hot = 'SELECT v FROM t WHERE id = ?';
    const hotStmt = cache.prepare(hot);
    for (let i = 0; i < 500; i++) {
      cache.prepare(`SELECT v FROM t WHERE id = ? AND v <> ${i}`);
      cache.prepare(hot);
    }
    expect(cache.size).toBe(50);
    expect(cache.prepare(hot)).toBe(hotStmt);
    cache.close();
  });

  it('does not keep statements with long IN-lists, whose every length is a new SQL text', () => {
    const file = new SQLite(':memory:');
    file.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v INT)');
    const cache = new StatementCache(file);
    const inList = (n: number) => `SELECT v FROM t WHERE id IN (${Array(n).fill('?').join(', ')})`;
    for (let n = 1; n <= 1000; n++) expect(cache.prepare(inList(n)).all(Array.from({ length: n }, (_, i) => i))).toEqual([]);
    expect(cache.size).toBe(MAX_CACHED_PLACEHOLDERS);
    cache.close();
  });

  it('keeps at most maxWindows rate-limit windows however many names are typed', async () => {
    const limiter = new MemoryRateLimiter(1000);
    for (let i = 0; i < 5000; i++) await limiter.hit(`login:user:name:${'x'.repeat(100)}${i}`, 10, 60);
    expect(limiter.size).toBeLessThanOrEqual(1000);
    // A key still counting within its window keeps counting.
    for (let i = 0; i < 11; i++) await limiter.hit('login:ip:127.0.0.1', 10, 60);
    expect(await limiter.hit('login:ip:127.0.0.1', 10, 60)).toBeGreaterThan(0);
  });
});
