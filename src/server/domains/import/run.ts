import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Writer } from '../../core/action.js';
import type { Queryable } from '../../db/index.js';
import { queueSearchRebuild } from '../search/service.js';
import type { ImportDeps } from './phase.js';
import { CORE_PHASES } from './phases.js';
import type { Page, Phase } from './phase.js';
import { LATER_PHASES } from './later-phases.js';
import type { Note } from './map.js';
import { rebuild } from './store.js';
import type { NodebbSource } from './source.js';
import type { ImportState } from './uploads.js';

/** Where an import is, per phase: the cursor of the next page, or done. */
export interface Checkpoint {
  from: string;
  phase: string;
  cursor: string;
  done: string[];
  counts: Record<string, number>;
  /** Records of the current phase seen so far (for the bar). */
  seen?: number;
  /** The summary file's length, the skipped and altered records at the checkpoint: a resumed import drops what came after. */
  summaryBytes?: number;
  skipped?: number;
  altered?: number;
}

/** A phase's progress: rows done of the total, for the bar. */
export interface ImportProgress {
  phase: string;
  done: number;
  total: number;
}

/** A checkpoint inside a phase at least every this many pages (and at least once a second). */
const CHECKPOINT_PAGES = 20;

export interface ImportOptions {
  /** NodeBB's database URL (also the checkpoint's identity). */
  from: string;
  dryRun?: boolean;
  /** Continue from the checkpoint of an interrupted import of the same `from`. */
  resume?: boolean;
  /** Rows a batch reads and writes (one transaction). */
  batch?: number;
  /** NodeBB's public/uploads folder: its files are copied into the forum's store and links to them rewritten. */
  uploadsDir?: string;
  /** Where the checkpoint and the summary go (default: the data dir's import/). */
  dir?: string;
  onProgress?: (p: ImportProgress) => void;
}

export interface ImportResult {
  counts: Record<string, number>;
  skipped: number;
  altered: number;
  summaryFile: string;
  dryRun: boolean;
}

/**
 * Imports a NodeBB forum into the configured database: each phase walks its NodeBB sorted set
 * in pages from a cursor, maps a page to rows and writes it in one action (batched upserts:
 * a re-run updates, never duplicates), then saves the checkpoint. Records that cannot come
 * in as they are go to the summary file with their reason; none stops the import. At the end
 * the counters are rebuilt, the search index's rebuild is queued and every cache drops.
 */
