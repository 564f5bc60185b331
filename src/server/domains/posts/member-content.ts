import type { Writer } from '../../core/action.js';
import type { Queryable } from '../../db/index.js';
import * as store from './store.js';
import type { PostsDeps } from './service.js';
import type { PostRow } from './store.js';

/**
 * Purges a member's replies in other members' topics inside the caller's transaction (account
 * deletion with its content): each visible reply gives back its topic, category and author
 * counts and the reputation its votes gave. A topic's main post is left to the topic's purge.
 */
export async function purgeRepliesOf(ctx: PostsDeps, w: Writer, uid: number): Promise<PostRow[]> {
  const rows = await store.postsWithTopicOf(w.tx, uid);
  const replies = rows.filter((r) => r.pid !== r.topic_main_pid);
  for (const p of replies) {
    if (p.deleted !== 1) {
      await ctx.topics.bumpPostCount(w, p.tid, -1);
      if (p.topic_deleted !== 1) await ctx.categories.bumpCounters(w, p.topic_cid, 0, -1);
      await ctx.users.bump(w.tx, uid, 'postcount', -1);
    }
    if (p.upvotes - p.downvotes !== 0) await ctx.users.bump(w.tx, uid, 'reputation', -(p.upvotes - p.downvotes));
  }
  for (const p of replies) await store.deletePost(w, p.pid);
  for (const tid of new Set(replies.map((p) => p.tid))) await ctx.topics.refreshTeaser(w, tid);
  return replies.map(({ topic_main_pid: _m, topic_cid: _c, topic_deleted: _d, ...post }) => post);
}

/** Takes back a member's votes and bookmarks on others' posts (their counts and the authors' reputation), in the caller's action. */
export async function forgetVotesOf(ctx: PostsDeps, w: Writer, uid: number): Promise<void> {
  for (const v of await store.dropVotesOf(w, uid)) await ctx.users.bump(w.tx, v.author, 'reputation', -Math.sign(v.value));
  await store.dropBookmarksOf(w, uid);
}

/** A page of everything a member wrote (deleted posts too), oldest first, after `afterPid`: their data export reads it. */
export async function postsOf(db: Queryable, uid: number, afterPid: number, limit: number): Promise<PostRow[]> {
  return db.selectFrom('posts').selectAll().where('uid', '=', uid).where('pid', '>', afterPid).orderBy('pid', 'asc').limit(limit).execute();
}
