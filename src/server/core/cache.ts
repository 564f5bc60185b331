import type { ChangeBus } from './changes.js';
import { ALL, type Tag } from './tags.js';

/** What a cache is, for the catalogue (docs/caches.md) and the admin's cache page. */
export interface CacheInfo {
  /** A short name, unique in the forum (`topic-pages`). */
  name: string;
  /** What an entry holds, for a reader of the catalogue. */
  keeps: string;
  /** What drops an entry besides its TTL, in words (the tags it hears). */
  droppedBy: string;
  /** How long an entry is served at most: the bound on staleness when a change message is lost. */
  ttlMs: number;
  /** The most entries kept (the oldest go first). */
  max: number;
  /** The most bytes kept, when the cache measures its entries. */
  maxBytes?: number;
}

/** How a cache keeps its entries. */
export interface CacheOptions<K, V> extends CacheInfo {
  /** The tags an entry was built from: a change of any drops it (core/tags.ts). */
  tags: (key: K, value: V) => readonly Tag[];
  /** An entry's size in bytes, for `maxBytes`. */
  sizeOf?: (value: V) => number;
}

interface Entry<V> {
  value: V;
  at: number;
  tags: readonly Tag[];
  bytes: number;
}

/** A cache's counters, for the admin's cache page. */
export interface CacheStats extends CacheInfo {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  enabled: boolean;
}

/**
 * The one cache primitive. Entries are kept for a TTL, at most `max` of them (and `maxBytes`),
 * the oldest dropped first; each lists the tags it was built from, and a committed change of
 * any of them drops it in every process (the registry hears the change bus). A build under way
 * is shared: readers asking meanwhile wait for it instead of starting their own; a build that a
 * change overtook is served to its askers but not kept, since it may predate the change.
 * Entries are shared objects: callers never change them. `PALAVER_CACHE=off` keeps nothing.
 */
export class Cache<K extends string | number, V> {
  private entries = new Map<K, Entry<V>>();
  private loading = new Map<K, Promise<V>>();
  private byTag = new Map<Tag, Set<K>>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly registry: CacheRegistry,
    readonly options: CacheOptions<K, V>,
  ) {
    registry.add(this);
  }

  /** The key's entry: kept, being built, or built now by `build`. */
  get(key: K, build: () => Promise<V>): Promise<V> {
    const hit = this.peek(key);
    if (hit !== undefined) return Promise.resolve(hit);
    const pending = this.loading.get(key);
    if (pending) return pending;
    const since = this.registry.seq;
    const at = Date.now();
    const loading = build().then((value) => {
      this.keep(key, value, at, since);
      return value;
    });
    if (!this.registry.enabled) return loading;
    this.loading.set(key, loading);
    const done = () => {
      if (this.loading.get(key) === loading) this.loading.delete(key);
    };
    loading.then(done, done);
    return loading;
  }

  /**
   * The entries of these keys, kept, being built, or built now in one batch by `build` (given
   * the keys missing; a key it leaves out has no entry). The map holds the keys that have one.
   */
  async getMany(keys: readonly K[], build: (missing: K[]) => Promise<Map<K, V>>): Promise<Map<K, V>> {
    const out = new Map<K, V>();
    let waits: Promise<void>[] | null = null;
    let missing: K[] | null = null;
    for (const key of keys) {
      const hit = this.peek(key);
      if (hit !== undefined) {
        out.set(key, hit);
        continue;
      }
      const pending = this.loading.get(key);
      if (pending) {
        (waits ??= []).push(
          pending.then((v) => {
            if (v !== undefined) out.set(key, v);
          }),
        );
      } else if (!missing?.includes(key)) {
        (missing ??= []).push(key);
      }
    }
    if (missing) {
      const since = this.registry.seq;
      const at = Date.now();
      const batch = build(missing).then((built) => {
        for (const [key, value] of built) this.keep(key, value, at, since);
        return built;
      });
      if (this.registry.enabled) {
        for (const key of missing) {
          const one = batch.then((built) => built.get(key) as V);
          this.loading.set(key, one);
          const done = () => {
            if (this.loading.get(key) === one) this.loading.delete(key);
          };
          one.then(done, done);
        }
      }
      (waits ??= []).push(
        batch.then((built) => {
          for (const key of missing) {
            const v = built.get(key);
            if (v !== undefined) out.set(key, v);
          }
        }),
      );
    }
    if (waits) await Promise.all(waits);
    return out;
  }

  /** The key's entry if kept and fresh (counted as a hit or a miss). */
  peek(key: K): V | undefined {
    const e = this.entries.get(key);
    if (e && Date.now() - e.at < this.options.ttlMs) {
      this.hits++;
      return e.value;
    }
    if (e) this.remove(key, e);
    this.misses++;
    return undefined;
  }

  /** Keeps a value the caller made (a page it rendered): it carries the tags `tags(key, value)` gives. */
  set(key: K, value: V): void {
    this.keep(key, value, Date.now(), this.registry.seq);
  }

  /** Drops one entry. */
  drop(key: K): void {
    const e = this.entries.get(key);
    if (e) this.remove(key, e);
    this.loading.delete(key);
  }

  /** Drops every entry, and stops builds under way from storing theirs. */
  clear(): void {
    this.entries.clear();
    this.byTag.clear();
    this.loading.clear();
    this.bytes = 0;
  }

  /** Drops the entries built from any of these tags (the registry calls it on every change). */
  dropTags(tags: readonly Tag[]): void {
    if (!this.entries.size && !this.loading.size) return;
    for (const tag of tags) {
      if (tag === ALL || tag === `cache:${this.options.name}`) {
        this.clear();
        return;
      }
      const keys = this.byTag.get(tag);
      if (!keys) continue;
      for (const key of keys) {
        const e = this.entries.get(key);
        if (e) this.remove(key, e);
        this.loading.delete(key);
      }
    }
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }

  /** The cache's counters. */
  stats(): CacheStats {
    const { tags: _tags, sizeOf: _sizeOf, ...info } = this.options;
    return { ...info, entries: this.entries.size, bytes: this.bytes, hits: this.hits, misses: this.misses, enabled: this.registry.enabled };
  }

  private keep(key: K, value: V, at: number, since: number): void {
    if (!this.registry.enabled || value === undefined) return;
    const tags = this.options.tags(key, value);
    if (this.registry.changedSince(tags, since, this.options.name)) return;
    const bytes = this.options.sizeOf ? this.options.sizeOf(value) : 0;
    const { max, maxBytes } = this.options;
    if (maxBytes !== undefined && bytes > maxBytes) return;
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    // Insertion order is age order: the oldest go first.
    while (this.entries.size >= max || (maxBytes !== undefined && this.bytes + bytes > maxBytes)) {
      const first = this.entries.entries().next();
      if (first.done) break;
      this.remove(first.value[0], first.value[1]);
    }
    this.entries.set(key, { value, at, tags, bytes });
    this.bytes += bytes;
    for (const tag of tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
  }

  private remove(key: K, e: Entry<V>): void {
    this.entries.delete(key);
    this.bytes -= e.bytes;
    for (const tag of e.tags) {
      const keys = this.byTag.get(tag);
      if (!keys) continue;
      keys.delete(key);
      if (!keys.size) this.byTag.delete(tag);
    }
  }
}

