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
    // expect.poll waits 1 s by default: too short for a browser step on a busy CI machine.
    expect: { poll: { timeout: 5000 } },
  },
});
