export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

/**
 * What `dash serve` still needs that the PostgreSQL store does not have yet. While this list is
 * not empty, serving on PostgreSQL is refused at start with this message instead of running with
 * parts of Dash missing (docs/postgresql.md).
 */
export const POSTGRES_SERVE_UNSUPPORTED = [
  'history reads and rollups',
  'alerts',
  'notification channels',
  'the ingest pipeline and jobs on the PostgreSQL store',
  'multi-instance coordination',
] as const;

export function postgresServeRefusal(): StoreUnavailableError {
  return new StoreUnavailableError(
    `DASH_DATABASE_URL: serving on PostgreSQL is not supported yet (missing: ${POSTGRES_SERVE_UNSUPPORTED.join(
      ', ',
    )}). \`dash migrate\` and \`dash migrate-data\` work with PostgreSQL; run Dash on SQLite (the default) for now. See docs/postgresql.md`,
  );
}
