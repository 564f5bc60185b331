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
