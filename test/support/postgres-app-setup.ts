import { afterAll } from 'vitest';
import { dropTestSchemas } from './test-engine.js';

// Setup file of the PostgreSQL run of the HTTP suite (vitest.postgres.config.ts): when a test
// file ends its app schemas are let go (kept for the worker's next file in such a run, dropped
// otherwise; test/support/test-engine.ts).
afterAll(() => dropTestSchemas());
