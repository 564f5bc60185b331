import type { Queryable } from '../../db/index.js';
import type { PostsDeps } from './service.js';
import type { PostRow } from './store.js';

/**
 * Purges a member's replies in other members' topics inside the caller's transaction (account
 * deletion with its content): each visible reply gives back its topic, category and author
 * counts and the reputation its votes gave. A topic's main post is left to the topic's purge.
 */
export async function purgeRepliesOf(ctx: PostsDeps, db: Queryable, uid: number): Promise<PostRow[]> {
  const rows = await db
    .selectFrom('posts')
    .innerJoin('topics', 'topics.tid', 'posts.tid')
    .selectAll('posts')
    .select(['topics.main_pid as topic_main_pid', 'topics.cid as topic_cid', 'topics.deleted as topic_deleted'])
    .where('posts.uid', '=', uid)
    .execute();
  const replies = rows.filter((r) => r.pid !== r.topic_main_pid);
  for (const p of replies) {
    if (p.deleted !== 1) {
      await ctx.topics.bumpPostCount(db, p.tid, -1);
      if (p.topic_deleted !== 1) await ctx.categories.bumpCounters(db, p.topic_cid, 0, -1);
      await ctx.users.bump(db, uid, 'postcount', -1);
    }
    if (p.upvotes - p.downvotes !== 0) await ctx.users.bump(db, uid, 'reputation', -(p.upvotes - p.downvotes));
  }
  if (replies.length)
    await db
      .deleteFrom('posts')
      .where(
        'pid',
        'in',
        replies.map((p) => p.pid),
      )
      .execute();
  for (const tid of new Set(replies.map((p) => p.tid))) await ctx.topics.refreshTeaser(db, tid);
  return replies.map(({ topic_main_pid: _m, topic_cid: _c, topic_deleted: _d, ...post }) => post);
}

/** Takes back a member's votes and bookmarks on others' posts (their counts and the authors' reputation), in the caller's transaction. */
export async function forgetVotesOf(ctx: PostsDeps, db: Queryable, uid: number): Promise<void> {
  const votes = await db
    .selectFrom('votes')
    .innerJoin('posts', 'posts.pid', 'votes.pid')
    .select(['votes.pid', 'votes.value', 'posts.uid as author'])
    .where('votes.uid', '=', uid)
    .execute();
  for (const v of votes) {
    await db
      .updateTable('posts')
      .set((eb) => (v.value > 0 ? { upvotes: eb('upvotes', '-', 1) } : { downvotes: eb('downvotes', '-', 1) }))
      .where('pid', '=', v.pid)
      .execute();
    await ctx.users.bump(db, v.author, 'reputation', -Math.sign(v.value));
  }
  await db.deleteFrom('votes').where('uid', '=', uid).execute();
  await db
    .updateTable('posts')
    .set((eb) => ({ bookmarks: eb('bookmarks', '-', 1) }))
    .where('pid', 'in', (eb) => eb.selectFrom('bookmarks').select('pid').where('uid', '=', uid))
    .execute();
  await db.deleteFrom('bookmarks').where('uid', '=', uid).execute();
}

/** A page of everything a member wrote (deleted posts too), oldest first, after `afterPid`: their data export reads it. */
export async function postsOf(db: Queryable, uid: number, afterPid: number, limit: number): Promise<PostRow[]> {
  return db.selectFrom('posts').selectAll().where('uid', '=', uid).where('pid', '>', afterPid).orderBy('pid', 'asc').limit(limit).execute();
}
