import { sql, type Kysely } from 'kysely';

/**
 * Indexes for the topic lists: recent (all live topics by last post) and a category's list
 * (pinned first, then by last post), and each category's newest topic (its teaser), so
 * none of them sorts the whole table per request.
 */
export const listIndexes = {
  async up(db: Kysely<any>): Promise<void> {
    await sql`create index topics_live_recent on topics (deleted, last_post_time desc, tid desc)`.execute(db);
    await sql`create index topics_cid_live on topics (cid, deleted, pinned, last_post_time, tid)`.execute(db);
    await sql`create index topics_cid_latest on topics (cid, deleted, last_post_time desc, tid desc)`.execute(db);
  },
};
