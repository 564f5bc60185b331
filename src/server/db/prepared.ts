import { hash } from 'node:crypto';
import { createQueryId, sql, type Compilable, type CompiledQuery, type SelectQueryBuilder } from 'kysely';
import type { Queryable } from './index.js';
import type { Database } from './schema.js';

/** A value's place in a prepared query: `$(i)` stands for `values[i]` of each run. */
class Slot {
  constructor(readonly index: number) {}
}

/** Stands for the run's `values[i]` where the query is built (typed to fit any value position). */
export type SlotOf = (index: number) => never;
const slot: SlotOf = (index) => new Slot(index) as never;

interface Prepared {
  compiled: CompiledQuery;
  /** Each parameter of the compiled query: the index of the run's value, or a constant of the build. */
  parameters: (number | { constant: unknown })[];
}

/** Shapes kept per database object; past this the map starts again (shapes are few: a query per list length). */
const MAX_SHAPES = 512;
const byDb = new WeakMap<Queryable, Map<string, Prepared>>();

/**
 * Runs a hot read whose SQL depends only on `shape` (a name, and the length of any IN-list),
 * built and compiled by Kysely once per database object and shape, then run with each call's
 * `values`. Building a query with Kysely (parsing the builder calls into nodes, freezing them,
 * compiling them to SQL) costs more than SQLite takes to run a small indexed read; on a
 * member's topic page it was most of what its per-member reads cost. `build` is given `$`:
 * `$(i)` in place of a value is `values[i]` at each run; a value written directly stays a
 * constant of the shape. A transaction (a new object each time) simply builds every time.
 */
export async function runPrepared<R>(db: Queryable, shape: string, build: ($: SlotOf) => Compilable<R>, values: readonly unknown[]): Promise<R[]> {
  let shapes = byDb.get(db);
  if (!shapes) byDb.set(db, (shapes = new Map()));
  let prepared = shapes.get(shape);
  if (!prepared) {
    const compiled = build(slot).compile();
    if (!ALL_COLUMNS.test(compiled.sql)) {
      if (statementNames.size >= MAX_NAMES) statementNames.clear();
      // Named by its text, so a name always means the same text on every connection.
      statementNames.set(compiled.sql, `palaver_${hash('sha1', compiled.sql).slice(0, 16)}`);
    }
    prepared = { compiled, parameters: compiled.parameters.map((p) => (p instanceof Slot ? p.index : { constant: p })) };
    if (shapes.size >= MAX_SHAPES) shapes.clear();
    shapes.set(shape, prepared);
  }
  const parameters = prepared.parameters.map((p) => (typeof p === 'number' ? values[p] : p.constant));
  const result = await db.executeQuery<R>({ ...(prepared.compiled as CompiledQuery<R>), parameters, queryId: createQueryId() });
  return result.rows;
}

/** A row of a part of a batched read (runBatch): a key, a number and a text, either may be null. */
export interface BatchRow {
  id: number;
  num: number | null;
  txt: string | null;
}

/**
 * A store's part of a batched read (runBatch): a select of `id`, `num` and `txt` columns built
 * on `db` with `$` as runPrepared's (`$(0)` is this part's `values[0]`), and what its rows
 * mean. `values: null` when there is nothing to read (a guest, an empty list): `read` is then
 * given no rows and nothing is sent to the database.
 */
export interface BatchPart<T> {
  /** The part's SQL shape (a name, and the length of any IN-list), as runPrepared's. */
  shape: string;
  build: (db: Queryable, $: SlotOf) => SelectQueryBuilder<Database, never, BatchRow>;
  values: readonly unknown[] | null;
  read: (rows: BatchRow[]) => T;
}

/**
 * Runs several stores' small reads as one prepared statement (a union of their rows, each
 * tagged with its part), so that what one page lays over its cached part for a member — a
 * topic's read and follow state, the votes and bookmarks of its posts — costs one round trip,
 * not one per store. Every store still writes its own SQL (its part); this only joins them.
 * `num` comes back as a number (PostgreSQL's bigint would be a string) and `txt` as text.
 */
