import type { FastifyBaseLogger } from 'fastify';
import { afterCommit, inTransaction } from '../db/reentrant.js';
import type { FilterHooks, ActionHooks } from './types.js';

type FilterFn<T> = (data: T) => T | Promise<T>;
/**
 * What a durable listener is told about the run (core/outbox.ts): the outbox row's id and its own
 * id. `key` (`outbox:<row>:<listener>`) is the same on every run of the row, so whatever the
 * listener inserts under it (a unique key) is inserted once however often it runs.
 */
export interface DurableRun {
  id: number;
  listener: string;
  key: string;
}

type ActionFn<T> = (data: T, run?: DurableRun) => void | Promise<void>;

interface Registered<F> {
  plugin: string;
  priority: number;
  fn: F;
  inline?: boolean;
  /** A durable listener's id (unique per hook): the outbox row names what is left to run by it. */
  durable?: string;
}

/** How an action listener runs. */
export interface ActionOptions {
  priority?: number;
  /** Runs at commit, before the request answers: only immediate, cheap, in-process work. */
  inline?: boolean;
  /**
   * Runs from the outbox (core/outbox.ts): the fired hook is a row written in the action's own
   * transaction, so a crash between the commit and the listener loses nothing; a failing
   * listener is retried with back-off. The listener must be safe to run twice. `true` names it
   * by its plugin; a string names it when one plugin has several on a hook.
   */
  durable?: boolean | string;
}

/**
 * Where the fired hooks' durable parts go (core/outbox.ts implements it): a row for the hook
 * and its durable listeners, written with the action's writes.
 */
export interface DurableSink {
  /** Writes the row (inside the open transaction, or alone outside one) and runs it after commit. */
  write(name: string, data: unknown, listeners: string[]): Promise<void>;
}

/**
 * The typed hook bus. Filters run in priority order and may change the data or refuse it by
 * throwing. Actions run after commit: inline listeners at once, durable ones from the outbox,
 * the others queued behind the request; their errors are logged and never break the core.
 */
export class HookBus {
  private filters = new Map<string, Registered<FilterFn<any>>[]>();
  private actions = new Map<string, Registered<ActionFn<any>>[]>();
  private pending = new Set<Promise<unknown>>();
  private sink: DurableSink | null = null;

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
    const { priority = 10, inline = false, durable } = typeof opts === 'number' ? { priority: opts } : opts;
    const list = this.actions.get(name) ?? [];
    const id = durable === true ? plugin : durable || undefined;
    if (id && list.some((h) => h.durable === id)) throw new Error(`durable listener ${id} registered twice on ${name}`);
    list.push({ plugin, priority, fn, inline, durable: id });
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

  /** Sets where durable listeners' rows go (the outbox, once the context is built). */
  useDurableSink(sink: DurableSink): void {
    this.sink = sink;
  }

  /** Runs the filters in order; a filter's error (e.g. an AppError refusing the data) propagates. */
  async runFilter<K extends keyof FilterHooks>(name: K, data: FilterHooks[K]): Promise<FilterHooks[K]> {
    let value = data;
    for (const hook of this.filters.get(name) ?? []) value = await hook.fn(value);
    return value;
  }

  /**
   * Fires an action hook. Inside an open transaction nothing runs until it commits (and nothing
   * at all if it rolls back), and the durable listeners' outbox row is written in it: await the
   * call before the transaction ends. Then inline listeners run at once, durable ones from the
   * outbox, the others behind the current request. `idle()` waits for all of them.
   */
  async fire<K extends keyof ActionHooks>(name: K, data: ActionHooks[K]): Promise<void> {
    const durable = this.durableIds(name);
    if (durable.length && this.sink) {
      // In a transaction the row is one of its writes: a failure fails the action.
      if (inTransaction()) await this.sink.write(name, data, durable);
      else {
        // Outside one (a hook fired by a durable listener, or by a caller that does not wait):
        // `idle()` waits for the row, and a failure is logged like a listener's.
        const writing = this.sink.write(name, data, durable).catch((err: unknown) => this.log.error({ err, hook: name }, 'outbox row not written'));
        this.track(writing);
        await writing;
      }
    }
    if (!afterCommit(() => this.dispatch(name, data))) this.dispatch(name, data);
  }

  /** The ids of a hook's durable listeners. */
  durableIds(name: keyof ActionHooks): string[] {
    const list = this.actions.get(name);
    if (!list) return [];
    let ids: string[] | null = null;
    for (const h of list) if (h.durable) (ids ??= []).push(h.durable);
    return ids ?? [];
  }

  /**
   * Runs these durable listeners of a hook (the outbox does, after commit, for its row `rowId`);
   * returns the ids of those that failed (their errors logged). A listener no longer registered
   * counts as done.
   */
  async runDurable(name: string, data: unknown, ids: readonly string[], rowId = 0): Promise<string[]> {
    const failed: string[] = [];
    for (const hook of this.actions.get(name) ?? []) {
      if (!hook.durable || !ids.includes(hook.durable)) continue;
      try {
        await hook.fn(data, { id: rowId, listener: hook.durable, key: `outbox:${rowId}:${hook.durable}` });
      } catch (err) {
        this.log.error({ err, hook: name, plugin: hook.plugin, listener: hook.durable }, 'durable action hook failed');
        failed.push(hook.durable);
      }
    }
    return failed;
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
    const list = this.actions.get(name);
    if (!list) return;
    let queued: Registered<ActionFn<any>>[] | null = null;
    for (const hook of list) {
      if (hook.durable) continue;
      if (hook.inline) this.track(this.call(name, hook, data));
      else (queued ??= []).push(hook);
    }
    if (!queued) return;
    const run = queued;
    this.track(
      new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        for (const hook of run) await this.call(name, hook, data);
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
   * realtime/index.ts `later`, an outbox run) among what `idle()` waits for, like a queued listener.
   */
  track(work: Promise<unknown>): void {
    const tracked = work.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }
}
