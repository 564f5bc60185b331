/**
 * Parts of several keys (a member's chat rooms) that every reader shares, kept like
 * SharedPageCache's pages (a TTL, a clear that also stops builds under way from storing what
 * they read) but built in one batch for all the keys a page misses: a member's room list reads
 * its rooms' parts with one statement per kind for those not kept, not one per room. A key
 * being built is shared too: readers asking for it meanwhile wait for that batch.
 * Entries are shared objects: callers never change them.
 */
export class BatchedParts<V> {
  private entries = new Map<number, { value: V; at: number }>();
  private loading = new Map<number, Promise<V | undefined>>();
  /** Bumped by each clear: a part built across a clear is not stored (it may predate the write). */
  private generation = 0;

  constructor(
    readonly ttlMs: number,
    readonly maxEntries: number,
  ) {}

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
      const hit = this.entries.get(key);
      if (hit && now - hit.at < this.ttlMs) {
        out.set(key, hit.value);
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
        if (generation === this.generation) {
          for (const [key, value] of built) {
            this.entries.delete(key);
            // Insertion order is age order: the oldest goes first.
            if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
            this.entries.set(key, { value, at: now });
          }
        }
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

  /** Drops every entry, and stops builds under way from storing theirs (a write happened). */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.loading.clear();
  }

  /** Entries held now (tests, diagnostics). */
  get size(): number {
    return this.entries.size;
  }
}
