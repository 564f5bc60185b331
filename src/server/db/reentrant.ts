import { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely, type DatabaseConnection, type Dialect, type Driver, type TransactionBuilder, type TransactionSettings } from 'kysely';

interface TxScope {
  conn: DatabaseConnection | null;
  depth: number;
}

const scope = new AsyncLocalStorage<TxScope>();

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
    const execute: TransactionBuilder<DB>['execute'] = (fn) => scope.run(scope.getStore() ?? { conn: null, depth: 0 }, () => builder.execute(fn));
    return new Proxy(builder, {
      get(target, prop) {
        if (prop === 'execute') return execute;
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }
}
