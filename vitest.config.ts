import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    // Each worker process runs file after file with one module cache: the server's module graph
    // is imported once per worker instead of once per file (that import was ~2.5 s of each
    // file's time, 407 s of a SQLite run). Files share no state through modules: each builds its
    // own forum context (database, caches, hooks) and closes it; module-level maps are caches
    // of immutable data (translations, emoji, row builders) or keyed by context (WeakMaps).
    isolate: false,
    // expect.poll waits 1 s by default: too short for a browser step on a busy CI machine.
    expect: { poll: { timeout: 5000 } },
  },
});
