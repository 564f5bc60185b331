import { sql, type Selectable } from 'kysely';
import type { Writer } from '../../core/action.js';
import { GROUPS, REWARDS, userTag } from '../../core/tags.js';
import type { Queryable } from '../../db/index.js';
import type { GroupsTable } from '../../db/schema.js';

/** A group as stored. */
export type GroupRow = Selectable<GroupsTable>;

/** Names of the groups a member belongs to. */
export async function groupsOf(db: Queryable, uid: number): Promise<string[]> {
  const rows = await db.selectFrom('group_members').select('group_name').where('uid', '=', uid).execute();
  return rows.map((r) => r.group_name);
}

/** The groups of each of these members, in one query (members in none are left out). */
export async function groupsOfMany(db: Queryable, uids: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  for (let i = 0; i < uids.length; i += 500) {
    const rows = await db.selectFrom('group_members').select(['uid', 'group_name']).where('uid', 'in', uids.slice(i, i + 500)).execute();
    for (const r of rows) {
      let list = out.get(r.uid);
      if (!list) out.set(r.uid, (list = []));
      list.push(r.group_name);
    }
  }
  return out;
}

/** Creates a group if it does not exist. */
export async function ensureGroup(w: Writer, name: string, slug: string, system: boolean, hidden = false): Promise<void> {
  const db = w.tx;
  w.changed(GROUPS);
  await db
    .insertInto('groups')
    .values({ name, slug, description: '', system: system ? 1 : 0, hidden: hidden ? 1 : 0, private: 1, member_count: 0, created: Date.now() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/** Adds a member to a group and keeps member_count; a no-op when already in it. True when added. */
export async function addMember(w: Writer, name: string, uid: number, owner = false): Promise<boolean> {
  const db = w.tx;
  w.changed(GROUPS, userTag(uid));
  const res = await db
    .insertInto('group_members')
    .values({ group_name: name, uid, joined: Date.now(), is_owner: owner ? 1 : 0 })
    .onConflict((oc) => oc.columns(['group_name', 'uid']).doNothing())
    .executeTakeFirst();
  if (Number(res.numInsertedOrUpdatedRows ?? 0) > 0) {
    await db.updateTable('groups').set((eb) => ({ member_count: eb('member_count', '+', 1) })).where('name', '=', name).execute();
    return true;
  }
  return false;
}

/** Removes a member from a group and keeps member_count. True when removed. */
export async function removeMember(w: Writer, name: string, uid: number): Promise<boolean> {
  const db = w.tx;
  w.changed(GROUPS, userTag(uid));
  const res = await db.deleteFrom('group_members').where('group_name', '=', name).where('uid', '=', uid).executeTakeFirst();
  if (Number(res.numDeletedRows) > 0) {
    await db.updateTable('groups').set((eb) => ({ member_count: eb('member_count', '-', 1) })).where('name', '=', name).execute();
    return true;
  }
  return false;
}

/** The members of a group. */
export async function membersOf(db: Queryable, name: string): Promise<number[]> {
  const rows = await db.selectFrom('group_members').select('uid').where('group_name', '=', name).execute();
  return rows.map((r) => r.uid);
}

/** True when a group of that name exists. */
export async function groupExists(db: Queryable, name: string): Promise<boolean> {
  return !!(await db.selectFrom('groups').select('name').where('name', '=', name).executeTakeFirst());
}

/** A group by its slug. */
export async function bySlug(db: Queryable, slug: string): Promise<GroupRow | undefined> {
  return db.selectFrom('groups').selectAll().where('slug', '=', slug).executeTakeFirst();
}

/** A group by its name. */
export async function byName(db: Queryable, name: string): Promise<GroupRow | undefined> {
  return db.selectFrom('groups').selectAll().where('name', '=', name).executeTakeFirst();
}

/** True when another group already has this name or slug (names compare case-insensitively, as slugs do). */
export async function nameTaken(db: Queryable, name: string, slug: string, except = ''): Promise<boolean> {
  const row = await db
    .selectFrom('groups')
    .select('name')
    .where((eb) => eb.or([eb(eb.fn('lower', ['name']), '=', name.toLowerCase()), eb('slug', '=', slug)]))
    .where('name', '!=', except)
    .executeTakeFirst();
  return !!row;
}

export type GroupSort = 'alpha' | 'count' | 'date';

/** One page of the group list: hidden groups only where the member belongs (or for admins: `all`). */
export async function list(
  db: Queryable,
  opts: { sort: GroupSort; query: string; uid: number; all: boolean; offset: number; limit: number; exclude: string[] },
): Promise<{ rows: GroupRow[]; count: number }> {
  let q = db.selectFrom('groups');
  if (opts.exclude.length) q = q.where('name', 'not in', opts.exclude);
  if (opts.query) q = q.where(likeLower('groups.name', `%${escapeLike(opts.query.toLowerCase())}%`));
  if (!opts.all) {
    q = q.where((eb) =>
      eb.or([
        eb('hidden', '=', 0),
        eb.exists(eb.selectFrom('group_members as gm').select('gm.uid').whereRef('gm.group_name', '=', 'groups.name').where('gm.uid', '=', opts.uid)),
      ]),
    );
  }
  const [{ n }] = await q.select((eb) => eb.fn.countAll<number>().as('n')).execute();
  let rowsQ = q.selectAll('groups');
  if (opts.sort === 'count') rowsQ = rowsQ.orderBy('member_count', 'desc').orderBy('name');
  else if (opts.sort === 'date') rowsQ = rowsQ.orderBy('created', 'desc').orderBy('name');
  else rowsQ = rowsQ.orderBy(sql`lower(name)`).orderBy('name');
  const rows = await rowsQ.limit(opts.limit).offset(opts.offset).execute();
  return { rows, count: Number(n) };
}

/** Every group (hidden and system ones too), by lower-case name; `query` filters by name. */
export async function allGroups(db: Queryable, query = ''): Promise<GroupRow[]> {
  let q = db.selectFrom('groups').selectAll();
  if (query) q = q.where(likeLower('groups.name', `%${escapeLike(query.toLowerCase())}%`));
  return q.orderBy(sql`lower(name)`).orderBy('name').execute();
}

/** `%` and `_` typed by a member are literal in a search. */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

// SQLite has no default LIKE escape character (PostgreSQL's is the backslash): name it for both.
const likeLower = (column: string, pattern: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;

/** Inserts a new group. */
export async function insertGroup(w: Writer, row: Partial<GroupRow> & { name: string; slug: string; created: number }): Promise<void> {
  const db = w.tx;
  w.changed(GROUPS);
  await db.insertInto('groups').values(row).execute();
}

/** Changes a group's own fields (not its name: see rename). */
export async function updateGroup(w: Writer, name: string, fields: Partial<Omit<GroupRow, 'name' | 'member_count'>>): Promise<void> {
  const db = w.tx;
  if (!Object.keys(fields).length) return;
  w.changed(GROUPS);
  await db.updateTable('groups').set(fields).where('name', '=', name).execute();
}

/**
 * Renames a group: group_members' key has no ON UPDATE CASCADE (0001), so the new row is
 * written first, the members move to it, then the old row goes (the waiting tables cascade).
 */
export async function rename(w: Writer, from: string, to: string, slug: string): Promise<void> {
  const db = w.tx;
  // Reward rules follow their group (below): the rewards domain's cache drops too.
  w.changed(GROUPS, REWARDS);
  const old = await byName(db, from);
  if (!old) return;
  // Its slug and integer id move aside first (both unique; a rename may keep the slug, and
  // always keeps the id, 0035); '/' is never in a real slug, and ids are positive.
  await db.updateTable('groups').set({ slug: `renaming/${old.slug}`, gid: -old.gid }).where('name', '=', from).execute();
  await db.insertInto('groups').values({ ...old, name: to, slug }).execute();
  await db.updateTable('group_members').set({ group_name: to }).where('group_name', '=', from).execute();
  await db.updateTable('group_pending').set({ group_name: to }).where('group_name', '=', from).execute();
  await db.updateTable('group_invites').set({ group_name: to }).where('group_name', '=', from).execute();
  // Reward rules (0027) follow their group: deleting the old row would cascade them away.
  await db.updateTable('rewards').set({ group_name: to }).where('group_name', '=', from).execute();
  await db.deleteFrom('groups').where('name', '=', from).execute();
}

/** Deletes a group with its memberships, requests and invitations. */
export async function deleteGroup(w: Writer, name: string): Promise<void> {
  const db = w.tx;
  // Its reward rules go with it (the foreign key cascades).
  w.changed(GROUPS, REWARDS);
  await db.deleteFrom('group_members').where('group_name', '=', name).execute();
  await db.deleteFrom('group_pending').where('group_name', '=', name).execute();
  await db.deleteFrom('group_invites').where('group_name', '=', name).execute();
  await db.deleteFrom('groups').where('name', '=', name).execute();
}

/** A member's row in a group, or undefined when not a member. */
export async function membership(db: Queryable, name: string, uid: number): Promise<{ is_owner: number } | undefined> {
  return db.selectFrom('group_members').select('is_owner').where('group_name', '=', name).where('uid', '=', uid).executeTakeFirst();
}

/** The owners of a group. */
export async function ownersOf(db: Queryable, name: string): Promise<number[]> {
  const rows = await db.selectFrom('group_members').select('uid').where('group_name', '=', name).where('is_owner', '=', 1).execute();
  return rows.map((r) => r.uid);
}

/** Makes a member an owner or takes it back. */
export async function setOwner(w: Writer, name: string, uid: number, owner: boolean): Promise<boolean> {
  const db = w.tx;
  w.changed(GROUPS);
  const res = await db.updateTable('group_members').set({ is_owner: owner ? 1 : 0 }).where('group_name', '=', name).where('uid', '=', uid).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * One page of a group's members, owners first then by joining time; with `query`, members
 * whose name starts with it. It joins users (read only) so the search and the order are one
 * indexed query rather than every member's row loaded to filter in memory.
 */
export async function memberPage(db: Queryable, name: string, opts: { query: string; offset: number; limit: number }): Promise<{ rows: { uid: number; is_owner: number }[]; count: number }> {
  let q = db.selectFrom('group_members').innerJoin('users', 'users.uid', 'group_members.uid').where('group_members.group_name', '=', name);
  if (opts.query) q = q.where(likeLower('users.username', `${escapeLike(opts.query.toLowerCase())}%`));
  const [{ n }] = await q.select((eb) => eb.fn.countAll<number>().as('n')).execute();
  const rows = await q
    .select(['group_members.uid', 'group_members.is_owner'])
    .orderBy('group_members.is_owner', 'desc')
    .orderBy('group_members.joined')
    .orderBy('group_members.uid')
    .limit(opts.limit)
    .offset(opts.offset)
    .execute();
  return { rows, count: Number(n) };
}

/** The first `per` members of each group (owners first), in one query. */
export async function previews(db: Queryable, names: string[], per: number): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>(names.map((n) => [n, []]));
  if (!names.length) return out;
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('group_members')
        .select(['group_name', 'uid', sql<number>`row_number() over (partition by group_name order by is_owner desc, joined, uid)`.as('rn')])
        .where('group_name', 'in', names)
        .as('ranked'),
    )
    .select(['group_name', 'uid'])
    .where('rn', '<=', per)
    .orderBy('group_name')
    .orderBy('rn')
    .execute();
  for (const r of rows) out.get(r.group_name)?.push(r.uid);
  return out;
}

type Waiting = 'group_pending' | 'group_invites';

/** Records a request (group_pending) or an invitation (group_invites); true when new. */
export async function addWaiting(w: Writer, table: Waiting, name: string, uid: number, by: number): Promise<boolean> {
  const db = w.tx;
  w.changed(GROUPS);
  const res = await db
    .insertInto(table)
    .values({ group_name: name, uid, by_uid: by, created: Date.now() })
    .onConflict((oc) => oc.columns(['group_name', 'uid']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Drops a request or an invitation; true when there was one. */
export async function removeWaiting(w: Writer, table: Waiting, name: string, uid: number): Promise<boolean> {
  const db = w.tx;
  w.changed(GROUPS);
  const res = await db.deleteFrom(table).where('group_name', '=', name).where('uid', '=', uid).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** The members waiting in a group's requests or invitations, oldest first. */
export async function waiting(db: Queryable, table: Waiting, name: string): Promise<number[]> {
  const rows = await db.selectFrom(table).select('uid').where('group_name', '=', name).orderBy('created').orderBy('uid').execute();
  return rows.map((r) => r.uid);
}

/** Whether a member has a request or an invitation waiting in a group. */
export async function isWaiting(db: Queryable, table: Waiting, name: string, uid: number): Promise<boolean> {
  return !!(await db.selectFrom(table).select('uid').where('group_name', '=', name).where('uid', '=', uid).executeTakeFirst());
}

/** The groups a member was invited to. */
export async function invitesOf(db: Queryable, uid: number): Promise<string[]> {
  const rows = await db.selectFrom('group_invites').select('group_name').where('uid', '=', uid).orderBy('created').execute();
  return rows.map((r) => r.group_name);
}

/** The groups a member belongs to, with the group rows, by name. */
export async function groupRowsOf(db: Queryable, uid: number): Promise<(GroupRow & { badge: number; is_owner: number })[]> {
  return db
    .selectFrom('group_members')
    .innerJoin('groups', 'groups.name', 'group_members.group_name')
    .selectAll('groups')
    .select(['group_members.badge', 'group_members.is_owner'])
    .where('group_members.uid', '=', uid)
    .orderBy(sql`lower(groups.name)`)
    .execute();
}

/** The badges members show, in their order: one query for any number of members (a hidden group's only with `withHidden`). */
export async function badgesOf(db: Queryable, uids: number[], withHidden = false): Promise<Map<number, GroupRow[]>> {
  const out = new Map<number, GroupRow[]>();
  const unique = [...new Set(uids.filter((u) => u > 0))];
  if (!unique.length) return out;
  const rows = await db
    .selectFrom('group_members')
    .innerJoin('groups', 'groups.name', 'group_members.group_name')
    .selectAll('groups')
    .select('group_members.uid as member_uid')
    .where('group_members.uid', 'in', unique)
    .where('group_members.badge', '>', 0)
    .where('groups.user_title_enabled', '=', 1)
    .where('groups.hidden', 'in', withHidden ? [0, 1] : [0])
    .orderBy('group_members.uid')
    .orderBy('group_members.badge')
    .execute();
  for (const { member_uid, ...g } of rows) {
    let list = out.get(member_uid);
    if (!list) out.set(member_uid, (list = []));
    list.push(g);
  }
  return out;
}

/** The member shows the badges of these groups (of theirs), in this order; others are hidden. */
export async function setBadges(w: Writer, uid: number, names: string[]): Promise<void> {
  const db = w.tx;
  w.changed(GROUPS, userTag(uid));
  await db.updateTable('group_members').set({ badge: 0 }).where('uid', '=', uid).execute();
  for (const [i, name] of names.entries()) {
    await db.updateTable('group_members').set({ badge: i + 1 }).where('uid', '=', uid).where('group_name', '=', name).execute();
  }
}

/** True when the member shows any badge. */
export async function showsBadge(db: Queryable, uid: number): Promise<boolean> {
  return !!(await db.selectFrom('group_members').select('uid').where('uid', '=', uid).where('badge', '>', 0).executeTakeFirst());
}
