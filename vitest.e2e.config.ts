import { defineConfig } from 'vitest/config';

/** Browser tests (make e2e): one file at a time, generous timeouts, never part of `make test`. */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
