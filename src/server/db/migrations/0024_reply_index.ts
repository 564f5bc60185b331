import { sql, type Kysely } from 'kysely';

/**
 * Reply counts (`replies` on a post: how many posts answer it) are read for every post a page
 * shows; without an index each read scanned every post. (A partial index on `to_pid > 0`
 * would be smaller, but SQLite's planner cannot use it for `to_pid IN (…)`.)
 */
export const replyIndex = {
  async up(db: Kysely<any>): Promise<void> {
    await sql`CREATE INDEX posts_to_pid ON posts (to_pid)`.execute(db);
  },
  async down(db: Kysely<any>): Promise<void> {
    await sql`DROP INDEX posts_to_pid`.execute(db);
  },
};
