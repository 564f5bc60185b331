import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';

/** What the driver needs of a database file: prepared statements (cached by the caller) and close. */
export interface StatementSource {
  prepare(sql: string): SQLite.Statement;
  close(): void;
}

/** A first-come, first-served lock: each release hands the writer to exactly one waiter. */
class FifoLock {
  private held = false;
  private readonly waiters: (() => void)[] = [];

  acquire(): Promise<void> | void {
    if (!this.held) {
      this.held = true;
      return;
    }
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.held = false;
  }
}

type RowBuilder = (values: unknown[]) => Record<string, unknown>;

/** Row builders by column list (the same `select *` has many SQL texts: IN-lists of every length). */
const builders = new Map<string, RowBuilder>();
const MAX_BUILDERS = 2000;
/** Each statement's builder, null when its rows come as objects from better-sqlite3. */
const statementBuilders = new WeakMap<SQLite.Statement, RowBuilder | null>();

/**
 * A function that turns one row's values into the object better-sqlite3 would have built.
 * better-sqlite3 sets each property of each row in native code, a quarter of a microsecond
 * per value: 37 member rows of 31 columns took 250 µs. Reading the values as an array and
 * making the object with a literal of fixed keys takes under half of that (measured on the
 * bench seed: 37 users 253 → 112 µs, 20 topics 77 → 41 µs, one user 9.6 → 5.9 µs), and
 * every row of a statement then shares one object shape. The keys are the statement's
 * column names, quoted with JSON.stringify; later duplicates win, as in better-sqlite3.
 */
function rowBuilder(stmt: SQLite.Statement): RowBuilder | null {
  const names = stmt.columns().map((c) => c.name);
  // "__proto__" in an object literal sets the prototype instead of a property.
  if (names.includes('__proto__')) return null;
  const key = names.join('\u0000');
  let build = builders.get(key);
  if (!build) {
    build = new Function('r', `return {${names.map((n, i) => `${JSON.stringify(n)}: r[${i}]`).join(', ')}};`) as RowBuilder;
    if (builders.size >= MAX_BUILDERS) builders.clear();
    builders.set(key, build);
  }
  return build;
}

/** The rows of a statement that returns data, as objects keyed by column name. */
function readRows(stmt: SQLite.Statement, params: unknown[]): unknown[] {
  let build = statementBuilders.get(stmt);
  if (build === undefined) {
    build = rowBuilder(stmt);
    statementBuilders.set(stmt, build);
    if (build) stmt.raw(true);
  }
  if (!build) return stmt.all(params);
  const rows = stmt.all(params) as unknown[][];
  const out = new Array<unknown>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = build(rows[i]!);
  return out;
}

function run(db: StatementSource, query: CompiledQuery): QueryResult<unknown> {
  const stmt = db.prepare(query.sql);
  const params = query.parameters as unknown[];
  if (stmt.reader) return { rows: readRows(stmt, params) };
  const { changes, lastInsertRowid } = stmt.run(params);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/**
 * One checkout of the database. Outside a transaction a SELECT runs on the read connection
 * at once (WAL gives it the last committed state, whatever transaction is open on the
 * writer), and any other statement takes the writer's lock for its own duration. Inside a
 * transaction every statement runs on the writer, which the transaction holds.
 */
class SqliteCheckout implements DatabaseConnection {
  inTransaction = false;

  constructor(private readonly driver: TwoConnectionSqliteDriver) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { writer, reader, lock } = this.driver;
    if (this.inTransaction) return run(writer, query) as QueryResult<R>;
    if (SelectQueryNode.is(query.query)) return run(reader, query) as QueryResult<R>;
    await lock.acquire();
    try {
      return run(writer, query) as QueryResult<R>;
    } finally {
      lock.release();
    }
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not used with SQLite');
  }
}

/**
 * Kysely's SQLite driver keeps one connection behind a mutex that wakes every waiter on
 * each release (with 50 requests in flight, each of a page's ~15 queries woke the other 49,
 * and whichever resumed first took it), and a read waited for any open write transaction.
 * This driver has a writer (transactions and writes, handed on first come, first served)
 * and a reader for plain SELECTs, which never wait.
 */
export class TwoConnectionSqliteDriver implements Driver {
  readonly lock: FifoLock;

  constructor(
    readonly writer: StatementSource,
    readonly reader: StatementSource,
    file?: string,
  ) {
    this.lock = file ? writerLockOf(file) : new FifoLock();
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new SqliteCheckout(this);
  }

  async beginTransaction(conn: DatabaseConnection): Promise<void> {
    await this.lock.acquire();
    try {
      run(this.writer, CompiledQuery.raw('begin'));
    } catch (err) {
      this.lock.release();
      throw err;
    }
    (conn as SqliteCheckout).inTransaction = true;
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await this.end(conn, 'commit');
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await this.end(conn, 'rollback');
  }

  private async end(conn: DatabaseConnection, how: 'commit' | 'rollback'): Promise<void> {
    const checkout = conn as SqliteCheckout;
    // Kysely rolls back after a failed COMMIT, which end() has already done.
    if (!checkout.inTransaction) return;
    try {
      run(this.writer, CompiledQuery.raw(how));
    } catch (err) {
      // A failed COMMIT leaves the transaction open: roll it back before handing the writer on.
      if (how === 'commit') {
        try {
          run(this.writer, CompiledQuery.raw('rollback'));
        } catch {
          /* already closed */
        }
      }
      throw err;
    } finally {
      checkout.inTransaction = false;
      this.lock.release();
    }
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    this.reader.close();
    this.writer.close();
  }
}

/**
 * One writer lock per database file in a process: two forums opened on one file in one
 * process (tests of several processes, the CLI beside a server in a test) wait for each
 * other's transactions here, asynchronously, instead of in SQLite's busy handler, which
 * blocks the event loop the other needs to commit ("database is locked"). Separate
 * processes still meet in SQLite's own lock.
 */
const writerLocks = new Map<string, FifoLock>();
function writerLockOf(file: string): FifoLock {
  let lock = writerLocks.get(file);
  if (!lock) writerLocks.set(file, (lock = new FifoLock()));
  return lock;
}

/** Kysely's SQLite dialect with the two-connection driver; `file` (its absolute path) shares the writer lock of other openings of the file in this process. */
export function twoConnectionSqliteDialect(writer: StatementSource, reader: StatementSource, file?: string): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new TwoConnectionSqliteDriver(writer, reader, file),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}
