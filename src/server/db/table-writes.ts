import type { KyselyPlugin, OperationNode, PluginTransformQueryArgs, PluginTransformResultArgs, QueryId, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterCommit } from './reentrant.js';
import type { Database } from './schema.js';

type TableName = keyof Database & string;

/** The table a node names (`users`, or `users as u`). */
function tableOf(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.kind === 'AliasNode') return tableOf((node as unknown as { node: OperationNode }).node);
  if (node.kind === 'TableNode') return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
  return undefined;
}

/** The table an insert, update or delete writes; undefined for every other statement. */
function writtenTable(node: RootOperationNode): string | undefined {
  switch (node.kind) {
    case 'UpdateQueryNode':
      return tableOf(node.table);
    case 'DeleteQueryNode':
      return tableOf(node.from.froms[0]);
    case 'InsertQueryNode':
      return tableOf(node.into);
    default:
      return undefined;
  }
}

/** A value a statement gives: a parameter (ValueNode) or a raw one in a list of values. */
function valueOf(node: OperationNode | undefined): unknown {
  if (node?.kind === 'ValueNode') return (node as unknown as { value: unknown }).value;
  return undefined;
}

/** The column a node refers to (`uid`, or `r.uid`), or undefined. */
function columnOf(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.kind === 'ReferenceNode') return columnOf((node as unknown as { column: OperationNode }).column);
  if (node.kind === 'ColumnNode') return (node as unknown as { column: { name: string } }).column.name;
  return undefined;
}

/** The values of a list node (`in (…)`, an insert's row), or undefined when it is not a plain list. */
function listValues(node: OperationNode | undefined): unknown[] | undefined {
  if (node?.kind === 'PrimitiveValueListNode') return [...(node as unknown as { values: readonly unknown[] }).values];
  if (node?.kind === 'ValueListNode') return (node as unknown as { values: readonly OperationNode[] }).values.map(valueOf);
  return undefined;
}

/**
 * The values `column` is held to by a filter: `column = v` or `column in (…)`, alone or among
 * conditions joined by `and`; undefined when the filter does not hold it (an `or`, no such
 * condition), so the write may touch any value.
 */
function filteredValues(node: OperationNode | undefined, column: string): unknown[] | undefined {
  if (!node) return undefined;
  switch (node.kind) {
    case 'WhereNode':
      return filteredValues((node as unknown as { where: OperationNode }).where, column);
    case 'ParensNode':
      return filteredValues((node as unknown as { node: OperationNode }).node, column);
    case 'AndNode': {
      const { left, right } = node as unknown as { left: OperationNode; right: OperationNode };
      return filteredValues(left, column) ?? filteredValues(right, column);
    }
    case 'BinaryOperationNode': {
      const b = node as unknown as { leftOperand: OperationNode; operator: { operator: string }; rightOperand: OperationNode };
      if (columnOf(b.leftOperand) !== column) return undefined;
      if (b.operator.operator === '=') return [valueOf(b.rightOperand)];
      if (b.operator.operator === 'in') return listValues(b.rightOperand);
      return undefined;
    }
    default:
      return undefined;
  }
}

/** The values of `column` in an insert's rows, or undefined when they cannot be read (an insert from a select). */
function insertedValues(node: OperationNode & { columns?: readonly OperationNode[]; values?: OperationNode }, column: string): unknown[] | undefined {
  const at = node.columns?.findIndex((c) => columnOf(c) === column) ?? -1;
  if (at < 0 || node.values?.kind !== 'ValuesNode') return undefined;
  const out: unknown[] = [];
  for (const row of (node.values as unknown as { values: readonly OperationNode[] }).values) {
    const values = listValues(row);
    if (!values) return undefined;
    out.push(values[at]);
  }
  return out;
}

/**
 * The keys (values of `column`, numbers) a write touches, or undefined when they cannot be
 * known from the statement: then any key may have changed.
 */
