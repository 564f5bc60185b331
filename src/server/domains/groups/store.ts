import type { Queryable } from '../../db/index.js';

/** Names of the groups a member belongs to. */
export async function groupsOf(db: Queryable, uid: number): Promise<string[]> {
  const rows = await db.selectFrom('group_members').select('group_name').where('uid', '=', uid).execute();
  return rows.map((r) => r.group_name);
}

/** Creates a group if it does not exist. */
export async function ensureGroup(db: Queryable, name: string, slug: string, system: boolean, hidden = false): Promise<void> {
  await db
    .insertInto('groups')
    .values({ name, slug, description: '', system: system ? 1 : 0, hidden: hidden ? 1 : 0, private: 1, member_count: 0, created: Date.now() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/** Adds a member to a group and keeps member_count; a no-op when already in it. */
export async function addMember(db: Queryable, name: string, uid: number): Promise<void> {
  const res = await db
    .insertInto('group_members')
    .values({ group_name: name, uid, joined: Date.now() })
    .onConflict((oc) => oc.columns(['group_name', 'uid']).doNothing())
    .executeTakeFirst();
  if (Number(res.numInsertedOrUpdatedRows ?? 0) > 0) {
    await db.updateTable('groups').set((eb) => ({ member_count: eb('member_count', '+', 1) })).where('name', '=', name).execute();
  }
}

/** Removes a member from a group and keeps member_count. */
export async function removeMember(db: Queryable, name: string, uid: number): Promise<void> {
  const res = await db.deleteFrom('group_members').where('group_name', '=', name).where('uid', '=', uid).executeTakeFirst();
  if (Number(res.numDeletedRows) > 0) {
    await db.updateTable('groups').set((eb) => ({ member_count: eb('member_count', '-', 1) })).where('name', '=', name).execute();
  }
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
