import type { Queryable } from '../../db/index.js';
import { purgeTopicRows } from './moderate.js';
import type { TopicRow } from './store.js';

/**
 * Purges every topic a member started, inside the caller's transaction (account deletion with
 * its content), taking back each counter as a single purge does. Returns the purged topics so
 * the caller fires their hooks after commit.
 */
export async function purgeTopicsOf(ctx: Parameters<typeof purgeTopicRows>[0], db: Queryable, uid: number): Promise<TopicRow[]> {
  const topics = await db.selectFrom('topics').selectAll().where('uid', '=', uid).execute();
  for (const topic of topics) await purgeTopicRows(ctx, db, topic);
  return topics;
}
