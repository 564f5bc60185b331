import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../db/index.js';
import { SYSTEM } from '../../setup.js';
import { startTestForum, type TestForum } from '../../test/harness.js';
import type { Viewer } from '../privileges/service.js';
import { backup, restore } from './run.js';
import { fileSource, freshTarget } from './test-kit.js';

/** Stored counters that differ from the rows they count: none in a consistent forum. */
async function counterMismatches(db: Db): Promise<string[]> {
  const out: string[] = [];
  const topics = await sql<{
    tid: number;
    stored: number;
    real: number;
  }>`SELECT t.tid, t.post_count AS stored, (SELECT count(*) FROM posts p WHERE p.tid = t.tid) AS real FROM topics t`.execute(db);
  for (const r of topics.rows) if (Number(r.stored) !== Number(r.real)) out.push(`topic ${r.tid}: ${r.stored} ≠ ${r.real}`);
  const users = await sql<{
    uid: number;
    stored: number;
    real: number;
  }>`SELECT u.uid, u.postcount AS stored, (SELECT count(*) FROM posts p WHERE p.uid = u.uid) AS real FROM users u`.execute(db);
  for (const r of users.rows) if (Number(r.stored) !== Number(r.real)) out.push(`user ${r.uid}: ${r.stored} ≠ ${r.real}`);
  const cats = await sql<{ cid: number; topics: number; realTopics: number; posts: number; realPosts: number }>`
    SELECT c.cid, c.topic_count AS topics, (SELECT count(*) FROM topics t WHERE t.cid = c.cid) AS "realTopics",
           c.post_count AS posts, (SELECT count(*) FROM posts p JOIN topics t ON t.tid = p.tid WHERE t.cid = c.cid) AS "realPosts" FROM categories c`.execute(
    db,
  );
  for (const r of cats.rows) {
    if (Number(r.topics) !== Number(r.realTopics) || Number(r.posts) !== Number(r.realPosts))
      out.push(`category ${r.cid}: ${r.topics}/${r.posts} ≠ ${r.realTopics}/${r.realPosts}`);
  }
  return out;
}

describe('a backup taken under write load', () => {
  let forum: TestForum;
  const dir = mkdtempSync(path.join(tmpdir(), 'palaver-load-'));
  beforeAll(async () => {
    forum = await startTestForum();
  });
  afterAll(async () => {
    await forum?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('restores to a forum whose counters match its rows (10 writers while it ran)', async () => {
    const { cid } = await forum.ctx.categories.create(SYSTEM, { name: 'Busy' });
    const writers: Viewer[] = [];
    for (let i = 0; i < 10; i++) writers.push({ ...(await forum.ctx.privileges.viewer((await forum.createUser()).uid)), master: true });
    const first = await forum.ctx.topics.create(writers[0]!, { cid, title: 'The busy topic', content: 'Everyone replies here.' });
    // Some rows before the backup starts, so it has something to read while the writers go on.
    for (let i = 0; i < 60; i++) await forum.ctx.posts.reply(writers[i % 10]!, first.topic.tid, { content: `Warm-up reply ${i}` });
    let stop = false;
    let written = 0;
    const load = writers.map(async (w, i) => {
      for (let n = 0; !stop; n++) {
        if (n % 5 === 0) await forum.ctx.topics.create(w, { cid, title: `Writer ${i} topic ${n}`, content: `Topic ${n} by writer ${i}.` });
        else await forum.ctx.posts.reply(w, first.topic.tid, { content: `Reply ${n} by writer ${i}.` });
        written += 1;
        // As requests arrive: between two writes the event loop turns (SQLite's writes never wait on I/O).
        await new Promise((r) => setImmediate(r));
      }
    });
    const file = path.join(dir, 'busy.tar.gz');
    let during = 0;
    try {
      await expect.poll(() => written).toBeGreaterThan(20);
      const before = written;
      await backup(forum.ctx.config, forum.ctx.storage, createWriteStream(file));
      during = written - before;
      const after = written;
      await expect.poll(() => written).toBeGreaterThan(after + 10);
    } finally {
      stop = true;
      await Promise.all(load);
    }
    await forum.ctx.hooks.idle();
    // Writes landed while the backup read: its snapshot saw a state between them.
    expect(during).toBeGreaterThan(0);
    expect(await counterMismatches(forum.ctx.db)).toEqual([]);

    const target = await freshTarget(forum.ctx.dialect);
    try {
      await restore(target.config, fileSource(file), { files: null });
      const handle = openDatabase(target.config);
      try {
        expect(await counterMismatches(handle.db)).toEqual([]);
        const posts = Number((await sql<{ n: number }>`SELECT count(*) AS n FROM posts`.execute(handle.db)).rows[0]!.n);
        // Some of the load is in the backup, not all of it.
        expect(posts).toBeGreaterThan(61);
        expect(posts).toBeLessThan(61 + written);
      } finally {
        await handle.close();
      }
    } finally {
      await target.dispose();
    }
  }, 120_000);
});
