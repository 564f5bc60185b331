import type { AppContext } from '../../context.js';
import type { Writer } from '../../core/action.js';
import { type Note } from './map.js';
import { present, upsert } from './store.js';
import type { NodebbSource } from './source.js';
import { type ImportState } from './uploads.js';

/** What the import uses of the forum. */
export type ImportDeps = Pick<AppContext, 'config' | 'db' | 'dialect' | 'actions' | 'hooks' | 'settings' | 'storage'>;

/** One page of a phase: NodeBB's [member, score] pairs of the phase's sorted set. */
export type Page = [string, number][];

/** A phase walks one NodeBB sorted set; each page is read, mapped and written in one action. */
export interface Phase {
  name: string;
  /** The sorted set listing the phase's records ('': the phase runs once, with no page). */
  set: string;
  run(deps: ImportDeps, src: NodebbSource, page: Page, dryRun: boolean, state: ImportState): Promise<{ count: number; notes: Note[] }>;
}

export const ids = (page: Page) => page.map(([m]) => Number(m)).filter((n) => Number.isInteger(n) && n > 0);

/** Writes in one action, unless a dry run. */
export async function write(deps: ImportDeps, dryRun: boolean, fn: (w: Writer) => Promise<void>): Promise<void> {
  if (!dryRun) await deps.actions.run('import.batch', fn);
}

/**
 * Which ids exist. A real import asks the forum (what came in); a dry run, which writes
 * nothing, asks NodeBB's list of them.
 */
export async function known(
  deps: ImportDeps,
  src: NodebbSource,
  dryRun: boolean,
  kind: 'users' | 'categories' | 'topics',
  wanted: number[],
): Promise<(id: number) => boolean> {
  const uniq = [...new Set(wanted.filter((n) => n > 0))];
  const set = dryRun
    ? await src.inZset({ users: 'users:joindate', categories: 'categories:cid', topics: 'topics:tid' }[kind], uniq.map(String))
    : await present(deps.db, kind, { users: 'uid', categories: 'cid', topics: 'tid' }[kind], uniq);
  return (id) => set.has(String(id));
}

export const num = (v: string | undefined) => Number(v) || 0;

/** Replaces what the rows of `kind` use of the stored files (upload_refs), so the clean-up job keeps those files. */
export async function setRefs(w: Writer, kind: string, refs: { id: number; used: string[] }[]): Promise<void> {
  if (!refs.length) return;
  const ids = refs.map((r) => r.id);
  for (let i = 0; i < ids.length; i += 5000)
    await w.tx
      .deleteFrom('upload_refs')
      .where('kind', '=', kind)
      .where('ref_id', 'in', ids.slice(i, i + 5000))
      .execute();
  await upsert(
    w,
    'upload_refs',
    refs.flatMap((r) => r.used.map((path) => ({ path, kind, ref_id: r.id }))),
    ['kind', 'ref_id', 'path'],
  );
}
