import { afterAll } from 'vitest';
import { dropTestSchemas } from './test-engine.js';

// Setup file of the PostgreSQL run of the HTTP suite (vitest.postgres.config.ts): each test
// file's app schemas go when the file ends.
afterAll(() => dropTestSchemas());
