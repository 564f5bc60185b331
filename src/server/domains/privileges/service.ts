import type { SharedCaches } from '../../cache/shared.js';
import type { Db, Queryable, Tx } from '../../db/index.js';
import { onCommit, runAction } from '../../hooks/action.js';
import { forbidden, notAuthorised } from '../../http/errors.js';
import { ADMINISTRATORS, GLOBAL_MODS, GUESTS, REGISTERED, type GroupsService } from '../groups/service.js';
import { allGrants, dropCategory, grant, renameSubject, rescind } from './store.js';
import type { ViewerPrivileges } from '../../../shared/types.js';
import type { UserRow } from '../users/store.js';
import { Guardian, type GrantTable, type GuardianSettings } from './guardian.js';

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
    private readonly settings?: { get(): Promise<GuardianSettings> },
  ) {
    caches?.register('privileges', () => this.forget());
    // Who a member is changes with their groups (and a ban or deletion): the groups domain and
    // the core clear 'viewers' after such a commit, in every process.
    caches?.register('viewers', () => this.forgetViewers());
  }

  private keptViewers = new Map<number, { groups: string[]; at: number }>();
  private viewersGeneration = 0;

  /** Drops this process's cache of members' groups. */
  forgetViewers(): void {
    this.keptViewers.clear();
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
    const hit = this.caches ? this.keptViewers.get(uid) : undefined;
    let groups: string[];
    if (hit && now - hit.at < TTL_MS) {
      groups = hit.groups;
    } else {
      const generation = this.viewersGeneration;
      groups = await this.groups.groupsOf(uid);
      if (this.caches && generation === this.viewersGeneration) {
        if (this.keptViewers.size >= 10_000) this.keptViewers.clear();
        this.keptViewers.set(uid, { groups, at: now });
      }
    }
    return viewerOf(uid, groups);
  }

  /**
   * The viewer's guardian (guardian.ts): every rule of who may see or do what, answered from the
   * grant table and the settings it holds. Kept per viewer object (one per request) while the
   * grant table and settings it was made from stand.
   */
  async guardian(v: Viewer): Promise<Guardian> {
    const [table, settings] = await Promise.all([this.table(), this.settings ? this.settings.get() : DEFAULT_RULE_SETTINGS]);
    const kept = this.guardians.get(v);
    if (kept && kept.table === table && kept.settings === settings) return kept.guardian;
    let shared = this.sharedPrivileges.get(table);
    if (!shared) this.sharedPrivileges.set(table, (shared = new Map()));
    const guardian = new Guardian(v, table, settings, shared);
    this.guardians.set(v, { table, settings, guardian });
    return guardian;
  }

  private guardians = new WeakMap<Viewer, { table: GrantTable; settings: GuardianSettings; guardian: Guardian }>();
  /** Category privileges per grant table, shared by the guardians of viewers alike (see Guardian.categoryPrivileges). */
  private sharedPrivileges = new WeakMap<GrantTable, Map<string, Readonly<ViewerPrivileges>>>();

  /** The viewers behind these uids: the kept ones, and the others' groups in one query. */
  async viewers(uids: readonly number[]): Promise<Map<number, Viewer>> {
    const now = Date.now();
    const out = new Map<number, Viewer>();
    const missing: number[] = [];
    for (const uid of new Set(uids)) {
      const hit = this.caches ? this.keptViewers.get(uid) : undefined;
      if (hit && now - hit.at < TTL_MS) out.set(uid, viewerOf(uid, hit.groups));
      else missing.push(uid);
    }
    if (missing.length) {
      const generation = this.viewersGeneration;
      const groups = await this.groups.groupsOfMany(missing);
      for (const uid of missing) {
        const list = groups.get(uid) ?? [];
        if (this.caches && generation === this.viewersGeneration && this.keptViewers.size < 10_000) this.keptViewers.set(uid, { groups: list, at: now });
        out.set(uid, viewerOf(uid, list));
      }
    }
    return out;
  }

  /**
   * Of these members, those who may read the category's topics (Guardian.canReadCategory); with
   * cid 0 (not about a category's content: a chat, a follow, a group) all of them. The rules are
   * the guardian's: notification recipients and live audiences ask the same question as pages.
   */
  async readersOf(uids: readonly number[], cid: number): Promise<number[]> {
    if (cid <= 0) return [...uids];
    const viewers = await this.viewers(uids);
    const out: number[] = [];
    for (const uid of uids) {
      const v = viewers.get(uid);
      if (v && (await this.guardian(v)).canReadCategory(cid)) out.push(uid);
    }
    return out;
  }

  /** True when the viewer moderates the category (admins and global moderators moderate all). */
  async isModerator(v: Viewer, cid: number): Promise<boolean> {
    // Admins and global moderators need no grant table.
    return v.isAdmin || v.isGlobalMod || (await this.guardian(v)).isModerator(cid);
  }

  /** True when the viewer holds the privilege in the category (cid 0: global). */
  async can(v: Viewer, privilege: Privilege, cid = 0): Promise<boolean> {
    // An admin needs no grant table.
    return v.isAdmin || (await this.guardian(v)).can(privilege, cid);
  }

  /** Throws 403 error:no-privileges unless the viewer holds the privilege. */
  async assert(v: Viewer, privilege: Privilege, cid = 0): Promise<void> {
    if (!(await this.can(v, privilege, cid))) throw forbidden();
  }

  /** The subset of categories in which the viewer holds the privilege. */
  async filterCids(v: Viewer, privilege: Privilege, cids: number[]): Promise<number[]> {
    return (await this.guardian(v)).filterCids(privilege, cids);
  }

  /** The viewer's privileges in a category, for page data (Guardian.categoryPrivileges). */
  async forCategory(v: Viewer, cid: number): Promise<Readonly<ViewerPrivileges>> {
    return (await this.guardian(v)).categoryPrivileges(cid);
  }

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

/** The viewer of a member with these groups. */
function viewerOf(uid: number, groups: readonly string[]): Viewer {
  return { uid, groups: [...groups], isAdmin: groups.includes(ADMINISTRATORS), isGlobalMod: groups.includes(GLOBAL_MODS) };
}

/** The rules' settings when the service is made without the settings (tests of the grant table alone). */
const DEFAULT_RULE_SETTINGS: GuardianSettings = Object.freeze({ postEditDuration: 0, postDeleteDuration: 0 });