/** How many recent tag changes the registry remembers to refuse a build they overtook. */
const RECENT_CHANGES = 20_000;

/**
 * Every cache of one forum process: the catalogue (docs/caches.md is generated from it), the
 * admin's cache page, the switch that turns them all off (`PALAVER_CACHE=off`), and the
 * listener of the change bus that drops the entries a change touched.
 */
export class CacheRegistry {
  private caches: Cache<any, any>[] = [];
  /** The sequence of each recent tag's last change (bounded: see changedSince). */
  private recent = new Map<Tag, number>();
  /** Changes before this one were forgotten: a build begun before it is not kept. */
  private floor = 0;
  private ownSeq = 0;

  constructor(
    readonly enabled: boolean,
    private readonly bus?: ChangeBus,
  ) {
    bus?.listen((tags) => this.changed(tags));
  }

  /** The sequence number of the last change heard. */
  get seq(): number {
    return this.bus ? this.bus.seq : this.ownSeq;
  }

  /** Registers a cache (its constructor does). */
  add(cache: Cache<any, any>): void {
    if (this.caches.some((c) => c.options.name === cache.options.name)) throw new Error(`cache ${cache.options.name} registered twice`);
    this.caches.push(cache);
  }

  /** Makes a cache registered here. */
  create<K extends string | number, V>(options: CacheOptions<K, V>): Cache<K, V> {
    return new Cache(this, options);
  }

  /** Every cache's counters. */
  stats(): CacheStats[] {
    return this.caches.map((c) => c.stats());
  }

  /** The caches' descriptions, for the catalogue. */
  catalogue(): CacheInfo[] {
    return this.caches.map((c) => {
      const { name, keeps, droppedBy, ttlMs, max, maxBytes } = c.options;
      return { name, keeps, droppedBy, ttlMs, max, ...(maxBytes !== undefined ? { maxBytes } : {}) };
    });
  }

  /** A cache by name. */
  byName(name: string): Cache<any, any> | undefined {
    return this.caches.find((c) => c.options.name === name);
  }

  /**
   * Drops what these tags touched here (without a bus, e.g. a test's registry, or a change
   * made in this process before the bus is heard). Called by the bus for every change.
   */
  changed(tags: readonly Tag[]): void {
    if (!this.bus) this.ownSeq++;
    const seq = this.seq;
    if (this.recent.size + tags.length > RECENT_CHANGES) {
      this.recent.clear();
      this.floor = seq;
    }
    for (const tag of tags) this.recent.set(tag, seq);
    for (const cache of this.caches) cache.dropTags(tags);
  }

  /** True when a change of one of these tags (or of every cache, or this one by name) came after `since`. */
  changedSince(tags: readonly Tag[], since: number, name: string): boolean {
    if (since < this.floor) return true;
    if ((this.recent.get(ALL) ?? 0) > since || (this.recent.get(`cache:${name}`) ?? 0) > since) return true;
    for (const tag of tags) if ((this.recent.get(tag) ?? 0) > since) return true;
    return false;
  }
}
