// The environment `npm start` gives the forum's process (package.json's `start` and `palaver`
// scripts set it, each variable only when the operator has not: memory.test.ts checks), and
// the benchmark starts its server with (bench/run.mjs), so that it measures the process a
// start makes. A unit file or container that runs `node bin/palaver.mjs` itself sets the same
// (docs/memory.md).
//
// MALLOC_ARENA_MAX: glibc gives each thread that allocates while the others hold theirs an
// arena of its own, up to eight per core, and keeps what an arena once held. V8's four worker
// threads (its optimizing compiler, its collector's helpers) each kept several MB that way: on
// the benchmark's PostgreSQL forum two arenas in all took RSS under load from 156–159 to
// 142–143 MB, CPU within the runs' noise (docs/memory.md). glibc reads it as the process
// starts, so the forum cannot set it for itself; other C libraries ignore it.
//
// MALLOC_TRIM_THRESHOLD_ and MALLOC_MMAP_THRESHOLD_ at glibc's own starting values (128 KB),
// given, so that glibc no longer raises them as it goes. Unset, each time a block it had
// mapped on its own (128 KB or more: a large answer, a compiler's zone) is freed, glibc raises
// the size it maps from to that block's and the free memory it keeps at the heap's top to twice
// that, up to 32 and 64 MB: under the benchmark's reads the arenas came to hold 20–22 MB for
// 8 MB in use, one of them 6 MB for 0.1 MB. Given, blocks of 128 KB and more are mapped and
// unmapped on their own and a free top over 128 KB goes back: 11–12 MB held for the same 8 MB
// in use, RSS under load some 6–9 MB lower, CPU within the runs' noise (docs/memory.md).
export const START_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072', MALLOC_MMAP_THRESHOLD_: '131072' };
