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

/**
 * Tells listeners when a statement has written one of their tables, once it is committed:
 * after the transaction it ran in commits (never on a rollback), or as soon as it has run
 * outside one. It sees every insert, update and delete made through Kysely's builders,
 * whichever domain makes it, so a cache of a table's rows cannot miss a write path added
 * later. Statements written as raw `sql` are not seen (none writes a watched table).
 */
export class TableWrites implements KyselyPlugin {
  private listeners = new Map<string, (() => void)[]>();
  /** Statements compiled for a watched table, until their result comes back. */
  private pending = new WeakMap<QueryId, (() => void)[]>();

  /** Calls `listener` after each committed write of `table`; returns what stops it. */
  on(table: TableName, listener: () => void): () => void {
    const list = this.listeners.get(table);
    if (list) list.push(listener);
    else this.listeners.set(table, [listener]);
    return () => {
      const now = this.listeners.get(table)?.filter((l) => l !== listener) ?? [];
      if (now.length) this.listeners.set(table, now);
      else this.listeners.delete(table);
    };
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const { node } = args;
    if (this.listeners.size && node.kind !== 'SelectQueryNode') {
      const table = writtenTable(node);
      const list = table === undefined ? undefined : this.listeners.get(table);
      if (list) this.pending.set(args.queryId, list);
    }
    return node;
  }

  // Not async: the executor awaits what it is given, and most results pass straight through.
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const list = this.pending.get(args.queryId);
    if (list) {
      this.pending.delete(args.queryId);
      const fire = () => {
        for (const listener of list) listener();
      };
      if (!afterCommit(fire)) fire();
    }
    return Promise.resolve(args.result);
  }
}
