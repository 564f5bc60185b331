import type { ChangeBus } from '../core/changes.js';
import { ALL, CONTENT, GROUPS, PRIVILEGES, SETTINGS, WIDGETS, type Tag } from '../core/tags.js';

/** The caches every process keeps and every process must drop when the data changes. */
/** Every shared cache, for a change that touches them all (a restore replaces the whole database). */
export const SHARED_CACHE_NAMES = ['settings', 'privileges', 'viewers', 'ipBlacklist', 'widgets', 'guestPages', 'rewards', 'topics', 'blocks', 'watches', 'sessions', 'notifications', 'memberReads', 'tags'] as const;
export type SharedCacheName = (typeof SHARED_CACHE_NAMES)[number];

/** Drops a cache, or only its entries of these keys (a cache kept per member: their uids). */
export type Clearer = (keys?: readonly number[]) => void;

const PREFIX = 'shared:';
/** The change tag each legacy clear also publishes (see clear). */
const LEGACY_TAGS: Partial<Record<SharedCacheName, Tag>> = { topics: GROUPS, viewers: GROUPS, privileges: PRIVILEGES, settings: SETTINGS, widgets: WIDGETS };

/**
 * Named clears of in-process caches, carried by the change bus (core/changes.ts) to every
 * process: `clear('privileges')` publishes the tag `shared:privileges` (with keys,
 * `shared:memberReads:7`), and each process's clearers of that name run. Caches built on
 * core/cache.ts hear change tags directly; this is the older, coarser way still used by the
 * caches not moved yet.
 */
export class SharedCaches {
  private clearers = new Map<SharedCacheName, Set<Clearer>>();

  constructor(private readonly bus: ChangeBus) {
    bus.listen((tags) => this.heard(tags));
  }

  /**
   * Registers how this process drops one of its caches. A cache kept per key is given the keys
   * of a keyed clear; one that ignores them is dropped whole, which is never wrong.
   */
  register(name: SharedCacheName, clear: Clearer): void {
    let set = this.clearers.get(name);
    if (!set) this.clearers.set(name, (set = new Set()));
    set.add(clear);
  }

  /** Drops the cache here at once and tells the other processes (call after commit); given keys, only their entries. */
  clear(name: SharedCacheName, keys?: readonly number[]): void {
    const tags = keys ? keys.map((k) => `${PREFIX}${name}:${k}`) : [`${PREFIX}${name}`];
    // A legacy clear stands for a change the caches on core/cache.ts hear by tag: of the topic
    // caches, of what topic pages show of their authors (a badge chosen: GROUPS); of the grants,
    // settings or widgets, of what every guest page was built from (http/pages.ts), which must
    // not be served to guests once a category is made private; of who a member is (a ban, a
    // deletion: GROUPS).
    const tag = LEGACY_TAGS[name];
    if (tag) tags.push(tag);
    this.bus.publish(tags);
  }

  /** Resolves once the change bus listens (tests; a server starts listening long after). */
  listening(): Promise<void> {
    return this.bus.listening();
  }

  private heard(tags: readonly string[]): void {
    let byName: Map<SharedCacheName, number[] | undefined> | null = null;
    for (const tag of tags) {
      // Content changed (core/tags.ts): the legacy caches kept with the topic lists drop; every
      // cache (a restore): all of them.
      if (tag === CONTENT) (byName ??= new Map()).set('topics', undefined);
      // Groups, membership or grants changed (their stores name GROUPS and PRIVILEGES): the
      // legacy caches built from who members are and what they may do drop.
      if (tag === GROUPS) (byName ??= new Map()).set('viewers', undefined);
      if (tag === PRIVILEGES) (byName ??= new Map()).set('privileges', undefined);
      if (tag === ALL) for (const name of SHARED_CACHE_NAMES) (byName ??= new Map()).set(name, undefined);
      if (!tag.startsWith(PREFIX)) continue;
      const rest = tag.slice(PREFIX.length);
      const at = rest.indexOf(':');
      const name = (at < 0 ? rest : rest.slice(0, at)) as SharedCacheName;
      byName ??= new Map();
      if (at < 0) {
        byName.set(name, undefined);
        continue;
      }
      const key = Number(rest.slice(at + 1));
      const keys = byName.has(name) ? byName.get(name) : [];
      if (keys && Number.isFinite(key)) keys.push(key);
      byName.set(name, keys);
    }
    if (!byName) return;
    for (const [name, keys] of byName) for (const clear of this.clearers.get(name) ?? []) clear(keys);
  }
}
