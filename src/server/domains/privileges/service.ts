import type { SharedCaches } from '../../cache/shared.js';
import type { Db, Queryable, Tx } from '../../db/index.js';
import { onCommit, runAction } from '../../hooks/action.js';
import { forbidden, notAuthorised } from '../../http/errors.js';
import { ADMINISTRATORS, GLOBAL_MODS, GUESTS, REGISTERED, type GroupsService } from '../groups/service.js';
import { allGrants, dropCategory, grant, renameSubject, rescind } from './store.js';
import type { ViewerPrivileges } from '../../../shared/types.js';
import type { UserRow } from '../users/store.js';

/** Category privileges, with NodeBB's names. */
export const CATEGORY_PRIVILEGES = [
  'find',
  'read',
  'topics:read',
  'topics:create',
  'topics:reply',
  'topics:tag',
  'posts:edit',
  'posts:history',
  'posts:delete',
  'posts:upvote',
  'posts:downvote',
  'topics:delete',
  'topics:schedule',
  'posts:view_deleted',
  'purge',
  'moderate',
] as const;
export type CategoryPrivilege = (typeof CATEGORY_PRIVILEGES)[number];

/** Global privileges (cid 0). */
export const GLOBAL_PRIVILEGES = [
  'chat',
  'chat:privileged',
  'upload:post:image',
  'upload:post:file',
  'signature',
  'invite',
  'search:content',
  'search:users',
  'search:tags',
  'view:users',
  'view:tags',
  'view:groups',
  'local:login',
  'ban',
  'mute',
  'view:users:info',
  'group:create',
] as const;
export type GlobalPrivilege = (typeof GLOBAL_PRIVILEGES)[number];
export type Privilege = CategoryPrivilege | GlobalPrivilege;

export const MEMBER_DEFAULTS: CategoryPrivilege[] = [
  'find', 'read', 'topics:read', 'topics:create', 'topics:reply', 'topics:tag',
  'posts:edit', 'posts:history', 'posts:delete', 'posts:upvote', 'posts:downvote', 'topics:delete',
];
export const GUEST_DEFAULTS: CategoryPrivilege[] = ['find', 'read', 'topics:read'];
export const GLOBAL_MEMBER_DEFAULTS: GlobalPrivilege[] = [
  'chat', 'upload:post:image', 'signature', 'search:content', 'search:users', 'search:tags',
  'view:users', 'view:tags', 'view:groups', 'local:login',
];
export const GLOBAL_GUEST_DEFAULTS: GlobalPrivilege[] = ['view:users', 'view:tags', 'view:groups', 'search:content', 'search:tags'];

// A safety net: changes clear every process's table through SharedCaches after commit.
const TTL_MS = 5000;

/** The privileges a viewer holds: who they are and what they may do where. */
export interface Viewer {
  uid: number;
  groups: string[];
  isAdmin: boolean;
  isGlobalMod: boolean;
  /** Acting through a master API token (exempt from flood control). */
  master?: boolean;
  /** The member's row as loaded when the request authenticated (saves re-reading it). */
  row?: UserRow;
}

/** 401 for a guest, 403 for anyone but an administrator (as settings' assertAdmin, on this public surface). */
export function assertAdmin(viewer: Viewer): void {
  if (viewer.uid <= 0 && !viewer.isAdmin) throw notAuthorised();
  if (!viewer.isAdmin) throw forbidden();
}

