import type { FastifyBaseLogger } from 'fastify';
import type { FilterHooks, ActionHooks } from './types.js';

type FilterFn<T> = (data: T) => T | Promise<T>;
type ActionFn<T> = (data: T) => void | Promise<void>;

interface Registered<F> {
  plugin: string;
  priority: number;
  fn: F;
}

/**
 * The typed hook bus. Filters run in priority order and may change the data or refuse it
 * by throwing; actions run after commit and never break the core (errors are logged).
 */
export class HookBus {
  private filters = new Map<string, Registered<FilterFn<any>>[]>();
  private actions = new Map<string, Registered<ActionFn<any>>[]>();

  constructor(private readonly log: Pick<FastifyBaseLogger, 'error'>) {}

  /** Adds a filter; lower priority runs first (default 10). */
  filter<K extends keyof FilterHooks>(name: K, plugin: string, fn: FilterFn<FilterHooks[K]>, priority = 10): void {
    const list = this.filters.get(name) ?? [];
    list.push({ plugin, priority, fn });
    list.sort((a, b) => a.priority - b.priority);
    this.filters.set(name, list);
  }

  /** Adds an action listener. */
  action<K extends keyof ActionHooks>(name: K, plugin: string, fn: ActionFn<ActionHooks[K]>, priority = 10): void {
    const list = this.actions.get(name) ?? [];
    list.push({ plugin, priority, fn });
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

  /** Fires the actions; each error is logged and swallowed so the core carries on. */
  async fire<K extends keyof ActionHooks>(name: K, data: ActionHooks[K]): Promise<void> {
    for (const hook of this.actions.get(name) ?? []) {
      try {
        await hook.fn(data);
      } catch (err) {
        this.log.error({ err, hook: name, plugin: hook.plugin }, 'action hook failed');
      }
    }
  }
}
