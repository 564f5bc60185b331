import type { ActionRunner, Writer } from '../../core/action.js';
import type { Cache, CacheRegistry } from '../../core/cache.js';
import { GROUPS, PRIVILEGES, userTag } from '../../core/tags.js';
import type { Db } from '../../db/index.js';
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

// A safety net: a committed change drops the cached grants and viewers in every process (tags).
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

/** What the privileges service is made with. */
export interface PrivilegesServiceDeps {
  db: Db;
  groups: GroupsService;
  actions: ActionRunner;
  cacheRegistry: CacheRegistry;
  settings?: { get(): Promise<GuardianSettings> };
}

/** Privilege checks, done in the services (never only in the UI). */
export class PrivilegesService {
  private readonly db: Db;
  private readonly groups: GroupsService;
  private readonly actions: ActionRunner;
  private readonly settings?: { get(): Promise<GuardianSettings> };
  /** The grant table, one entry (dropped by any grant change: PRIVILEGES). */
  private readonly grants: Cache<0, GrantTable>;
  /** Who each member is (their groups), dropped by a change of groups or membership (GROUPS) or of the member. */
  private readonly keptViewers: Cache<number, readonly string[]>;

  constructor(deps: PrivilegesServiceDeps) {
    this.db = deps.db;
    this.groups = deps.groups;
    this.actions = deps.actions;
    this.settings = deps.settings;
    this.grants = deps.cacheRegistry.create({
      name: 'privileges',
      keeps: 'the grant table: who holds which privilege where',
      droppedBy: 'any grant given or taken, a category deleted, a group renamed or deleted',
      ttlMs: TTL_MS,
      max: 1,
      tags: () => [PRIVILEGES],
    });
    this.keptViewers = deps.cacheRegistry.create({
      name: 'viewers',
      keeps: "each member's groups: who a member is to the guardian",
      droppedBy: 'a change of groups or membership, or of the member (a ban, a deletion)',
      ttlMs: TTL_MS,
      max: 10_000,
      tags: (uid) => [GROUPS, userTag(uid)],
    });
  }

  private table(): Promise<GrantTable> {
    return this.grants.get(0, async () => {
      const map = new Map<string, Set<string>>();
      for (const row of await allGrants(this.db)) {
        const key = `${row.cid}:${row.privilege}`;
        let set = map.get(key);
        if (!set) map.set(key, (set = new Set()));
        set.add(row.subject);
      }
      return map;
    });
  }

  /**
   * Who a uid is (their groups), for each request: kept per process (see keptViewers), since a
   * member's groups change rarely and every request of theirs asked.
   */
  async viewer(uid: number): Promise<Viewer> {
    const groups = await this.keptViewers.get(uid, () => this.groups.groupsOf(uid));
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
    const groups = await this.keptViewers.getMany([...new Set(uids)], async (missing) => this.groups.groupsOfMany(missing));
    const out = new Map<number, Viewer>();
    for (const uid of new Set(uids)) out.set(uid, viewerOf(uid, groups.get(uid) ?? []));
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

  /** Gives a new category the default grants (in the caller's action when given its writer). */
  async grantCategoryDefaults(w: Writer | undefined, cid: number): Promise<void> {
    await this.writing('privileges.category-defaults', w, async (w) => {
      await grant(w, cid, MEMBER_DEFAULTS, REGISTERED);
      await grant(w, cid, GUEST_DEFAULTS, GUESTS);
      await grant(w, cid, [...CATEGORY_PRIVILEGES], GLOBAL_MODS);
    });
  }

  /** Gives the forum its default global grants (in the caller's action when given its writer). */
  async grantGlobalDefaults(w?: Writer): Promise<void> {
    await this.writing('privileges.global-defaults', w, async (w) => {
      await grant(w, 0, GLOBAL_MEMBER_DEFAULTS, REGISTERED);
      await grant(w, 0, GLOBAL_GUEST_DEFAULTS, GUESTS);
      await grant(w, 0, [...GLOBAL_PRIVILEGES], GLOBAL_MODS);
    });
  }

  /** Grants privileges to a group (or `uid:N`) in a category. */
  async give(cid: number, privileges: Privilege[], subject: string, w?: Writer): Promise<void> {
    await this.change(true, cid, privileges, subject, undefined, w);
  }

  /** Takes privileges from a group (or `uid:N`) in a category. */
  async take(cid: number, privileges: Privilege[], subject: string, w?: Writer): Promise<void> {
    await this.change(false, cid, privileges, subject, undefined, w);
  }

  /**
   * Grants or rescinds, with the audit row (`audit`, e.g. an events log write) in the same
   * action; every process's grant table drops once it commits.
   */
  async change(give: boolean, cid: number, privileges: Privilege[], subject: string, audit?: (w: Writer) => Promise<void>, w?: Writer): Promise<void> {
    await this.writing(give ? 'privileges.give' : 'privileges.take', w, async (w) => {
      await (give ? grant : rescind)(w, cid, privileges, subject);
      await audit?.(w);
    });
  }

  /**
   * Sets exactly these privileges (of `among`) for each subject in each category: anything of
   * `among` not listed is rescinded. One action with its audit row (the caller's, given its writer).
   */
  async replace(cids: number[], among: readonly string[], wanted: Map<string, string[]>, audit?: (w: Writer) => Promise<void>, w?: Writer): Promise<void> {
    await this.writing('privileges.replace', w, async (w) => {
      for (const cid of cids) {
        for (const [subject, privileges] of wanted) {
          await rescind(w, cid, among.filter((p) => !privileges.includes(p)), subject);
          await grant(w, cid, privileges, subject);
        }
      }
      await audit?.(w);
    });
  }

  /** Forgets a deleted category's grants, in the caller's action. */
  async dropCategory(w: Writer, cid: number): Promise<void> {
    await dropCategory(w, cid);
  }

  /** A renamed group keeps its grants under the new name; a deleted one (`to` null) loses them. In the caller's action. */
  async renameSubject(w: Writer, from: string, to: string | null): Promise<void> {
    await renameSubject(w, from, to);
  }

  // A write in the caller's action when given its writer, else in one of its own.
  private writing<R>(name: string, w: Writer | undefined, write: (w: Writer) => Promise<R>): Promise<R> {
    return w ? write(w) : this.actions.run(name, write);
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