/** Privilege checks, done in the services (never only in the UI). */
export class PrivilegesService {
  private grants: Map<string, Set<string>> | null = null;
  /** Grant-table reads answered from the cache and loads (the admin's cache page). */
  hits = 0;
  misses = 0;
  private loadedAt = 0;
  // Bumped by every clear: a load that began before it must not cache what it read.
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly groups: GroupsService,
    private readonly caches?: SharedCaches,
  ) {
    caches?.register('privileges', () => this.forget());
    // Who a member is changes with their groups (and a ban or deletion): the groups domain and
    // the core clear 'viewers' after such a commit, in every process.
    caches?.register('viewers', () => this.forgetViewers());
  }

  private viewers = new Map<number, { groups: string[]; at: number }>();
  private viewersGeneration = 0;

  /** Drops this process's cache of members' groups. */
  forgetViewers(): void {
    this.viewers.clear();
    this.viewersGeneration += 1;
  }

  /** Grant entries held now (the admin's cache page). */
  grantCount(): number {
    return this.grants?.size ?? 0;
  }

  /** Drops this process's grant table (SharedCaches calls it when any process changes grants). */
  forget(): void {
    this.grants = null;
    this.generation += 1;
  }

  // After commit (never inside the transaction: a concurrent read would cache the
  // pre-commit grants), in every process.
  private changed(): void {
    onCommit(() => (this.caches ? this.caches.clear('privileges') : this.forget()));
  }

  private async table(): Promise<Map<string, Set<string>>> {
    if (this.grants && Date.now() - this.loadedAt < TTL_MS) {
      this.hits++;
      return this.grants;
    }
    this.misses++;
    const generation = this.generation;
    const map = new Map<string, Set<string>>();
    for (const row of await allGrants(this.db)) {
      const key = `${row.cid}:${row.privilege}`;
      let set = map.get(key);
      if (!set) map.set(key, (set = new Set()));
      set.add(row.subject);
    }
    if (generation !== this.generation) return map;
    this.grants = map;
    this.loadedAt = Date.now();
    return map;
  }

  /**
   * Who a uid is (their groups), for each request: kept per process for TTL_MS (the same
   * safety net as the grant table), since a member's groups change rarely and every request
   * of theirs asked.
   */
  async viewer(uid: number): Promise<Viewer> {
    const now = Date.now();
    const hit = this.caches ? this.viewers.get(uid) : undefined;
    let groups: string[];
    if (hit && now - hit.at < TTL_MS) {
      groups = hit.groups;
    } else {
      const generation = this.viewersGeneration;
      groups = await this.groups.groupsOf(uid);
      if (this.caches && generation === this.viewersGeneration) {
        if (this.viewers.size >= 10_000) this.viewers.clear();
        this.viewers.set(uid, { groups, at: now });
      }
    }
    return { uid, groups: [...groups], isAdmin: groups.includes(ADMINISTRATORS), isGlobalMod: groups.includes(GLOBAL_MODS) };
  }

  /** True when the viewer moderates the category (admins and global moderators moderate all). */
  async isModerator(v: Viewer, cid: number): Promise<boolean> {
    // Admins and global moderators need no grant table.
    return v.isAdmin || v.isGlobalMod || isModeratorIn(await this.table(), v, cid);
  }

  /** True when the viewer holds the privilege in the category (cid 0: global). */
  async can(v: Viewer, privilege: Privilege, cid = 0): Promise<boolean> {
    // An admin needs no grant table.
    return v.isAdmin || can(await this.table(), v, privilege, cid);
  }

  /** Throws 403 error:no-privileges unless the viewer holds the privilege. */
  async assert(v: Viewer, privilege: Privilege, cid = 0): Promise<void> {
    if (!(await this.can(v, privilege, cid))) throw forbidden();
  }

  /** The subset of categories in which the viewer holds the privilege. */
  async filterCids(v: Viewer, privilege: Privilege, cids: number[]): Promise<number[]> {
    const table = await this.table();
    return cids.filter((cid) => can(table, v, privilege, cid));
  }

  /**
   * The viewer's privileges in a category, for page data: one look at the grant table for all
   * of them (it was some forty awaits, 4 % of a member's topic page).
   */
  async forCategory(v: Viewer, cid: number): Promise<Readonly<ViewerPrivileges>> {
    const table = await this.table();
    let memo = this.categoryPrivileges.get(table);
    if (!memo) this.categoryPrivileges.set(table, (memo = new Map()));
    // What the answer is made of: the category, member or guest, the groups, and the uid only
    // where the table grants to single members.
    const key = `${cid}|${v.uid > 0 ? (grantsToMembers(table) ? v.uid : 'm') : 'g'}|${v.groups.join(',')}`;
    let privileges = memo.get(key);
    if (!privileges) {
      privileges = Object.freeze(categoryPrivileges(table, v, cid));
      if (memo.size >= 10_000) memo.clear();
      memo.set(key, privileges);
    }
    return privileges;
  }

  /**
   * The answers of forCategory, per grant table (replaced on every change): frozen and shared by
   * every viewer alike, so page data encodes them once and each page read makes none.
   */
  private categoryPrivileges = new WeakMap<GrantTable, Map<string, Readonly<ViewerPrivileges>>>();

  /** Gives a new category the default grants. */
  async grantCategoryDefaults(db: Queryable, cid: number): Promise<void> {
    await grant(db, cid, MEMBER_DEFAULTS, REGISTERED);
    await grant(db, cid, GUEST_DEFAULTS, GUESTS);
    await grant(db, cid, [...CATEGORY_PRIVILEGES], GLOBAL_MODS);
    this.changed();
  }

  /** Gives the forum its default global grants. */
  async grantGlobalDefaults(db: Queryable): Promise<void> {
    await grant(db, 0, GLOBAL_MEMBER_DEFAULTS, REGISTERED);
    await grant(db, 0, GLOBAL_GUEST_DEFAULTS, GUESTS);
    await grant(db, 0, [...GLOBAL_PRIVILEGES], GLOBAL_MODS);
    this.changed();
  }

  /** Grants privileges to a group (or `uid:N`) in a category. */
  async give(cid: number, privileges: Privilege[], subject: string): Promise<void> {
    await this.change(true, cid, privileges, subject);
  }

  /** Takes privileges from a group (or `uid:N`) in a category. */
  async take(cid: number, privileges: Privilege[], subject: string): Promise<void> {
    await this.change(false, cid, privileges, subject);
  }

  /**
   * Grants or rescinds, with the audit row (`audit`, e.g. an events log write) in the same
   * transaction; every process's grant table is cleared after the commit.
   */
  async change(give: boolean, cid: number, privileges: Privilege[], subject: string, audit?: (tx: Tx) => Promise<void>): Promise<void> {
    await runAction(this.db, {
      write: async (tx) => {
        await (give ? grant : rescind)(tx, cid, privileges, subject);
        await audit?.(tx);
      },
      after: () => this.changed(),
    });
  }

  /**
   * Sets exactly these privileges (of `among`) for each subject in each category: anything of
   * `among` not listed is rescinded. One transaction with its audit row; caches clear after commit.
   */
  async replace(cids: number[], among: readonly string[], wanted: Map<string, string[]>, audit?: (tx: Tx) => Promise<void>): Promise<void> {
    await runAction(this.db, {
      write: async (tx) => {
        for (const cid of cids) {
          for (const [subject, privileges] of wanted) {
            await rescind(tx, cid, among.filter((p) => !privileges.includes(p)), subject);
            await grant(tx, cid, privileges, subject);
          }
        }
        await audit?.(tx);
      },
      after: () => this.changed(),
    });
  }

  /** Forgets a deleted category's grants. */
  async dropCategory(db: Queryable, cid: number): Promise<void> {
    await dropCategory(db, cid);
    this.changed();
  }

  /** A renamed group keeps its grants under the new name; a deleted one (`to` null) loses them. */
  async renameSubject(db: Queryable, from: string, to: string | null): Promise<void> {
    await renameSubject(db, from, to);
    this.changed();
  }

  /** Lists grants of a category as privilege → subjects. */
  async list(cid: number): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const [key, subjects] of await this.table()) {
      const [c, ...rest] = key.split(':');
      if (Number(c) === cid) out[rest.join(':')] = [...subjects].sort();
    }
    return out;
  }
}

