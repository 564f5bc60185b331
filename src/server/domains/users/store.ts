import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Writer } from '../../core/action.js';
import { memberTag, userCountsTag, userTag } from '../../core/tags.js';
import type { Queryable } from '../../db/index.js';
import type { BatchPart } from '../../db/prepared.js';
import type { UsersTable } from '../../db/schema.js';

export type UserRow = Selectable<UsersTable>;

/** A member by uid. */
export async function byUid(db: Queryable, uid: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('uid', '=', uid).executeTakeFirst();
}

/** Several members by uid. */
export async function byUids(db: Queryable, uids: number[]): Promise<UserRow[]> {
  if (!uids.length) return [];
  return db.selectFrom('users').selectAll().where('uid', 'in', [...new Set(uids)]).execute();
}

/**
 * What lists show of a member (an author, a teaser's poster, a chat message's sender): the
 * fields presentUser reads. A third of the row's columns; a page of 37 authors reads in a
 * third of the time of whole rows.
 */
export const BRIEF_COLUMNS = ['uid', 'username', 'userslug', 'fullname', 'picture', 'status', 'postcount', 'reputation', 'banned', 'banned_until', 'deleted', 'lastonline'] as const;
export type UserBrief = Pick<UserRow, (typeof BRIEF_COLUMNS)[number]>;

/** Several members' brief by uid. */
export async function briefsByUids(db: Queryable, uids: number[]): Promise<UserBrief[]> {
  if (!uids.length) return [];
  return db.selectFrom('users').select(BRIEF_COLUMNS).where('uid', 'in', [...new Set(uids)]).execute();
}

/** A member by username, case-insensitively. */
export async function byUsername(db: Queryable, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase())).executeTakeFirst();
}

/** A member by slug. */
export async function bySlug(db: Queryable, slug: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('userslug', '=', slug).executeTakeFirst();
}

/** A member by email, case-insensitively (emails are stored lowercased). */
export async function byEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

