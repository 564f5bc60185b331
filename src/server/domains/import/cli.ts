import type { ImportDeps } from './phase.js';
import { terminalOutput, type CliOutput } from '../../cli-output.js';
import { importNodebb, type ImportProgress } from './run.js';
import { openSource } from './source.js';
import { verifyImport } from './verify.js';

/** A bar per phase: records done of the total, the rate and the time left. */
export function progressBars(out: CliOutput): (p: ImportProgress) => void {
  let phase = '';
  let started = Date.now();
  let last: ImportProgress | null = null;
  let drawn = 0;
  const line = (p: ImportProgress) => {
    const share = p.total ? Math.min(1, p.done / p.total) : 1;
    const filled = Math.round(share * 24);
    const secs = (Date.now() - started) / 1000;
    const rate = secs >= 0.5 ? p.done / secs : 0;
    const left = rate > 0 && p.total > p.done ? ` ${Math.ceil((p.total - p.done) / rate)} s left` : '';
    return `[${'#'.repeat(filled)}${'.'.repeat(24 - filled)}] ${p.phase} ${p.done.toLocaleString('en')}/${p.total.toLocaleString('en')}${rate ? ` ${Math.round(rate).toLocaleString('en')}/s` : ''}${left}`;
  };
  return (p) => {
    if (p.phase !== phase) {
      // The phase before is finished: its last line stays.
      if (last) out.progress(line(last), false);
      phase = p.phase;
      started = Date.now();
    }
    last = p;
    const now = Date.now();
    if (now - drawn < 100 && p.done < p.total) return;
    drawn = now;
    out.progress(line(p), true);
  };
}

/** `palaver import nodebb --from URL [--uploads DIR] [--dry-run] [--resume] [--batch N]`. */
export async function importCommand(
  deps: ImportDeps,
  opts: { from: string; dryRun: boolean; resume: boolean; uploads?: string; batch?: number },
  out: CliOutput = terminalOutput(),
): Promise<void> {
  const src = await openSource(opts.from);
  const started = Date.now();
  try {
    const bars = progressBars(out);
    const result = await importNodebb(deps, src, {
      from: opts.from,
      dryRun: opts.dryRun,
      resume: opts.resume,
      uploadsDir: opts.uploads,
      batch: opts.batch,
      onProgress: bars,
    });
    bars({ phase: 'done', done: 1, total: 1 });
    const counts = Object.entries(result.counts)
      .map(([k, v]) => `${k} ${v.toLocaleString('en')}`)
      .join(', ');
    out.result(
      `${result.dryRun ? 'Dry run (nothing written)' : 'Imported'} from ${src.describe()} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${counts}. ` +
        `${result.skipped} skipped and ${result.altered} altered records, each with its reason, in ${result.summaryFile}`,
    );
  } catch (err) {
    out.result(`The import stopped: ${(err as Error).message}. Run it again with --resume to continue from its last checkpoint.`);
    throw err;
  } finally {
    await src.close();
  }
}

/** `palaver import verify --from URL`: the counts and a sample of topics on both sides; false when any differ. */
export async function verifyCommand(deps: Pick<ImportDeps, 'db'>, from: string, out: CliOutput = terminalOutput()): Promise<boolean> {
  const src = await openSource(from);
  try {
    const lines = await verifyImport(deps.db, src);
    for (const l of lines)
      out.result(
        `${l.ok ? 'ok  ' : 'DIFF'} ${l.what.padEnd(14)} NodeBB ${String(l.nodebb).padStart(8)}  Palaver ${String(l.palaver).padStart(8)}${l.note ? `  (${l.note})` : ''}`,
      );
    const bad = lines.filter((l) => !l.ok).length;
    out.result(bad ? `${bad} differences: the import's summary file lists the records it skipped, with the reason.` : 'Both forums agree.');
    return bad === 0;
  } finally {
    await src.close();
  }
}
