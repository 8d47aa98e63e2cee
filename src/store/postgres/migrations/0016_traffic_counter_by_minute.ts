/**
 * The id of SQLite 0016 (counters as one blob per minute and node), with nothing to do here:
 * PostgreSQL keeps a row per sample in tables partitioned by day, and its collector flushes
 * every 10 s. Present so a database copied from SQLite (`dash migrate-data`) finds every id.
 */
export const up: readonly string[] = [];
