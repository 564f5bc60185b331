import type { HookBus } from '../hooks/bus.js';
import type { ActionHooks } from '../hooks/types.js';

interface Entry<T> {
  value: T;
  expires: number;
}

// Any of these changes what a guest may see; this process drops its whole cache at once.
const CONTENT_ACTIONS: (keyof ActionHooks)[] = [
  'action:topic.save', 'action:post.save', 'action:post.edit', 'action:post.delete', 'action:post.restore',
  'action:post.purge', 'action:post.vote', 'action:topic.delete', 'action:topic.restore', 'action:topic.purge',
  'action:topic.lock', 'action:topic.pin', 'action:topic.move', 'action:user.update', 'action:user.delete',
  'action:user.banned', 'action:user.unbanned', 'action:category.create', 'action:category.update', 'action:category.delete',
];

/**
 * A micro-cache of what guests are served: every guest sees the same page for a path, so a
 * busy page is built once per interval instead of once per request. A write in this process
 * clears it at once; another process's write shows within the interval (ttlMs), which is the
 * staleness bound for guests when several processes run. Members are never served from it.
 */
export class GuestPageCache<T> {
  private entries = new Map<string, Entry<T>>();

  constructor(
    readonly ttlMs: number,
    private readonly max = 2000,
  ) {}

  /** True when caching is on (ttlMs > 0). */
  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** A fresh entry, or undefined. */
  get(key: string): T | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** Stores an entry; the oldest one goes when full. */
  set(key: string, value: T): void {
    if (!this.enabled) return;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
  }

  /** Clears the cache whenever content changes in this process. */
  watch(hooks: HookBus): void {
    for (const name of CONTENT_ACTIONS) hooks.action(name, 'guest-cache', () => this.clear());
  }
}
