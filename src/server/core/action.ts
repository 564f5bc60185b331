import type { FastifyBaseLogger } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Db, Tx } from '../db/index.js';
import { afterCommit, inTransaction } from '../db/reentrant.js';
import type { HookBus } from '../hooks/bus.js';
import type { ActionHooks } from '../hooks/types.js';
import { badRequest } from '../http/errors.js';
import type { ChangeBus } from './changes.js';
import type { Tag } from './tags.js';
import { takenError } from './unique.js';

/**
 * What an action's writes are given: the transaction, and the three things that happen once it
 * commits. Store write functions take it (never a bare database), so a write outside an action
 * does not type-check.
 */
export interface Writer {
  /** The action's transaction: every row of the action is written on it. */
  readonly tx: Tx;
  /** Names what the write changed (core/tags.ts): the caches built from it drop after commit, in every process. */
  changed(...tags: Tag[]): void;
  /**
   * Fires an action hook after commit; its durable listeners' outbox row is written in this
   * transaction (await it). See HookBus.fire.
   */
  fire<K extends keyof ActionHooks>(name: K, data: ActionHooks[K]): Promise<void>;
  /** In-process work once the transaction has committed (never on rollback); its errors are logged. */
  afterCommit(work: () => void): void;
}

class TxWriter implements Writer {
  readonly tags = new Set<Tag>();
  readonly after: (() => void)[] = [];

  constructor(
    readonly tx: Tx,
    private readonly hooks: HookBus,
  ) {}

  changed(...tags: Tag[]): void {
    for (const t of tags) this.tags.add(t);
  }

  fire<K extends keyof ActionHooks>(name: K, data: ActionHooks[K]): Promise<void> {
    return this.hooks.fire(name, data);
  }

  afterCommit(work: () => void): void {
    this.after.push(work);
  }
}

/** What the runner needs. */
export interface ActionRunnerDeps {
  db: Db;
  changes: ChangeBus;
  hooks: HookBus;
  log: Pick<FastifyBaseLogger, 'error'>;
}

/**
 * The one way to write: the only place a transaction is opened (a CI check holds it). Runs a
 * write in one transaction and, once it has committed: publishes its change tags (every
 * process's caches drop what it touched, this one's before the request answers), runs its
 * after-commit work, and dispatches the hooks it fired (durable listeners from the outbox rows
 * written with it). A unique-index violation becomes its "taken" error (core/unique.ts).
 * Called inside another action's transaction, the write joins it and everything after waits
 * for the outer commit.
 */
export class ActionRunner {
  constructor(private readonly deps: ActionRunnerDeps) {}

  /** Runs `write` as the action `name` (for logs) in one transaction; see the class. */
  async run<R>(name: string, write: (w: Writer) => Promise<R>): Promise<R> {
    const { db, hooks } = this.deps;
    if (inTransaction()) {
      // A second BEGIN on the open connection would fail (SQLite) or wait for ever: the
      // database object joins the open transaction instead (db/reentrant.ts).
      const w = new TxWriter(db as unknown as Tx, hooks);
      afterCommit(() => this.committed(name, w));
      return write(w);
    }
    let result!: R;
    try {
      await db.transaction().execute(async (tx) => {
        const w = new TxWriter(tx, hooks);
        // Registered first, so the caches drop before any hook fired inside is dispatched.
        afterCommit(() => this.committed(name, w));
        result = await write(w);
      });
    } catch (err) {
      throw takenError(err) ?? err;
    }
    return result;
  }

  private committed(name: string, w: TxWriter): void {
    if (w.tags.size) this.deps.changes.publish(w.tags);
    for (const work of w.after) {
      try {
        work();
      } catch (err) {
        this.deps.log.error({ err, action: name }, 'after-commit work failed');
      }
    }
  }
}

/** Who runs an action: the member (0 for a guest, or the system) and where from. */
export interface Caller {
  uid: number;
  ip?: string;
}

/**
 * An action as its own specification (Discourse's service objects): the input's schema, what
 * it loads, the policy that decides, what it prepares outside the transaction, the writes in
 * one transaction. After-commit work and durable effects are named inside `write`
 * (w.afterCommit, w.fire).
 */
export interface ActionDef<S extends TSchema, L, R, C extends Caller> {
  /** `domain.verb`, for logs and the catalogue of actions. */
  name: string;
  /** The input's schema: anything else is 400 error:invalid-data before anything is read. */
  input: S;
  /** Reads what the action needs (before the transaction); a missing thing throws its 404. */
  load?: (input: Static<S>, caller: C) => Promise<L>;
  /** Throws the refusal (403/404/400) unless the caller may; the guardian answers. */
  policy?: (loaded: L, caller: C, input: Static<S>) => void | Promise<void>;
  /**
   * Makes what the writes need once the caller may (renders content, runs filter hooks), outside
   * the transaction: on SQLite the transaction holds the one writer, so nothing slow runs in it.
   */
  prepare?: (loaded: L, caller: C, input: Static<S>) => Promise<L>;
  /** The writes, on the writer's transaction. */
  write: (w: Writer, loaded: L, input: Static<S>, caller: C) => Promise<R>;
}

/** A defined action: call it with the caller and its input; `within` runs it on a writer already open. */
export interface Action<S extends TSchema, R, C extends Caller> {
  (caller: C, input: Static<S>): Promise<R>;
  /** Runs load, policy and write inside another action's transaction. */
  within(w: Writer, caller: C, input: Static<S>): Promise<R>;
  /** Runs the checks (input, load, policy, prepare) without writing: what the write would be given. */
  check(caller: C, input: Static<S>): Promise<unknown>;
  readonly def: { name: string; input: S };
}

/** Defines an action run by `runner`: input checked, loaded, decided, written. */
export function defineAction<S extends TSchema, L, R, C extends Caller>(runner: ActionRunner, def: ActionDef<S, L, R, C>): Action<S, R, C> {
  const check = Compile(def.input);
  const prepare = async (caller: C, input: Static<S>): Promise<L> => {
    if (!check.Check(input)) throw badRequest('error:invalid-data');
    const loaded = def.load ? await def.load(input, caller) : (undefined as L);
    if (def.policy) await def.policy(loaded, caller, input);
    return def.prepare ? def.prepare(loaded, caller, input) : loaded;
  };
  const action = (async (caller: C, input: Static<S>) => {
    const loaded = await prepare(caller, input);
    return runner.run(def.name, (w) => def.write(w, loaded, input, caller));
  }) as Action<S, R, C>;
  action.within = async (w, caller, input) => def.write(w, await prepare(caller, input), input, caller);
  action.check = prepare;
  Object.defineProperty(action, 'def', { value: { name: def.name, input: def.input } });
  return action;
}
