import type { Writer } from '../../../core/action.js';
import { badRequest, notAuthorised, notFound } from '../../../http/errors.js';
import type { Viewer } from '../../privileges/service.js';
import type { TopicRow } from '../../topics/store.js';
import { assertModerates } from '../access.js';
import * as store from '../store.js';
import type { PostsDeps as PostToolsDeps } from '../service.js';

/**
 * Gives posts to another member (NodeBB's PUT /posts/{pid}/owner, POST /posts/owner): moderators
 * of every topic the posts are in. Each visible post moves one post and its votes' reputation
 * from its old author to the new one; a main post also gives its topic (and the topic count).
 * One transaction; each topic's timeline records it.
 */
export async function changeOwner(ctx: PostToolsDeps, viewer: Viewer, pids: number[], toUid: number, ip = ''): Promise<{ pids: number[] }> {
  if (viewer.uid <= 0) throw notAuthorised();
  const unique = [...new Set(pids)];
  if (!unique.length) throw badRequest('error:invalid-pid');
  const owner = await ctx.users.get(toUid);
  if (!owner || owner.deleted === 1) throw notFound('error:no-user');
  const posts = await store.byPids(ctx.db, unique);
  if (posts.length !== unique.length) throw notFound('error:no-post');
  const topics = await ctx.topics.getMany([...new Set(posts.map((p) => p.tid))]);
  await assertModerates(ctx, viewer, topics.values());
  const changing = posts.filter((p) => p.uid !== toUid);
  await ctx.actions.run('post.change-owner', async (w) => {
    const tx = w.tx;
    await store.setOwnerOf(w, changing.map((p) => p.pid), toUid);
    for (const post of changing) {
      const topic = topics.get(post.tid)!;
      if (post.deleted !== 1) {
        await ctx.users.bump(tx, post.uid, 'postcount', -1);
        await ctx.users.bump(tx, toUid, 'postcount', 1);
      }
      const score = post.upvotes - post.downvotes;
      if (score) {
        await ctx.users.bump(tx, post.uid, 'reputation', -score);
        await ctx.users.bump(tx, toUid, 'reputation', score);
      }
      if (post.pid === topic.main_pid) await giveTopic(ctx, w, topic, toUid);
    }
    const perTopic = new Map<number, number>();
    for (const p of changing) perTopic.set(p.tid, (perTopic.get(p.tid) ?? 0) + 1);
    for (const [tid, count] of perTopic) await ctx.topics.recordEvent(w, tid, 'owner', viewer.uid, { count, username: owner.username }, ip);
    await w.fire('action:topic.tools', { tids: [...topics.keys()], uid: viewer.uid, tool: 'owner' });
  });
  return { pids: unique };
}

/** The topic follows its main post's new owner, and so does the count of topics they started. */
async function giveTopic(ctx: PostToolsDeps, w: Writer, topic: TopicRow, toUid: number): Promise<void> {
  await ctx.topics.setOwner(w, topic.tid, toUid);
  if (topic.deleted !== 1 && topic.scheduled !== 1) {
    await ctx.users.bump(w.tx, topic.uid, 'topiccount', -1);
    await ctx.users.bump(w.tx, toUid, 'topiccount', 1);
  }
}
