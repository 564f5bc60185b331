/**
 * Pages (or parts of pages) that every reader with the same key is given: built once, then
 * served from this process's memory for `ttlMs`, which bounds how stale another process's
 * write leaves them. The owner clears it on every write in this process that changes them.
 * A page being built is shared too: readers asking for it meanwhile wait for that build
 * instead of starting their own (50 members opening a page as it expires build it once).
 * Entries are shared objects: callers never change them.
 */
/**
 * What SharedPageCache and BatchedParts share: entries kept for `ttlMs`, at most `maxEntries`
 * (the oldest dropped first), the builds under way, and a clear that stops those builds from
 * storing what they read.
 */
abstract class KeptEntries<K, V, P> {
  protected entries = new Map<K, { value: V; at: number }>();
  protected loading = new Map<K, Promise<P>>();
  /** Bumped by each clear: a value built across a clear is not stored (it may predate the write). */
  protected generation = 0;

  constructor(
    readonly ttlMs: number,
    readonly maxEntries: number,
  ) {}

  /** The key's value if kept and not older than the TTL. */
  protected fresh(key: K, now: number): V | undefined {
    const hit = this.entries.get(key);
    return hit && now - hit.at < this.ttlMs ? hit.value : undefined;
  }

  /** Keeps a value built at `at`, unless a clear came since `generation`. */
  protected keep(key: K, value: V, at: number, generation: number): void {
    if (generation !== this.generation) return;
    this.entries.delete(key);
    // Insertion order is age order: the oldest goes first.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, at });
  }

  /** Drops every entry, and stops builds under way from storing theirs (a write happened). */
  clear(): void {
    this.generation++;
    this.entries.clear();
    // A build begun before the write may miss it: later askers start their own.
    this.loading.clear();
  }

  /** Entries held now (tests, diagnostics). */
  get size(): number {
    return this.entries.size;
  }
}

export class SharedPageCache<T> extends KeptEntries<string, T, T> {
  /** The entry for the key: cached, being built, or built now by `build`. */
  async get(key: string, build: () => Promise<T>): Promise<T> {
    const at = Date.now();
    const hit = this.fresh(key, at);
    if (hit !== undefined) return hit;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const loading = build()
      .then((value) => {
        this.keep(key, value, at, generation);
        return value;
      })
      .finally(() => {
        if (this.loading.get(key) === loading) this.loading.delete(key);
      });
    this.loading.set(key, loading);
    return loading;
  }
}

/**
 * Pages kept per owner (a member: their unread page and count), each owner's like a
 * SharedPageCache's (a TTL, builds under way shared, at most `perOwner` keys), that one owner's
 * writes drop alone (clear with owners: a member's read drops their pages, not every member's)
 * and a write every owner's page depends on drops whole (clear). A build under way when its owner is
 * dropped does not store what it read. At most `maxOwners` owners are kept, the oldest dropped.
 */
export class OwnedPages<T> {
  private owners = new Map<number, SharedPageCache<T>>();

  constructor(
    readonly ttlMs: number,
    readonly maxOwners: number,
    readonly perOwner: number,
  ) {}

  /** The owner's entry for the key: cached, being built, or built now by `build`. */
  get(owner: number, key: string, build: () => Promise<T>): Promise<T> {
    let pages = this.owners.get(owner);
    if (!pages) {
      if (this.owners.size >= this.maxOwners) this.owners.delete(this.owners.keys().next().value!);
      this.owners.set(owner, (pages = new SharedPageCache<T>(this.ttlMs, this.perOwner)));
    }
    return pages.get(key, build);
  }

  /**
   * Drops these owners' entries, or every owner's (no owners given: a shared cache's whole
   * clear), and stops their builds under way from storing theirs.
   */
  clear(owners?: readonly number[]): void {
    for (const owner of owners ?? this.owners.keys()) {
      this.owners.get(owner)?.clear();
      this.owners.delete(owner);
    }
  }

  /** Owners with entries kept now (tests, diagnostics). */
  get size(): number {
    return this.owners.size;
  }
}

