import type { HookBus } from '../hooks/bus.js';
import type { ActionHooks } from '../hooks/types.js';

interface Entry<T> {
  value: T;
  expires: number;
  bytes: number;
}

// Any of these changes what a guest may see; this process drops its whole cache at once.
// (The search domain's result cache drops on the same list.)
export const CONTENT_ACTIONS: (keyof ActionHooks)[] = [
  'action:topic.save', 'action:post.save', 'action:post.edit', 'action:post.delete', 'action:post.restore',
  'action:post.purge', 'action:post.vote', 'action:topic.delete', 'action:topic.restore', 'action:topic.purge',
  'action:topic.lock', 'action:topic.pin', 'action:topic.move', 'action:topic.tags', 'action:topic.thumbs', 'action:topic.tools', 'action:user.update', 'action:user.delete',
  'action:user.banned', 'action:user.unbanned', 'action:category.create', 'action:category.update', 'action:category.delete',
];

/**
 * A micro-cache of what guests are served: every guest sees the same page for a path, so a
 * busy page is built once per interval instead of once per request. A write in this process
 * clears it at once; another process's write shows within the interval (ttlMs), which is the
 * staleness bound for guests when several processes run. Members are never served from it.
 */
export class GuestPageCache<T> {
  // Insertion order is expiry order (one ttl for all), so the oldest entries come first.
  private entries = new Map<string, Entry<T>>();
  private bytes = 0;
  /** Lookups answered and missed (the admin's cache page). */
  hits = 0;
  misses = 0;

  /**
   * @param ttlMs how long an entry is served (0 turns the cache off)
   * @param maxBytes the most the entries may hold together: a crawler walking thousands of
   *   pages within one interval evicts the oldest instead of growing the heap
   */
  constructor(
    readonly ttlMs: number,
    readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  /** True when caching is on (ttlMs > 0). */
  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** Bytes held now (for tests and diagnostics). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** A fresh entry, or undefined. */
  get(key: string): T | undefined {
    const e = this.entries.get(key);
    if (!e) {
      this.misses++;
      return undefined;
    }
    if (e.expires <= Date.now()) {
      this.remove(key, e);
      this.misses++;
      return undefined;
    }
    this.hits++;
    return e.value;
  }

  /** Stores an entry of about `bytes` bytes; expired and then the oldest entries make room. */
  set(key: string, value: T, bytes: number): void {
    if (!this.enabled || bytes > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    const now = Date.now();
    for (const [k, e] of this.entries) {
      if (e.expires > now && this.bytes + bytes <= this.maxBytes) break;
      this.remove(k, e);
    }
    this.entries.set(key, { value, expires: now + this.ttlMs, bytes });
    this.bytes += bytes;
  }

  private remove(key: string, e: Entry<T>): void {
    this.entries.delete(key);
    this.bytes -= e.bytes;
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /**
   * Clears the cache whenever content changes in this process: inline (at commit, before the
   * write's answer), so a guest reading right after a write never gets the old page.
   */
  watch(hooks: HookBus): void {
    for (const name of CONTENT_ACTIONS) hooks.action(name, 'guest-cache', () => this.clear(), { inline: true });
  }
}
