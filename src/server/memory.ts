import os from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

/**
 * How a serving process trades memory for CPU (PALAVER_MEMORY, docs/memory.md).
 * - fast: the young generation held at its first size while the server's modules load, then
 *   let grow up to a cap (YOUNG_GENERATION_CAP: two 4 MB semi-spaces on SQLite, two 8 MB ones on
 *   PostgreSQL; V8's own limit is two 16 MB ones), and the old generation let grow by 15%.
 * - low: the young generation held at its first size (two 1 MB semi-spaces) and the old
 *   generation let grow by 30%. On the benchmark's SQLite forum some 80 MB less under load,
 *   for up to 10–50% more CPU a member read and 0.2 s more start-up; on PostgreSQL about
 *   twice the CPU and p99s near 100 ms (a read's objects live through its wait for the
 *   database and are copied out of a small young generation), so there it is the operator's
 *   choice only.
 * - auto: low on SQLite when the machine, or the container the process runs in, gives it less
 *   than LOW_MEMORY_BELOW; fast otherwise.
 */
export type MemoryMode = 'auto' | 'low' | 'fast';
export const MEMORY_MODES: readonly MemoryMode[] = ['auto', 'low', 'fast'];

/** Below this much memory for the process, `auto` means `low`: a 1 GB machine or container. */
export const LOW_MEMORY_BELOW = 1024 ** 3;

/**
 * How far V8 lets its old generation grow past what the last full collection kept, in percent.
 * V8's own choice for a busy process is up to 4× the live heap: the benchmark's forum (some
 * 60 MB live) then held 200–250 MB of heap, garbage included, and 340–390 MB of RSS under
 * its reads. At 2× the highest RSS was 270 MB for the same requests per second. Lower cost
 * CPU while every answer was a new 20–75 KB buffer (external memory V8 counts against the
 * limit: a full collection every 300 ms); since pages are written as pieces (http/send.ts),
 * 30% took some 20 MB off under load for a full collection every several seconds, and since
 * member reads allocate less, 15% another 4–8 MB for about half as many full collections
 * again, CPU and p99 within the runs' noise. On PostgreSQL a low limit cost member reads
 * 20–50% more while the young generation was V8's 32 MB and reads allocated more; with the
 * 16 MB cap and the leaner reads, no more than the runs' noise (docs/memory.md).
 */
const HEAP_GROWING_PERCENT = { fast: 15, low: 30 } as const;

/**
 * The most `fast` lets the young generation (both semi-spaces) grow to, in bytes, by database.
 * V8 grows it up to 32 MB on its own. On the benchmark's SQLite forum, held at 16 MB it kept
 * RSS under load some 30 MB lower for the same CPU a member read; at 8 MB some 10 MB lower
 * again, for twice the young collections, each about half as long, and about a tenth more CPU
 * on a member's `/api/topic`. On PostgreSQL a read's objects live through its wait for the
 * database, while the other connections' reads run: at 8 MB they outlived two young
 * collections and were copied into the old generation, and member reads cost 35–45% more; at
 * 16 MB they cost what they do at 32 MB, for some 30 MB less (docs/memory.md).
 */
export const YOUNG_GENERATION_CAP = { sqlite: 8 * 1024 ** 2, postgres: 16 * 1024 ** 2 } as const;

/** The memory the process may use: the machine's, or its container's limit when that is lower. */
export function availableMemory(): number {
  const total = os.totalmem();
  // 0 or undefined when there is no limit or it is unknown; a huge number for "max" in cgroup v2.
  const limit = (process as { constrainedMemory?: () => number | undefined }).constrainedMemory?.() ?? 0;
  return limit > 0 && limit < total ? limit : total;
}

/** The mode a process runs in: `auto` settled by the database and the memory the process has. */
export function resolveMemoryMode(mode: MemoryMode, postgres: boolean, available = availableMemory()): 'low' | 'fast' {
  if (mode !== 'auto') return mode;
  return !postgres && available < LOW_MEMORY_BELOW ? 'low' : 'fast';
}

/**
 * The V8 flags a mode sets, leaving out those the operator gave in the command or NODE_OPTIONS
 * (theirs win). `--semi-space-growth-factor=1` keeps the young generation at the size it starts
 * with: V8 reads that flag each time it would grow the young generation, so unlike
 * `--max-semi-space-size` (read once, when the heap is made) it takes effect when set here.
 * `low` keeps it so; `fast` lets it grow, up to its database's cap, once the server listens
 * (growYoungGenerationUpTo).
 */
export function memoryFlags(mode: 'low' | 'fast', given: string): string[] {
  const flags: string[] = [];
  if (!/heap[-_]growing[-_]percent/.test(given)) flags.push(`--heap-growing-percent=${HEAP_GROWING_PERCENT[mode]}`);
  if (!/semi[-_]space/.test(given)) flags.push('--semi-space-growth-factor=1');
  return flags;
}

/**
 * Lets V8 grow the young generation again, a doubling at a time, while a doubling stays within
 * `cap` bytes: after each collection (the only time V8 grows it) the growth factor is set back
 * to V8's 2, or to 1 once the next doubling would pass the cap. Started once the server
 * listens: while its modules load, many collections in one task keep most of what they find,
 * and V8 would double the young generation several times before this could look. A later
 * burst of collections in one task can still take it one doubling or more past the cap; it
 * is then held where it is. Returns a function that stops watching.
 */
export function growYoungGenerationUpTo(cap: number): () => void {
  let factor = 1;
  const check = () => {
    const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    const next = young && young.space_size * 2 <= cap ? 2 : 1;
    if (next !== factor) {
      factor = next;
      v8.setFlagsFromString(`--semi-space-growth-factor=${factor}`);
    }
  };
  check();
  const observer = new PerformanceObserver(check);
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}

/**
 * Sets the mode's V8 flags; returns the mode applied and, when `fast` holds the young
 * generation while the server loads, the cap to let it grow to once the server listens
 * (growYoungGenerationUpTo), else null. Called before the server's modules load
 * (memory-start.ts): the old generation's growth set once the forum listened instead cost
 * member topic pages some 30% more CPU in three runs of three, and the young generation has
 * grown to its largest by then (V8 documents no flag change after start-up).
 */
export function applyMemoryMode(mode: MemoryMode, postgres: boolean): { mode: 'low' | 'fast'; youngGenerationCap: number | null } {
  const resolved = resolveMemoryMode(mode, postgres);
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  const flags = memoryFlags(resolved, given);
  for (const flag of flags) v8.setFlagsFromString(flag);
  const held = resolved === 'fast' && flags.includes('--semi-space-growth-factor=1');
  return { mode: resolved, youngGenerationCap: held ? YOUNG_GENERATION_CAP[postgres ? 'postgres' : 'sqlite'] : null };
}
