import type { Db } from '../db/index.js';
import * as store from './outbox-store.js';

/** A command line's answer: the text to print and the exit code. */
export interface OutboxCliResult {
  out: string;
  code: number;
}

const USAGE = 'Usage: palaver outbox [list] | retry [ID]';

/**
 * `palaver outbox`: where an admin sees the durable side effects that failed for good (each
 * row's hook, the listeners still pending, its tries and last error) and how many wait;
 * `palaver outbox retry [ID]` puts failed rows (all, or one) back in the queue, run by a
 * serving process within a second. Never throws for bad input: a message and a code come back.
 */
export async function outboxCommand(db: Db, args: string[], now = Date.now()): Promise<OutboxCliResult> {
  const [sub = 'list', id, ...rest] = args;
  if (rest.length) return { out: USAGE, code: 1 };
  if (sub === 'list' && id === undefined) {
    const { queued, failed } = await store.counts(db);
    const lines = [`${queued} waiting, ${failed} failed.`];
    for (const row of await store.list(db, 'failed', 100)) {
      lines.push(`#${row.id} ${row.hook} pending ${(JSON.parse(row.pending) as string[]).join(', ')}; ${row.attempts} tries; ${row.last_error} (${new Date(Number(row.created)).toISOString()})`);
    }
    if (failed > 100) lines.push(`… and ${failed - 100} more.`);
    return { out: lines.join('\n'), code: 0 };
  }
  if (sub === 'retry') {
    if (id !== undefined && !/^\d{1,15}$/.test(id)) return { out: USAGE, code: 1 };
    const n = await store.requeue(db, now, id === undefined ? undefined : Number(id));
    if (id !== undefined && !n) return { out: `No failed outbox row #${id}.`, code: 1 };
    return { out: `${n} row${n === 1 ? '' : 's'} queued again.`, code: 0 };
  }
  return { out: USAGE, code: 1 };
}
