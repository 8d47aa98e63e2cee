import { dropSchemas, runSchemaPrefix, schemasNamed } from './postgres.js';

/**
 * Global setup of the PostgreSQL run of the HTTP suite (vitest.postgres.config.ts): the schemas
 * its workers kept from file to file (test/support/test-engine.ts) go when the run ends.
 */
export default function setup(): () => Promise<void> {
  return async () => {
    const run = process.env.DASH_TEST_PG_RUN;
    if (run === undefined) return;
    await dropSchemas(await schemasNamed(runSchemaPrefix(run)));
  };
}
