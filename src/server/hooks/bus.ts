import type { FastifyBaseLogger } from 'fastify';
import { afterCommit } from '../db/reentrant.js';
import type { FilterHooks, ActionHooks } from './types.js';

type FilterFn<T> = (data: T) => T | Promise<T>;
type ActionFn<T> = (data: T) => void | Promise<void>;

interface Registered<F> {
  plugin: string;
  priority: number;
  fn: F;
  inline?: boolean;
}

/** How an action listener runs: `inline` ones run at commit, before the request answers. */
export interface ActionOptions {
  priority?: number;
  /** Only for immediate, cheap, in-process work (clearing a local cache): it delays the request. */
  inline?: boolean;
}

/**
 * The typed hook bus. Filters run in priority order and may change the data or refuse it
 * by throwing. Actions run after commit and off the request path (queued behind the answer),
 * except listeners registered `inline`; their errors are logged and never break the core.
 */
export class HookBus {
  private filters = new Map<string, Registered<FilterFn<any>>[]>();
  private actions = new Map<string, Registered<ActionFn<any>>[]>();
  private pending = new Set<Promise<unknown>>();

  constructor(private readonly log: Pick<FastifyBaseLogger, 'error'>) {}

  /** Adds a filter; lower priority runs first (default 10). */
  filter<K extends keyof FilterHooks>(name: K, plugin: string, fn: FilterFn<FilterHooks[K]>, priority = 10): void {
    const list = this.filters.get(name) ?? [];
    list.push({ plugin, priority, fn });
    list.sort((a, b) => a.priority - b.priority);
    this.filters.set(name, list);
  }

  /** Adds an action listener (a number as the last argument is its priority, default 10). */
  action<K extends keyof ActionHooks>(name: K, plugin: string, fn: ActionFn<ActionHooks[K]>, opts: number | ActionOptions = {}): void {
    const { priority = 10, inline = false } = typeof opts === 'number' ? { priority: opts } : opts;
    const list = this.actions.get(name) ?? [];
    list.push({ plugin, priority, fn, inline });
    list.sort((a, b) => a.priority - b.priority);
    this.actions.set(name, list);
  }

  /** Removes every hook a plugin registered. */
  unregisterPlugin(plugin: string): void {
    for (const map of [this.filters, this.actions] as Map<string, Registered<unknown>[]>[]) {
      for (const [name, list] of map) map.set(name, list.filter((h) => h.plugin !== plugin));
    }
  }

  /** True when anything listens on the hook. */
  has(name: keyof FilterHooks | keyof ActionHooks): boolean {
    return (this.filters.get(name)?.length ?? 0) + (this.actions.get(name)?.length ?? 0) > 0;
  }

  /** Runs the filters in order; a filter's error (e.g. an AppError refusing the data) propagates. */
  async runFilter<K extends keyof FilterHooks>(name: K, data: FilterHooks[K]): Promise<FilterHooks[K]> {
    let value = data;
    for (const hook of this.filters.get(name) ?? []) value = await hook.fn(value);
    return value;
  }

  /**
   * Fires the actions after commit: inside an open transaction nothing runs until it commits
   * (and nothing at all if it rolls back). Inline listeners then run at once; the others are
   * queued behind the current request. Returns at once; `idle()` waits for the queue.
   */
  fire<K extends keyof ActionHooks>(name: K, data: ActionHooks[K]): Promise<void> {
    if (!afterCommit(() => this.dispatch(name, data))) this.dispatch(name, data);
    return Promise.resolve();
  }

  /**
   * Resolves once every queued listener (and any they fired in turn) has finished, or after
   * `timeoutMs` (shutdown must not hang on a listener that never settles).
   */
  async idle(timeoutMs = Infinity): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.pending.size && Date.now() < deadline) {
      const all = Promise.allSettled([...this.pending]);
      if (timeoutMs === Infinity) await all;
      else await Promise.race([all, new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now())).unref())]);
    }
  }

  /**
   * Runs `work` after the current request like a queued listener: its errors are logged, and
   * `idle()` waits for it (a bare `void promise` would escape both).
   */
  defer(work: () => Promise<void>, what = 'deferred work'): void {
    this.track(
      new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        try {
          await work();
        } catch (err) {
          this.log.error({ err, what }, 'deferred work failed');
        }
      }),
    );
  }

  private dispatch(name: keyof ActionHooks, data: unknown): void {
    const list = this.actions.get(name) ?? [];
    const queued = list.filter((h) => !h.inline);
    for (const hook of list) if (hook.inline) this.track(this.call(name, hook, data));
    if (!queued.length) return;
    this.track(
      new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        for (const hook of queued) await this.call(name, hook, data);
      }),
    );
  }

  private async call(name: string, hook: Registered<ActionFn<any>>, data: unknown): Promise<void> {
    try {
      await hook.fn(data);
    } catch (err) {
      this.log.error({ err, hook: name, plugin: hook.plugin }, 'action hook failed');
    }
  }

  /**
   * Counts work already started behind a request (its errors already handled: a live push,
   * realtime/index.ts `later`) among what `idle()` waits for, like a queued listener.
   */
  track(work: Promise<unknown>): void {
    const tracked = work.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }
}
