import { sql, type Kysely } from 'kysely';

/**
 * Reply counts (`replies` on a post: how many posts answer it) are read for every post a page
 * shows; without an index each read scanned every post. Only replies have a `to_pid`, so the
 * index keeps those alone.
 */
export const replyIndex = {
  async up(db: Kysely<any>): Promise<void> {
    await sql`CREATE INDEX posts_to_pid ON posts (to_pid) WHERE to_pid > 0`.execute(db);
  },
  async down(db: Kysely<any>): Promise<void> {
    await sql`DROP INDEX posts_to_pid`.execute(db);
  },
};
