import { defineConfig } from 'vitest/config';

// Browser tests of the client against the stand-in server. Build first:
//   vite build && vite build --ssr src/client/entry-server.tsx
//   vitest run --config tests/e2e/vitest.e2e.config.ts
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 60000,
    hookTimeout: 60000,
    fileParallelism: false,
  },
});
