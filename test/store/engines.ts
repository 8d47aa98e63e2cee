import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/open.js';

/**
 * The engines the store contract suites run against. Each suite is written once against the
 * Store ports; PostgreSQL joins this list when its backend lands.
 */
export const ENGINES: ReadonlyArray<{ name: string; open: () => Promise<SqliteStore> }> = [
  { name: 'sqlite', open: async () => openSqliteStore(':memory:', 0) },
];
