import type { DatabaseConfig } from '../config/schema.js';
import { openSqliteStore, type SqliteStore } from './sqlite/open.js';

export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

/**
 * What `dash serve` still needs that the PostgreSQL store does not have yet. While this list is
 * not empty, serving on PostgreSQL is refused at start with this message instead of running with
 * parts of Dash missing (docs/postgresql.md).
 */
export const POSTGRES_SERVE_UNSUPPORTED = [
  'metrics ingest wiring and history reads (rollups, retention jobs)',
  'traffic accounting',
  'alerts',
  'notification channels',
  'multi-instance coordination',
] as const;

export function postgresServeRefusal(): StoreUnavailableError {
  return new StoreUnavailableError(
    `DASH_DATABASE_URL: serving on PostgreSQL is not supported yet (missing: ${POSTGRES_SERVE_UNSUPPORTED.join(
      ', ',
    )}). \`dash migrate\` and \`dash migrate-data\` work with PostgreSQL; run Dash on SQLite (the default) for now. See docs/postgresql.md`,
  );
}

/** Opens the configured engine for `dash serve` and brings its schema up to date. */
export function openStore(config: DatabaseConfig, now: number): SqliteStore {
  if (config.kind === 'postgres') throw postgresServeRefusal();
  return openSqliteStore(config.path, now);
}