export async function importNodebb(deps: ImportDeps, src: NodebbSource, opts: ImportOptions): Promise<ImportResult> {
  const dir = opts.dir ?? path.join(deps.config.dataDir, 'import');
  mkdirSync(dir, { recursive: true });
  const checkpointFile = path.join(dir, 'nodebb-checkpoint.json');
  const summaryFile = path.join(dir, opts.dryRun ? 'nodebb-dry-run-summary.ndjson' : 'nodebb-summary.ndjson');
  let cp: Checkpoint = { from: opts.from, phase: '', cursor: '', done: [], counts: {} };
  if (opts.resume) {
    try {
      const saved = JSON.parse(readFileSync(checkpointFile, 'utf8')) as Checkpoint;
      if (saved.from !== opts.from) throw new Error(`the checkpoint in ${checkpointFile} is of another import (${saved.from})`);
      cp = saved;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  // A resumed import goes on with the summary as it was at the checkpoint (the notes of a page
  // written after it, or not written at all, come again with the page).
  if (opts.resume && cp.summaryBytes !== undefined && existsSync(summaryFile)) truncateSync(summaryFile, cp.summaryBytes);
  else writeFileSync(summaryFile, '');
  let skipped = opts.resume ? (cp.skipped ?? 0) : 0;
  let altered = opts.resume ? (cp.altered ?? 0) : 0;
  const record = (notes: Note[]) => {
    if (!notes.length) return;
    for (const n of notes) {
      if (n.action === 'skipped') skipped++;
      else altered++;
    }
    appendFileSync(summaryFile, notes.map((n) => JSON.stringify(n)).join('\n') + '\n');
  };
  // Written whole or not at all (a new file renamed over the old): a kill at any moment leaves a
  // checkpoint that reads. Inside a phase once a second or every CHECKPOINT_PAGES pages, whichever
  // comes first (a rename per page cost the import several per cent), at each phase's end, and
  // when the import stops on an error.
  let savedAt = 0;
  let pagesSince = 0;
  const save = (always: boolean) => {
    if (opts.dryRun) return;
    pagesSince += 1;
    if (!always && Date.now() - savedAt < 1000 && pagesSince < CHECKPOINT_PAGES) return;
    pagesSince = 0;
    Object.assign(cp, { summaryBytes: statSync(summaryFile).size, skipped, altered });
    writeFileSync(`${checkpointFile}.new`, JSON.stringify(cp));
    renameSync(`${checkpointFile}.new`, checkpointFile);
    savedAt = Date.now();
  };
  const batch = opts.batch ?? 500;
  // The uploads' new names, kept beside the checkpoint: a resumed import rewrites links with them.
  const uploadsFile = path.join(dir, 'nodebb-uploads.json');
  const state: ImportState = { uploadsDir: opts.uploadsDir, uploads: new Map() };
  // (An import again without --uploads keeps the links to the files an earlier one copied.)
  if ((opts.resume && cp.done.includes('uploads')) || !opts.uploadsDir) {
    try {
      state.uploads = new Map(JSON.parse(readFileSync(uploadsFile, 'utf8')) as [string, string][]);
    } catch {
      // none were copied
    }
  }

  /** Runs a page; a page that fails is split until the failing record is alone, and that one is skipped with the reason. */
  const runPage = async (phase: Phase, page: Page): Promise<number> => {
    try {
      const { count, notes } = await phase.run(deps, src, page, !!opts.dryRun, state);
      record(notes);
      return count;
    } catch (err) {
      if (isConnectionError(err)) throw err;
      if (page.length <= 1) {
        record([{ entity: phase.name, id: page[0]?.[0] ?? '', action: 'skipped', reason: `could not be written: ${(err as Error).message.slice(0, 300)}` }]);
        return 0;
      }
      const half = Math.ceil(page.length / 2);
      return (await runPage(phase, page.slice(0, half))) + (await runPage(phase, page.slice(half)));
    }
  };

  try {
    await runPhases();
  } catch (err) {
    // What was written so far is kept: --resume continues after it.
    save(true);
    throw err;
  }

  async function runPhases() {
    for (const phase of [...CORE_PHASES, ...LATER_PHASES]) {
      if (cp.done.includes(phase.name)) continue;
      if (!phase.set) {
        opts.onProgress?.({ phase: phase.name, done: 0, total: 1 });
        cp.counts[phase.name] = await runPage(phase, []);
        if (phase.name === 'uploads' && !opts.dryRun) writeFileSync(uploadsFile, JSON.stringify([...state.uploads]));
        opts.onProgress?.({ phase: phase.name, done: 1, total: 1 });
      } else {
        let cursor = cp.phase === phase.name ? cp.cursor : '';
        const total = await src.zcard(phase.set);
        let done = cp.phase === phase.name ? (cp.seen ?? 0) : 0;
        cp.counts[phase.name] ??= 0;
        opts.onProgress?.({ phase: phase.name, done, total });
        do {
          const page = await src.zpage(phase.set, cursor, batch);
          if (page.items.length) {
            // In NodeBB's order (time, then id): of two records that clash (a taken slug), the older one comes in.
            page.items.sort((a, b) => a[1] - b[1] || Number(a[0]) - Number(b[0]) || (a[0] < b[0] ? -1 : 1));
            cp.counts[phase.name] = (cp.counts[phase.name] ?? 0) + (await runPage(phase, page.items));
            done += page.items.length;
          }
          cursor = page.next;
          cp.phase = phase.name;
          cp.cursor = cursor;
          cp.seen = done;
          save(false);
          opts.onProgress?.({ phase: phase.name, done: Math.min(done, total), total });
        } while (cursor);
      }
      cp.done.push(phase.name);
      cp.phase = '';
      cp.cursor = '';
      cp.seen = 0;
      save(true);
    }
  }

  if (!opts.dryRun) {
    opts.onProgress?.({ phase: 'rebuild', done: 0, total: 1 });
    await deps.actions.run('import.rebuild', async (w: Writer) => {
      await rebuild(w, deps.dialect);
      // The search index: the triggers kept it as the posts came in; a full rebuild settles it.
      await queueSearchRebuild(w.tx as unknown as Queryable);
    });
    opts.onProgress?.({ phase: 'rebuild', done: 1, total: 1 });
  }
  appendFileSync(summaryFile, `${JSON.stringify({ counts: cp.counts, skipped, altered })}\n`);
  return { counts: cp.counts, skipped, altered, summaryFile, dryRun: !!opts.dryRun };
}

/** A lost connection stops the import (resume it later); any other error is one record's. */
function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: string }).code ?? '';
  const msg = (err as Error).message ?? '';
  return (
    /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|57P01|08\w{3})$/.test(code) ||
    /Connection is closed|Stream isn't writeable|connection terminated|Client has encountered a connection error/i.test(msg)
  );
}