/** Inserts a member and returns the row. */
export async function insertUser(db: Queryable, row: Insertable<UsersTable>): Promise<UserRow> {
  return db.insertInto('users').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Updates a member's fields. */
export async function updateUser(db: Queryable, uid: number, fields: Updateable<UsersTable>): Promise<void> {
  await db.updateTable('users').set(fields).where('uid', '=', uid).execute();
}

/** Changes a member's fields inside an action: what others see of them and their own state drop from the caches. */
export async function writeUser(w: Writer, uid: number, fields: Updateable<UsersTable>): Promise<void> {
  w.changed(userTag(uid), memberTag(uid));
  await w.tx.updateTable('users').set(fields).where('uid', '=', uid).execute();
}

/** Changes a member's own state inside an action (address, password, settings): only their own caches drop, not what others see. */
export async function writeMember(w: Writer, uid: number, fields: Updateable<UsersTable>): Promise<void> {
  w.changed(memberTag(uid));
  await w.tx.updateTable('users').set(fields).where('uid', '=', uid).execute();
}

/**
 * Moves members' "last online" forward (the activity recorder's batch). No tag: presence is
 * read fresh by the lists that show it, and dropping every active member's pages at each
 * flush would leave the guests' pages uncached. Never moves it back.
 */
export async function writeLastOnline(w: Writer, seen: readonly (readonly [uid: number, at: number])[]): Promise<void> {
  for (const [uid, at] of seen) {
    await w.tx.updateTable('users').set({ lastonline: at }).where('uid', '=', uid).where('lastonline', '<', at).execute();
  }
}

/** The members active since a time (deleted ones aside), at most `limit`. */
export async function activeSince(db: Queryable, since: number, limit: number): Promise<number[]> {
  const rows = await db.selectFrom('users').select('uid').where('lastonline', '>=', since).where('deleted', '=', 0).limit(limit).execute();
  return rows.map((r) => r.uid);
}

/** Inserts a member inside an action and returns the row (a unique index refuses a taken name or address). */
export async function writeNewUser(w: Writer, row: Insertable<UsersTable>): Promise<UserRow> {
  const user = await w.tx.insertInto('users').values(row).returningAll().executeTakeFirstOrThrow();
  w.changed(userTag(user.uid));
  return user;
}

/** Deletes a member row inside an action. */
export async function writeDeleteUser(w: Writer, uid: number): Promise<void> {
  w.changed(userTag(uid), memberTag(uid), userCountsTag(uid));
  await w.tx.deleteFrom('users').where('uid', '=', uid).execute();
}

/** Keeps the name a member had before a rename (the credentials part of the domain). */
export async function addUsernameHistory(w: Writer, row: { uid: number; username: string; changed: number; by_uid: number }): Promise<void> {
  await w.tx.insertInto('username_history').values(row).execute();
}

/** Records a member's new address (the credentials part of the domain). */
export async function addEmailHistory(w: Writer, row: { uid: number; email: string; changed: number; by_uid: number }): Promise<void> {
  await w.tx.insertInto('email_history').values(row).execute();
}

/** Adds to a member's counters (postcount, topiccount, reputation). */
export async function bumpUser(db: Queryable, uid: number, field: 'postcount' | 'topiccount' | 'reputation', by: number): Promise<void> {
  if (uid <= 0 || by === 0) return;
  await db.updateTable('users').set((eb) => ({ [field]: eb(field, '+', by) })).where('uid', '=', uid).execute();
}

/** Counts a member's new post and records its time (for flood control), in one statement. */
export async function recordPost(w: Writer, uid: number, time: number): Promise<void> {
  if (uid <= 0) return;
  w.changed(userCountsTag(uid));
  await w.tx.updateTable('users').set((eb) => ({ postcount: eb('postcount', '+', 1), lastposttime: time })).where('uid', '=', uid).execute();
}

/** Deletes a member row. */
export async function deleteUser(db: Queryable, uid: number): Promise<void> {
  await db.deleteFrom('users').where('uid', '=', uid).execute();
}

/** What the members list shows of a member: the brief and the join date. */
export const LISTED_COLUMNS = [...BRIEF_COLUMNS, 'joindate'] as const;
export type ListedUser = Pick<UserRow, (typeof LISTED_COLUMNS)[number]>;

/** A page of members in the given order (their brief and join date, not whole rows). */
export async function listUsers(
  db: Queryable,
  order: 'joindate' | 'postcount' | 'reputation' | 'lastonline',
  offset: number,
  limit: number,
): Promise<ListedUser[]> {
  return db
    .selectFrom('users')
    .select(LISTED_COLUMNS)
    .where('deleted', '=', 0)
    .orderBy(order, 'desc')
    .orderBy('uid', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}

/** How many members there are. */
export async function countUsers(db: Queryable): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('deleted', '=', 0).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** True when a slug is taken. */
export async function slugTaken(db: Queryable, slug: string): Promise<boolean> {
  return !!(await db.selectFrom('users').select('uid').where('userslug', '=', slug).executeTakeFirst());
}

/** True when `uid` follows `followee`. */
export async function isFollowing(db: Queryable, uid: number, followee: number): Promise<boolean> {
  if (uid <= 0) return false;
  return !!(await db.selectFrom('user_follows').select('uid').where('uid', '=', uid).where('followee', '=', followee).executeTakeFirst());
}

/**
 * Whether `uid` follows `followee`, as a part of a batched read (db/prepared.ts runBatch): a
 * profile reads it with the reader's votes and bookmarks among the profile's posts.
 */
export function followPart(uid: number, followee: number): BatchPart<boolean> {
  return {
    shape: 'users.follows',
    build: (db, $) =>
      db
        .selectFrom('user_follows')
        .select((eb) => [eb.ref('followee').as('id'), sql<number | null>`cast(null as bigint)`.as('num'), sql<string | null>`cast(null as text)`.as('txt')])
        .where('uid', '=', $(0))
        .where('followee', '=', $(1)),
    values: uid > 0 ? [uid, followee] : null,
    read: (rows) => rows.length > 0,
  };
}

/**
 * Adds or removes a follow and moves both members' counters with it, in the caller's
 * transaction; false when there was nothing to change (already following, or not).
 */
export async function setFollow(w: Writer, uid: number, followee: number, on: boolean, at: number): Promise<boolean> {
  const db = w.tx;
  const changed = on
    ? (await db.insertInto('user_follows').values({ uid, followee, created: at }).onConflict((oc) => oc.doNothing()).returning('uid').execute()).length
    : (await db.deleteFrom('user_follows').where('uid', '=', uid).where('followee', '=', followee).returning('uid').execute()).length;
  if (!changed) return false;
  const by = on ? 1 : -1;
  // The follower's own state, and both members' counters on their profiles.
  w.changed(memberTag(uid), userCountsTag(uid), userCountsTag(followee));
  await db.updateTable('users').set((eb) => ({ following_count: eb('following_count', '+', by) })).where('uid', '=', uid).execute();
  await db.updateTable('users').set((eb) => ({ follower_count: eb('follower_count', '+', by) })).where('uid', '=', followee).execute();
  return true;
}

/** Removes every follow to and from a member about to go, keeping the other members' counters true. */
export async function dropFollowsOf(db: Queryable, uid: number): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ follower_count: eb('follower_count', '-', 1) }))
    .where('uid', 'in', (eb) => eb.selectFrom('user_follows').select('followee').where('uid', '=', uid))
    .execute();
  await db
    .updateTable('users')
    .set((eb) => ({ following_count: eb('following_count', '-', 1) }))
    .where('uid', 'in', (eb) => eb.selectFrom('user_follows').select('uid').where('followee', '=', uid))
    .execute();
  await db.deleteFrom('user_follows').where((eb) => eb.or([eb('uid', '=', uid), eb('followee', '=', uid)])).execute();
}