export function writtenKeys(node: RootOperationNode, column: string): number[] | undefined {
  let values: unknown[] | undefined;
  // A plain insert that leaves the column to the database (an autoincremented uid) makes new
  // rows only: no kept entry was built from them, so no key is touched.
  if (node.kind === 'InsertQueryNode' && !node.onConflict && !node.onDuplicateKey && !node.replace && node.values?.kind === 'ValuesNode' && !node.columns?.some((c) => columnOf(c) === column)) return [];
  if (node.kind === 'InsertQueryNode') values = insertedValues(node, column);
  else if (node.kind === 'UpdateQueryNode') values = filteredValues(node.where, column);
  else if (node.kind === 'DeleteQueryNode') values = filteredValues(node.where, column);
  if (!values?.length || !values.every((v) => typeof v === 'number')) return undefined;
  return [...new Set(values as number[])];
}

/**
 * What a write of a keyed listener's table is told: the keys it touched, or undefined for any
 * key (as a shared cache's clear takes them: cache/shared.ts Clearer).
 */
export type KeyedListener = (keys: readonly number[] | undefined) => void;

/**
 * Tells listeners when a statement has written one of their tables, once it is committed:
 * after the transaction it ran in commits (never on a rollback), or as soon as it has run
 * outside one. It sees every insert, update and delete made through Kysely's builders,
 * whichever domain makes it, so a cache of a table's rows cannot miss a write path added
 * later. Statements written as raw `sql` are not seen (none writes a watched table).
 *
 * A keyed listener (onKeyed) is also told which values of one column the write touched (the
 * members whose reads changed), read from the statement itself: an insert's rows, or an update's
 * or delete's `column = v` / `column in (…)` filter. A cache kept per member then drops that
 * member's entries, not every member's. When the statement does not say (an insert from a
 * select, a filter without the column), the listener is told undefined: any key.
 */
export class TableWrites implements KyselyPlugin {
  private listeners = new Map<string, (() => void)[]>();
  private keyed = new Map<string, { column: string; listener: KeyedListener }[]>();
  /** What to tell once each statement that wrote a watched table comes back. */
  private pending = new WeakMap<QueryId, () => void>();

  /** Calls `listener` after each committed write of `table`; returns what stops it. */
  on(table: TableName, listener: () => void): () => void {
    return this.add(this.listeners, table, listener);
  }

  /** Calls `listener` after each committed write of `table` with the values of `column` it touched (see the class). */
  onKeyed(table: TableName, column: string, listener: KeyedListener): () => void {
    return this.add(this.keyed, table, { column, listener });
  }

  private add<L>(map: Map<string, L[]>, table: string, entry: L): () => void {
    const list = map.get(table);
    if (list) list.push(entry);
    else map.set(table, [entry]);
    return () => {
      const now = map.get(table)?.filter((l) => l !== entry) ?? [];
      if (now.length) map.set(table, now);
      else map.delete(table);
    };
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const { node } = args;
    if ((this.listeners.size || this.keyed.size) && node.kind !== 'SelectQueryNode') {
      const table = writtenTable(node);
      const plain = table === undefined ? undefined : this.listeners.get(table);
      const keyed = table === undefined ? undefined : this.keyed.get(table);
      if (plain || keyed) {
        // The keys are read now, from the statement as built; told once it has committed.
        const told = keyed?.map(({ column, listener }) => ({ listener, keys: writtenKeys(node, column) }));
        this.pending.set(args.queryId, () => {
          for (const listener of plain ?? []) listener();
          for (const { listener, keys } of told ?? []) listener(keys);
        });
      }
    }
    return node;
  }

  // Not async: the executor awaits what it is given, and most results pass straight through.
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const fire = this.pending.get(args.queryId);
    if (fire) {
      this.pending.delete(args.queryId);
      if (!afterCommit(fire)) fire();
    }
    return Promise.resolve(args.result);
  }
}
