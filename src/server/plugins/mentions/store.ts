import { sql } from 'kysely';
import type { Queryable } from '../../db/index.js';
import type { PostRow, UserRow } from '../../hooks/types.js';

// Read-only queries of the mentions plugin (it writes nothing: it fires action:post.mention).

/** Groups nobody mentions: everyone, or nobody in particular. */
export const UNMENTIONABLE_GROUPS = ['guests', 'registered-users', 'spiders', 'verified-users', 'unverified-users', 'banned-users'];

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Members by slug (deleted ones left out), in one query. */
export async function usersBySlugs(db: Queryable, slugs: string[]): Promise<UserRow[]> {
  if (!slugs.length) return [];
  return db.selectFrom('users').selectAll().where('userslug', 'in', slugs).where('deleted', '=', 0).execute();
}

/** Mentionable groups by slug, in one query. */
export async function groupsBySlugs(db: Queryable, slugs: string[]): Promise<{ name: string; slug: string }[]> {
  if (!slugs.length) return [];
  return db.selectFrom('groups').select(['name', 'slug']).where('slug', 'in', slugs).where('hidden', '=', 0).where('name', 'not in', UNMENTIONABLE_GROUPS).execute();
}

/** The members of the given groups, each once. */
export async function membersOf(db: Queryable, names: string[]): Promise<number[]> {
  if (!names.length) return [];
  const rows = await db.selectFrom('group_members').select('uid').distinct().where('group_name', 'in', names).execute();
  return rows.map((r) => r.uid);
}

/** A post as it is now (the durable listener re-reads what the hook carried). */
export async function currentPost(db: Queryable, pid: number): Promise<PostRow | undefined> {
  return db.selectFrom('posts').selectAll().where('pid', '=', pid).executeTakeFirst();
}

/** The authors of the given posts of a topic (the posts a post quotes), in one query. */
export async function authorsOf(db: Queryable, pids: number[], tid: number): Promise<Set<number>> {
  if (!pids.length) return new Set();
  const rows = await db.selectFrom('posts').select('uid').where('pid', 'in', pids).where('tid', '=', tid).execute();
  return new Set(rows.map((r) => r.uid));
}

/** The version of a post before its latest edit (post_edits keeps replaced versions). */
export async function previousContent(db: Queryable, pid: number): Promise<string | null> {
  const row = await db.selectFrom('post_edits').select('content').where('pid', '=', pid).orderBy('edited', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row?.content ?? null;
}

/** Members whose name or slug starts with the query, the searcher excluded (spec §5). */
export async function searchUsers(db: Queryable, query: string, excludeUid: number, limit: number): Promise<UserRow[]> {
  const like = `${escapeLike(query.toLowerCase())}%`;
  return db
    .selectFrom('users')
    .selectAll()
    .where('deleted', '=', 0)
    .where('uid', '!=', excludeUid)
    .where(sql<boolean>`(lower(username) like ${like} escape '\\' or userslug like ${like} escape '\\')`)
    .orderBy((eb) => eb.fn('lower', ['username']))
    .limit(limit)
    .execute();
}

/** The authors of a topic's visible posts, the latest poster first. */
export async function topicUsers(db: Queryable, tid: number, limit: number): Promise<UserRow[]> {
  const authors = await db
    .selectFrom('posts')
    .select('uid')
    .select((eb) => eb.fn.max('created').as('last'))
    .where('tid', '=', tid)
    .where('deleted', '=', 0)
    .where('uid', '>', 0)
    .groupBy('uid')
    .orderBy('last', 'desc')
    .limit(limit)
    .execute();
  if (!authors.length) return [];
  const rows = await db.selectFrom('users').selectAll().where('uid', 'in', authors.map((a) => a.uid)).where('deleted', '=', 0).execute();
  const byUid = new Map(rows.map((r) => [r.uid, r]));
  return authors.map((a) => byUid.get(a.uid)).filter((r): r is UserRow => !!r);
}

/** Mentionable group names (visible, not the system's everyone-groups). */
export async function listGroups(db: Queryable, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('groups').select('name').where('hidden', '=', 0).where('name', 'not in', UNMENTIONABLE_GROUPS).orderBy('name').limit(limit).execute();
  return rows.map((r) => r.name);
}