type GrantTable = Map<string, Set<string>>;

/** True when the grant table gives the viewer (their uid or one of their groups) the privilege there. */

/** A viewer's privileges in a category, from the grant table (see PrivilegesService.forCategory). */
function categoryPrivileges(table: GrantTable, v: Viewer, cid: number): ViewerPrivileges {
  const c = (p: Privilege) => can(table, v, p, cid);
  const isMod = isModeratorIn(table, v, cid);
  return {
    read: c('read'),
    'topics:read': c('topics:read'),
    'topics:create': v.uid > 0 && c('topics:create'),
    'topics:reply': v.uid > 0 && c('topics:reply'),
    'topics:tag': v.uid > 0 && c('topics:tag'),
    'topics:schedule': v.uid > 0 && c('topics:schedule'),
    'posts:edit': v.uid > 0 && c('posts:edit'),
    'posts:history': c('posts:history'),
    'posts:delete': v.uid > 0 && c('posts:delete'),
    'posts:upvote': v.uid > 0 && c('posts:upvote'),
    'posts:downvote': v.uid > 0 && c('posts:downvote'),
    'topics:delete': v.uid > 0 && c('topics:delete'),
    view_deleted: isMod || c('posts:view_deleted'),
    isAdminOrMod: isMod,
    editable: isMod,
    deletable: isMod,
  };
}

/** Whether the table grants anything to a single member (`uid:N`), so answers may differ by uid; kept per table. */
const toMembers = new WeakMap<GrantTable, boolean>();
function grantsToMembers(table: GrantTable): boolean {
  let any = toMembers.get(table);
  if (any === undefined) {
    any = [...table.values()].some((subjects) => [...subjects].some((s) => s.startsWith('uid:')));
    toMembers.set(table, any);
  }
  return any;
}

function holds(table: GrantTable, v: Viewer, cid: number, privilege: string): boolean {
  const subjects = table.get(`${cid}:${privilege}`);
  if (!subjects) return false;
  if (v.uid > 0 && subjects.has(`uid:${v.uid}`)) return true;
  return v.groups.some((g) => subjects.has(g));
}

function isModeratorIn(table: GrantTable, v: Viewer, cid: number): boolean {
  if (v.isAdmin || v.isGlobalMod) return true;
  return v.uid > 0 && holds(table, v, cid, 'moderate');
}

/** `can`, on a grant table in hand (an admin's answer is true without it). */
function can(table: GrantTable, v: Viewer, privilege: Privilege, cid: number): boolean {
  if (v.isAdmin) return true;
  if (cid > 0 && isModeratorIn(table, v, cid) && privilege !== 'purge') return true;
  return holds(table, v, cid, privilege);
}
