import { slugify } from '../../../../shared/slug.js';
import { badRequest } from '../../../http/errors.js';
import { checkTitle } from '../create.js';
import type { Viewer } from '../../privileges/service.js';
import { assertModerator, assertReadable, loadTopic, member } from '../access.js';
import { purgeTopicRows } from '../moderate.js';
import * as store from '../store.js';
import type { TopicRow } from '../store.js';
import type { TopicToolsDeps as TopicsDeps } from '../service.js';
import { recordEvent } from './events.js';

/** The most topics one merge takes. */
export const MERGE_MAX = 50;

/**
 * Merges topics into one (NodeBB's topics.merge): moderators of every topic. The main topic is
 * the one chosen, else the oldest; every post of the others joins it (posts keep their times,
 * so they read in order), the emptied topics go and their addresses lead to the main topic.
 * Counts follow: categories lose the merged topics (and their posts when the main topic is
 * elsewhere), their starters lose a topic each. One transaction; the main timeline records it.
 * With `newTitle` (NodeBB's merge option) the merged topic takes that title.
 */
export async function mergeTopics(ctx: TopicsDeps, viewer: Viewer, tids: number[], mainTid?: number, ip = '', newTitle?: string): Promise<TopicRow> {
  member(viewer);
  const title = newTitle !== undefined && newTitle.trim() !== '' ? checkTitle(newTitle, await ctx.settings.get()) : undefined;
  const unique = [...new Set(tids)];
  if (mainTid !== undefined && !unique.includes(mainTid)) unique.push(mainTid);
  if (unique.length > MERGE_MAX) throw badRequest('error:too-many-topics-to-merge', MERGE_MAX);
  const topics: TopicRow[] = [];
  for (const tid of unique) topics.push(await loadTopic(ctx, tid));
  for (const t of topics) {
    await assertReadable(ctx, viewer, t);
    await assertModerator(ctx, viewer, t.cid);
  }
  const main = mainTid !== undefined ? topics.find((t) => t.tid === mainTid)! : [...topics].sort((a, b) => Number(a.created) - Number(b.created) || a.tid - b.tid)[0]!;
  const others = topics.filter((t) => t.tid !== main.tid);
  if (!others.length) throw badRequest('error:cant-merge-topic-into-itself');
  if (main.deleted === 1 || main.scheduled === 1) throw badRequest('error:cant-merge-into-deleted-topic');
  if (others.some((t) => t.scheduled === 1)) throw badRequest('error:invalid-tid');
  await ctx.actions.run('topic.merge', async (w) => {
    for (const other of others) {
      await ctx.posts.moveRows(w, await ctx.posts.allOfTopicIn(w.tx, other.tid), other, main);
      // Emptied: only the topic itself is left to uncount (its posts went with the move).
      await purgeTopicRows(ctx, w, { ...other, post_count: 0 });
      await store.addRedirect(w, other.tid, main.tid);
    }
    if (title !== undefined && title !== main.title) await store.updateTopic(w, main.tid, { title, slug: slugify(title) });
    await recordEvent(ctx, w, main.tid, 'merge', viewer.uid, { count: others.length }, ip);
    await w.fire('action:topic.tools', { tids: topics.map((t) => t.tid), uid: viewer.uid, tool: 'merge' });
    for (const other of others) await w.fire('action:topic.purge', { topic: other, uid: viewer.uid });
  });
  return (await store.byTid(ctx.db, main.tid))!;
}