/**
 * Members whose username contains the text (case-insensitive, LIKE wildcards escaped): those
 * whose name starts with it first, then by post count.
 */
export async function searchUids(db: Queryable, text: string, limit: number): Promise<number[]> {
  const t = text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  const rows = await db
    .selectFrom('users')
    .select('uid')
    .where('deleted', '=', 0)
    .where(sql<boolean>`lower(username) like ${`%${t}%`} escape '\\'`)
    .orderBy(sql`case when lower(username) like ${`${t}%`} escape '\\' then 0 else 1 end`)
    .orderBy('postcount', 'desc')
    .orderBy('uid')
    .limit(limit)
    .execute();
  return rows.map((r) => r.uid);
}

/** What the admins' member list asks for (admin/manage/users). */
export interface AdminUserQuery {
  query: string;
  searchBy: 'username' | 'email' | 'uid' | 'ip';
  /** searchBy 'ip': the members seen at that address (the moderation domain's address history). */
  uids?: number[];
  filters: string[];
  sortBy: 'joindate' | 'lastonline' | 'postcount' | 'reputation' | 'username' | 'uid';
  reverse: boolean;
}

function adminUserWhere(db: Queryable, q: AdminUserQuery, now: number) {
  let s = db.selectFrom('users').where('deleted', '=', 0);
  const text = q.query.trim();
  if (text) {
    if (q.searchBy === 'uid') s = s.where('uid', '=', /^\d{1,10}$/.test(text) && Number(text) <= 2147483647 ? Number(text) : -1);
    else if (q.searchBy === 'ip') s = s.where('uid', 'in', q.uids?.length ? q.uids : [-1]);
    else {
      const t = text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
      const column = q.searchBy === 'email' ? sql`lower(coalesce(email, ''))` : sql`lower(username)`;
      s = s.where(sql<boolean>`${column} like ${`%${t}%`} escape '\\'`);
    }
  }
  if (q.filters.includes('verified')) s = s.where('email_confirmed', '=', 1);
  if (q.filters.includes('unverified')) s = s.where('email_confirmed', '=', 0);
  const banned = sql<boolean>`(banned = 1 and (banned_until = 0 or banned_until > ${now}))`;
  if (q.filters.includes('banned')) s = s.where(banned);
  if (q.filters.includes('notbanned')) s = s.where(sql<boolean>`not ${banned}`);
  return s;
}

/** A page of members for the admins' list, searched, filtered and sorted, with the total. */
export async function adminUsers(db: Queryable, q: AdminUserQuery, offset: number, limit: number, now = Date.now()): Promise<{ rows: UserRow[]; count: number }> {
  const dir = q.reverse ? 'asc' : 'desc';
  const order = q.sortBy === 'username' ? (q.reverse ? 'desc' : 'asc') : dir;
  const rows = await adminUserWhere(db, q, now).selectAll().orderBy(q.sortBy, order).orderBy('uid', dir).offset(offset).limit(limit).execute();
  const c = await adminUserWhere(db, q, now).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return { rows, count: Number(c?.n ?? 0) };
}

/** Members by uid order after `after`, for the CSV export (one batch at a time). */
export async function usersAfter(db: Queryable, after: number, limit: number): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().where('deleted', '=', 0).where('uid', '>', after).orderBy('uid').limit(limit).execute();
}