/**
 * Parts of several keys (a member's chat rooms, the topics of a member's unread page) that
 * every reader shares, kept like SharedPageCache's pages (a TTL, a clear that also stops
 * builds under way from storing what they read) but built in one batch for all the keys a page
 * misses: a member's room list reads its rooms' parts with one statement per kind for those
 * not kept, not one per room. A key
 * being built is shared too: readers asking for it meanwhile wait for that batch.
 * Entries are shared objects: callers never change them.
 */
export class BatchedParts<V> extends KeptEntries<number, V, V | undefined> {
  /**
   * The parts of these keys, cached, being built, or built now by `build` (given the keys
   * missing; a key it leaves out has no part). The map holds the keys that have one.
   */
  async getMany(keys: readonly number[], build: (keys: number[]) => Promise<Map<number, V>>): Promise<Map<number, V>> {
    const out = new Map<number, V>();
    const now = Date.now();
    let waits: Promise<void>[] | null = null;
    let missing: number[] | null = null;
    for (const key of keys) {
      const hit = this.fresh(key, now);
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
      const generation = this.generation;
      const batch = build(missing).then((built) => {
        for (const [key, value] of built) this.keep(key, value, now, generation);
        return built;
      });
      for (const key of missing) {
        const one = batch.then((built) => built.get(key));
        this.loading.set(key, one);
        void one
          .finally(() => {
            if (this.loading.get(key) === one) this.loading.delete(key);
          })
          .catch(() => undefined);
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
}

/**
 * Readers' versions of shared objects (the cached parts' post views and topic summaries): a
 * reader's version of one depends only on the shared object and a few flags of their own
 * (voted, bookmarked, unread…), so readers alike are given the same frozen object, made once
 * per variant. The server render then keys its cached fragments by the object, and the page's
 * JSON encodes it once (http/page-json.ts), instead of once per reader. Collected with the
 * shared object when its cache drops it.
 */
export class Variants<T extends object> {
  private byShared = new WeakMap<T, Map<number, T>>();

  /** The frozen version of `shared` for these flags, made by `make` the first time. */
  of(shared: T, flags: readonly boolean[], make: () => T): T {
    const variant = flags.reduce((bits, on, bit) => (on ? bits | (1 << bit) : bits), 0);
    let byVariant = this.byShared.get(shared);
    if (!byVariant) this.byShared.set(shared, (byVariant = new Map()));
    let view = byVariant.get(variant);
    if (!view) byVariant.set(variant, (view = Object.freeze(make())));
    return view;
  }
}

/** Freezes a value and every object and array inside it (a value made to be shared, see SharedValues). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Values kept per owner: past this many keys an owner's are made again from the first. */
const MAX_VALUES_PER_OWNER = 500;

/**
 * Values a page gives every reader alike, made from shared objects (a topic page's head tags,
 * breadcrumbs and structured data, from its cached topic row and part; the head of any page,
 * from the forum's settings): made once per owners and key, deeply frozen, and then the same
 * object for every reader. A page's JSON then encodes each once (http/page-json.ts) and the
 * server render's frame key holds it by identity, where it was made, turned into JSON and
 * keyed anew for each member's request (a fifth of a member's topic read in the profile).
 * Kept in WeakMaps by the owners, in the order given: dropped with any of them.
 */
export class SharedValues<T> {
  private readonly root = new WeakMap<object, unknown>();

  constructor(private readonly owners: number) {}

  /** The value for these owners (as many as the constructor said, shared objects) and key, made by `make` the first time. */
  of(owners: readonly object[], key: string, make: () => T): T {
    if (owners.length !== this.owners) throw new Error(`SharedValues: ${this.owners} owners expected`);
    let level = this.root;
    for (let i = 0; i < owners.length - 1; i++) {
      let next = level.get(owners[i]!) as WeakMap<object, unknown> | undefined;
      if (!next) level.set(owners[i]!, (next = new WeakMap()));
      level = next;
    }
    const last = owners[owners.length - 1]!;
    let values = level.get(last) as Map<string, T> | undefined;
    if (!values) level.set(last, (values = new Map()));
    let value = values.get(key);
    if (value === undefined) {
      if (values.size >= MAX_VALUES_PER_OWNER) values.clear();
      values.set(key, (value = deepFreeze(make())));
    }
    return value;
  }
}
