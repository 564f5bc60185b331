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
export const START_ENV = { MALLOC_ARENA_MAX: '2' };