export async function runBatch<T extends readonly unknown[]>(db: Queryable, parts: { [K in keyof T]: BatchPart<T[K]> }): Promise<T> {
  const all = parts as readonly BatchPart<unknown>[];
  const live = all.filter((p) => p.values !== null);
  const byPart = new Map<BatchPart<unknown>, BatchRow[]>(live.map((p) => [p, []]));
  if (live.length) {
    const rows = await runPrepared<BatchRow & { part: number }>(
      db,
      `batch:${live.map((p) => p.shape).join('+')}`,
      ($) => {
        // Where each part's values start among the batch's (built once per shape).
        const starts = live.map((_, i) => live.slice(0, i).reduce((n, p) => n + p.values!.length, 0));
        return live
          .map((p, i) =>
            db
              .selectFrom(p.build(db, (j) => $(starts[i]! + j)).as(`b${i}`))
              .select([
                sql<number>`${sql.lit(i)}`.as('part'),
                'id',
                sql<number | null>`cast(${sql.ref('num')} as bigint)`.as('num'),
                sql<string | null>`cast(${sql.ref('txt')} as text)`.as('txt'),
              ]),
          )
          .reduce((union, q) => union.unionAll(q));
      },
      live.flatMap((p) => p.values!),
    );
    for (const r of rows) byPart.get(live[r.part]!)!.push({ id: r.id, num: r.num === null ? null : Number(r.num), txt: r.txt });
  }
  return all.map((p) => p.read(byPart.get(p) ?? [])) as unknown as T;
}

/** PostgreSQL statement names of the prepared reads' SQL texts (see nameStatements). */
const statementNames = new Map<string, string>();
const MAX_NAMES = 2048;
/**
 * `select *` or `t.*`: such a statement stays unnamed. PostgreSQL refuses to run a prepared
 * statement whose columns a migration changed ("cached plan must not change result type"),
 * and a process still running while another migrates would keep failing so.
 */
const ALL_COLUMNS = /(?:select|,)\s+(?:"?\w+"?\.)?\*/i;

/** The part of a pg client nameStatements needs. */
interface PgClientLike {
  query(...args: unknown[]): unknown;
}

/**
 * Makes a PostgreSQL client (pg.Pool's 'connect') run the prepared reads' SQL as named
 * statements: each connection parses and plans one once, then only binds and executes it, and
 * the server is sent the values without the text. Any other SQL goes through as it came.
 * PostgreSQL, which shares the machine, then spends less on each (bench, two runs before and
 * one after: member `/api/topic` 1,156–1,323 → 1,492 requests a second, `/api/recent`
 * 1,262–1,354 → 1,493; this process's CPU a request about the same).
 */
export function nameStatements(client: PgClientLike): void {
  const query = client.query.bind(client);
  client.query = (text: unknown, values?: unknown, ...rest: unknown[]) => {
    const name = typeof text === 'string' ? statementNames.get(text) : undefined;
    return name && Array.isArray(values) ? query({ name, text, values }, ...rest) : query(text, values, ...rest);
  };
}

/** `$(from)`, `$(from + 1)`… for an IN-list of `n` values starting at `values[from]`. */
export function slots($: SlotOf, from: number, n: number): never[] {
  return Array.from({ length: n }, (_, i) => $(from + i));
}

/** A batch part's empty `num` and `txt` columns, typed for both databases. */
export const NO_NUM = sql<number | null>`cast(null as bigint)`;
export const NO_TEXT = sql<string | null>`cast(null as text)`;

/** A count as a batch part: `build` selects one row whose `num` is the count. */
export function countPart(shape: string, build: BatchPart<number>['build'], values: readonly unknown[] | null): BatchPart<number> {
  return { shape, build, values, read: (rows) => Number(rows[0]?.num ?? 0) };
}
