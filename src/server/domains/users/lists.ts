import { sql } from 'kysely';
import type { Queryable } from '../../db/index.js';
import type { PostRow } from '../posts/store.js';
import type { TopicRow } from '../topics/store.js';
import type { UserRow } from './store.js';

/*
 * The queries behind a member's profile lists (issue 13). They read the content tables
 * (posts, topics, votes, bookmarks, follows, reads) without writing them: each list is one
 * statement for the page and one for the count, filtered in SQL to the categories the viewer
 * may read, so a hidden post never reaches a presenter and pages stay the right size.
 */

/** Which of a member's posts a post list holds. */
export type PostListKind = 'posts' | 'best' | 'controversial' | 'upvoted' | 'downvoted' | 'bookmarks';
/** Which topics a topic list holds. */
export type TopicListKind = 'topics' | 'ignored' | 'read';

/** A post of a profile's post list, with the topic fields it shows and its index in the topic. */
export type ListedPost = PostRow & { topic_title: string; topic_slug: string; topic_cid: number; post_index: number };

/** A page of a post list with the topic fields it shows, and the total (0 without `withCount`). */
export async function postList(
  db: Queryable,
  kind: PostListKind,
  uid: number,
  cids: number[],
  offset: number,
  limit: number,
  withCount = true,
): Promise<{ rows: ListedPost[]; count: number }> {
  if (!cids.length) return { rows: [], count: 0 };
  let q = db
    .selectFrom('posts')
    .innerJoin('topics', 'topics.tid', 'posts.tid')
    .where('posts.deleted', '=', 0)
    .where('topics.deleted', '=', 0)
    .where('topics.scheduled', '=', 0)
    .where('topics.cid', 'in', cids);
  if (kind === 'posts') q = q.where('posts.uid', '=', uid);
  if (kind === 'best') q = q.where('posts.uid', '=', uid).where((eb) => eb(eb('posts.upvotes', '-', eb.ref('posts.downvotes')), '>', 0));
  // NodeBB's controversial: the member's posts others voted down, the lowest score first.
  if (kind === 'controversial') q = q.where('posts.uid', '=', uid).where('posts.downvotes', '>', 0);
  if (kind === 'upvoted' || kind === 'downvoted') {
    q = q.innerJoin('votes', 'votes.pid', 'posts.pid').where('votes.uid', '=', uid).where('votes.value', kind === 'upvoted' ? '>' : '<', 0);
  }
  if (kind === 'bookmarks') q = q.innerJoin('bookmarks', 'bookmarks.pid', 'posts.pid').where('bookmarks.uid', '=', uid);
  // (The profile's best posts show three, without a total: no count.)
  const counted = withCount ? await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst() : undefined;
  let page = q
    .selectAll('posts')
    .select(['topics.title as topic_title', 'topics.slug as topic_slug', 'topics.cid as topic_cid'])
    // Each post's position in its topic, in the same statement (not a query per post).
    .select((eb) =>
      eb
        .selectFrom('posts as earlier')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('earlier.tid', '=', 'posts.tid')
        .where((e) => e.or([e('earlier.created', '<', e.ref('posts.created')), e.and([e('earlier.created', '=', e.ref('posts.created')), e('earlier.pid', '<', e.ref('posts.pid'))])]))
        .as('post_index'),
    );
  if (kind === 'best') page = page.orderBy((eb) => eb('posts.upvotes', '-', eb.ref('posts.downvotes')), 'desc');
  if (kind === 'controversial') page = page.orderBy((eb) => eb('posts.upvotes', '-', eb.ref('posts.downvotes')), 'asc');
  if (kind === 'upvoted' || kind === 'downvoted') page = page.orderBy(sql.ref('votes.created'), 'desc');
  if (kind === 'bookmarks') page = page.orderBy(sql.ref('bookmarks.created'), 'desc');
  const rows = await page.orderBy('posts.created', 'desc').orderBy('posts.pid', 'desc').offset(offset).limit(limit).execute();
  return { rows: rows.map((r) => ({ ...r, post_index: Number(r.post_index ?? 0) })) as never, count: Number(counted?.n ?? 0) };
}

/** A page of a topic list (the member's topics, those they ignore, those they have read), and the total. */
export async function topicList(db: Queryable, kind: TopicListKind, uid: number, cids: number[], offset: number, limit: number): Promise<{ rows: TopicRow[]; count: number }> {
  if (!cids.length) return { rows: [], count: 0 };
  let q = db.selectFrom('topics').where('topics.deleted', '=', 0).where('topics.scheduled', '=', 0).where('topics.cid', 'in', cids);
  if (kind === 'topics') q = q.where('topics.uid', '=', uid);
  if (kind === 'ignored') q = q.innerJoin('topic_follows', 'topic_follows.tid', 'topics.tid').where('topic_follows.uid', '=', uid).where('topic_follows.state', '=', 'ignore');
  if (kind === 'read') q = q.innerJoin('topic_reads', 'topic_reads.tid', 'topics.tid').where('topic_reads.uid', '=', uid);
  const counted = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  let page = q.selectAll('topics');
  if (kind === 'topics') page = page.orderBy('topics.created', 'desc');
  if (kind === 'read') page = page.orderBy(sql.ref('topic_reads.read_at'), 'desc');
  const rows = await page.orderBy('topics.last_post_time', 'desc').orderBy('topics.tid', 'desc').offset(offset).limit(limit).execute();
  return { rows: rows as TopicRow[], count: Number(counted?.n ?? 0) };
}

/** A page of a member's followers or of those they follow, newest follow first. */
export async function followList(db: Queryable, kind: 'followers' | 'following', uid: number, offset: number, limit: number): Promise<UserRow[]> {
  const [mine, theirs] = kind === 'followers' ? (['user_follows.followee', 'user_follows.uid'] as const) : (['user_follows.uid', 'user_follows.followee'] as const);
  return db
    .selectFrom('user_follows')
    .innerJoin('users', 'users.uid', theirs)
    .selectAll('users')
    .where(mine, '=', uid)
    .where('users.deleted', '=', 0)
    .orderBy('user_follows.created', 'desc')
    .orderBy('users.uid', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}

/** A member's custom profile field values, keyed by field. */
export async function fieldValues(db: Queryable, uid: number): Promise<Map<string, string>> {
  const rows = await db.selectFrom('user_fields').select(['field_key', 'value']).where('uid', '=', uid).execute();
  return new Map(rows.map((r) => [r.field_key, r.value]));
}

/** Sets (or, for an empty value, removes) a member's custom field values, in the caller's transaction. */
export async function setFieldValues(db: Queryable, uid: number, values: [string, string][]): Promise<void> {
  for (const [key, value] of values) {
    await db.deleteFrom('user_fields').where('uid', '=', uid).where('field_key', '=', key).execute();
    if (value !== '') await db.insertInto('user_fields').values({ uid, field_key: key, value }).execute();
  }
}
