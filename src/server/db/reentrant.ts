import { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely, type DatabaseConnection, type Dialect, type Driver, type TransactionBuilder, type TransactionSettings } from 'kysely';

interface TxScope {
  conn: DatabaseConnection | null;
  depth: number;
  /** Work to run once the outermost transaction commits (dropped on rollback). */
  after?: (() => void)[];
  done?: boolean;
}

const scope = new AsyncLocalStorage<TxScope>();
/**
 * Outermost transactions open now. When the last one ends the scope is disabled: on Node 20
 * an enabled AsyncLocalStorage keeps a promise hook running on every promise of the process
 * (3–4% of a member's page read, profiled), while it only has anything to carry inside a
 * transaction. `run` enables it again; outside a transaction `getStore()` is then undefined,
 * which every reader here treats as a finished scope.
 */
let openScopes = 0;

/**
 * Wraps a driver so that a query made on the plain database object from inside a
 * transaction callback runs on the transaction's connection. On SQLite (one connection
 * behind a mutex) such a query would otherwise wait for ever; on PostgreSQL it would take a
 * second pool connection and not see the transaction's writes.
 */
class ReentrantDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const s = scope.getStore();
    if (s?.conn) {
      s.depth += 1;
      return s.conn;
    }
    const conn = await this.inner.acquireConnection();
    if (s) s.conn = conn;
    return conn;
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    const s = scope.getStore();
    if (s?.conn === conn) {
      if (s.depth > 0) {
        s.depth -= 1;
        return;
      }
      s.conn = null;
    }
    await this.inner.releaseConnection(conn);
  }

  beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(conn, settings);
  }

  commitTransaction(conn: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(conn);
  }

  rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(conn);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** A dialect whose driver lets plain queries inside a transaction join it. */
export function reentrantDialect(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new ReentrantDriver(dialect.createDriver()),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}

/** Kysely whose transactions open the scope the reentrant driver looks for. */
export class ScopedKysely<DB> extends Kysely<DB> {
  override transaction(): TransactionBuilder<DB> {
    const builder = super.transaction();
    const execute: TransactionBuilder<DB>['execute'] = async (fn) => {
      const outer = scope.getStore();
      if (outer && !outer.done) return scope.run(outer, () => builder.execute(fn));
      const s: TxScope = { conn: null, depth: 0, after: [] };
      openScopes += 1;
      try {
        const result = await scope.run(s, () => builder.execute(fn));
        s.done = true;
        // Each runs whatever the others do: one that throws must neither skip the rest nor turn
        // a committed write into an error answer.
        for (const work of s.after!) {
          try {
            work();
          } catch (err) {
            afterCommitFailed(err);
          }
        }
        return result;
      } finally {
        s.done = true;
        openScopes -= 1;
        if (openScopes === 0) scope.disable();
      }
    };
    return new Proxy(builder, {
      get(target, prop) {
        if (prop === 'execute') return execute;
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }
}

let afterCommitFailed: (err: unknown) => void = (err) => console.error('after-commit work failed', err);

/** Where an after-commit callback's error is reported (the forum's logger, once it has one). */
export function onAfterCommitError(report: (err: unknown) => void): void {
  afterCommitFailed = report;
}

/**
 * Runs `work` once the open transaction commits (never if it rolls back) and returns true;
 * outside a transaction it returns false and the caller runs the work itself.
 */
export function afterCommit(work: () => void): boolean {
  const s = scope.getStore();
  if (!s || s.done || !s.after) return false;
  s.after.push(work);
  return true;
}

/** True inside an open transaction's callback (plain queries on the database join it). */
export function inTransaction(): boolean {
  const s = scope.getStore();
  return !!s && !s.done;
}
