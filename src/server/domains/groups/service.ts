import type { Db, Queryable } from '../../db/index.js';
import { addMember, ensureGroup, groupExists, groupsOf, membersOf, removeMember } from './store.js';

export const GUESTS = 'guests';
export const REGISTERED = 'registered-users';
export const ADMINISTRATORS = 'administrators';
export const GLOBAL_MODS = 'Global Moderators';

/** Groups and membership. */
export class GroupsService {
  constructor(private readonly db: Db) {}

  /** Creates the system groups when missing. */
  async ensureSystemGroups(db: Queryable = this.db): Promise<void> {
    await ensureGroup(db, GUESTS, 'guests', true, true);
    await ensureGroup(db, REGISTERED, 'registered-users', true, false);
    await ensureGroup(db, ADMINISTRATORS, 'administrators', true, false);
    await ensureGroup(db, GLOBAL_MODS, 'global-moderators', true, false);
  }

  /** The groups a viewer counts as: 'guests' for uid 0. */
  async groupsOf(uid: number, db: Queryable = this.db): Promise<string[]> {
    if (uid <= 0) return [GUESTS];
    return groupsOf(db, uid);
  }

  /** True when the member is in the administrators group. */
  async isAdmin(uid: number, db: Queryable = this.db): Promise<boolean> {
    if (uid <= 0) return false;
    return (await this.groupsOf(uid, db)).includes(ADMINISTRATORS);
  }

  /** Adds a member to a group (inside the caller's transaction when given). */
  async join(name: string, uid: number, db: Queryable = this.db): Promise<void> {
    await addMember(db, name, uid);
  }

  /** Removes a member from a group. */
  async leave(name: string, uid: number, db: Queryable = this.db): Promise<void> {
    await removeMember(db, name, uid);
  }

  /** True when the group exists. */
  async exists(name: string): Promise<boolean> {
    return groupExists(this.db, name);
  }

  /** Members of a group. */
  async members(name: string): Promise<number[]> {
    return membersOf(this.db, name);
  }
}
