import { defineConfig } from 'vitest/config';
import { postgresUnavailable, warnPostgresSkipped } from './test/support/postgres.js';
import { SQLITE_ONLY_FILES } from './test/support/sqlite-only-files.js';

/**
 * The HTTP suite again, every test app on PostgreSQL (`make test-postgres`, part of
 * `make test`): each app gets an empty schema of the test PostgreSQL (test/support/test-engine.ts).
 * Files that test SQLite itself are left out by name, each with its reason
 * (test/support/sqlite-only-files.ts). Without a PostgreSQL to reach, the run says so loudly and
 * runs nothing, like the PostgreSQL half of the store suites.
 */
export default defineConfig(async () => {
  const unavailable = await postgresUnavailable();
  if (unavailable !== undefined) warnPostgresSkipped(unavailable);
  return {
    test: {
      include: unavailable === undefined ? ['test/http/**/*.test.ts'] : [],
      exclude: ['node_modules/**', ...SQLITE_ONLY_FILES.map((f) => f.file)],
      passWithNoTests: unavailable !== undefined,
      environment: 'node',
      testTimeout: 20_000,
      hookTimeout: 30_000,
      pool: 'forks',
      env: { DASH_TEST_ENGINE: 'postgres' },
      setupFiles: ['test/support/postgres-app-setup.ts'],
    },
  };
});
