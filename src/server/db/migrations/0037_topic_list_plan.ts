import { sql, type Kysely } from 'kysely';

/**
 * Migration 0013 indexed `topics (scheduled, created)`, but nothing reads topics by that
 * index (a scheduled topic is published by its own job, by tid). Worse, every topic list
 * filters on `scheduled = 0`, and SQLite's planner, without statistics, took that equality
 * for a selective one: it walked the index over nearly every topic and sorted them in a
 * temporary b-tree instead of reading `topics_recent` / `topics_cid_list` in order
 * (member /api/recent: ~1.3 ms of SQL per request on the bench seed, most of its CPU).
 */
export const topicListPlan = {
  async up(db: Kysely<any>): Promise<void> {
    await sql`DROP INDEX IF EXISTS topics_scheduled`.execute(db);
  },
  async down(db: Kysely<any>): Promise<void> {
    await sql`CREATE INDEX topics_scheduled ON topics (scheduled, created)`.execute(db);
  },
};
