import { it } from 'vitest';
import { TEST_ENGINE } from './test-engine.js';

/**
 * `it` for a test of SQLite behaviour (its file, its connection, its worker threads) inside a
 * file that otherwise runs on both engines: on PostgreSQL it is reported as skipped, never
 * silently dropped. Each use says why beside it.
 */
export const itSqliteOnly = TEST_ENGINE === 'postgres' ? it.skip : it;
