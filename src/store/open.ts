import type { DatabaseConfig } from '../config/schema.js';
import { openSqliteStore, type SqliteStore } from './sqlite/open.js';

export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

/** Opens the configured engine and brings its schema up to date. */
export function openStore(config: DatabaseConfig, now: number): SqliteStore {
  if (config.kind === 'postgres') {
    throw new StoreUnavailableError(
      'DASH_DATABASE_URL: the PostgreSQL backend is not available in this version; use SQLite (the default)',
    );
  }
  return openSqliteStore(config.path, now);
}
