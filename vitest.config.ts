import { defineConfig } from 'vitest/config';
import { testWorkers } from './test/support/workers.js';
import { ISOLATED_FILES } from './test/support/isolated-files.js';

/**
 * Two projects (docs/testing.md "Shared module graph"): most files share one module graph per
 * worker (`isolate: false`), so the server's modules are imported once per worker instead of once
 * per file; the files listed in test/support/isolated-files.ts, each with its reason, keep a
 * fresh graph of their own.
 */
export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: testWorkers(),
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'node_modules/**', ...ISOLATED_FILES.map((f) => f.glob)],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ISOLATED_FILES.map((f) => f.glob),
          exclude: ['test/e2e/**', 'node_modules/**'],
        },
      },
    ],
  },
});
