import os from 'node:os';
import v8 from 'node:v8';

/**
 * How a serving process trades memory for CPU (PALAVER_MEMORY, docs/memory.md).
 * - fast: V8's young generation as it grows by itself (up to two 16 MB semi-spaces) and the old
 *   generation let grow to 2× what the last full collection kept.
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
 * its reads. At 2× the highest RSS was 270 MB for the same requests per second. At 1.5× it
 * was 250 MB, but guests' HTML (a 50 KB buffer a response, external memory V8 counts against
 * the limit) then started a full collection every 300 ms and cost 30–40% more CPU.
 */
const HEAP_GROWING_PERCENT = { fast: 100, low: 30 } as const;

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
 */
export function memoryFlags(mode: 'low' | 'fast', given: string): string[] {
  const flags: string[] = [];
  if (!/heap[-_]growing[-_]percent/.test(given)) flags.push(`--heap-growing-percent=${HEAP_GROWING_PERCENT[mode]}`);
  if (mode === 'low' && !/semi[-_]space/.test(given)) flags.push('--semi-space-growth-factor=1');
  return flags;
}

/**
 * Sets the mode's V8 flags; returns the mode applied. Called before the server's modules load
 * (memory-start.ts): the old generation's growth set once the forum listened instead cost
 * member topic pages some 30% more CPU in three runs of three, and the young generation has
 * grown to its largest by then (V8 documents no flag change after start-up).
 */
export function applyMemoryMode(mode: MemoryMode, postgres: boolean): 'low' | 'fast' {
  const resolved = resolveMemoryMode(mode, postgres);
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  for (const flag of memoryFlags(resolved, given)) v8.setFlagsFromString(flag);
  return resolved;
}
