import type { Writer } from '../../core/action.js';
import { purgeTopicRows } from './moderate.js';
import * as store from './store.js';
import type { TopicRow } from './store.js';

/**
 * Purges every topic a member started, inside the caller's action (account deletion with
 * its content), taking back each counter as a single purge does. Returns the purged topics so
 * the caller fires their hooks.
 */
export async function purgeTopicsOf(ctx: Parameters<typeof purgeTopicRows>[0], w: Writer, uid: number): Promise<TopicRow[]> {
  const topics = await store.startedBy(w.tx, uid);
  for (const topic of topics) await purgeTopicRows(ctx, w, topic);
  return topics;
}
