import { randomBytes } from 'node:crypto';
import { defineConfig } from 'vitest/config';
import { testWorkers } from './test/support/workers.js';
import { postgresUnavailable, warnPostgresSkipped } from './test/support/postgres.js';
import { SQLITE_ONLY_FILES } from './test/support/sqlite-only-files.js';

/**
 * The HTTP suite again, every test app on PostgreSQL (`make test-postgres`, part of
 * `make test`): each app gets an empty, migrated schema of the test PostgreSQL
 * (test/support/test-engine.ts). The schemas are kept from file to file by each worker and emptied
 * between apps, so the run migrates a handful of schemas instead of one per file; they are named
 * after DASH_TEST_PG_RUN (new for every run) and dropped when the run ends.
 * Files that test SQLite itself are left out by name, each with its reason
 * (test/support/sqlite-only-files.ts). Without a PostgreSQL to reach, the run says so loudly and
 * runs nothing, like the PostgreSQL half of the store suites.
 */
export default defineConfig(async () => {
  const unavailable = await postgresUnavailable();
  if (unavailable !== undefined) warnPostgresSkipped(unavailable);
  // In process.env, not only `test.env`: the global teardown (this process) drops the run's schemas.
  process.env.DASH_TEST_PG_RUN = randomBytes(4).toString('hex');
  return {
    test: {
      include: unavailable === undefined ? ['test/http/**/*.test.ts'] : [],
      exclude: ['node_modules/**', ...SQLITE_ONLY_FILES.map((f) => f.file)],
      passWithNoTests: unavailable !== undefined,
      environment: 'node',
      testTimeout: 20_000,
      hookTimeout: 30_000,
      pool: 'forks',
      maxWorkers: testWorkers(),
      env: { DASH_TEST_ENGINE: 'postgres', DASH_TEST_PG_RUN: process.env.DASH_TEST_PG_RUN },
      globalSetup: ['test/support/postgres-global-setup.ts'],
      setupFiles: ['test/support/postgres-app-setup.ts'],
    },
  };
});
