/**
 * Rate-limit counters shared by Dash instances (issue 23): one row per limiter scope, client
 * key and fixed window, counting that window's hits. SQLite keeps its limiters in memory (one
 * process) and never writes here; the table exists so both engines name the same schema state.
 */
export const up = [
  `CREATE TABLE rate_limit_hits (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    window_start INTEGER NOT NULL,
    hits INTEGER NOT NULL,
    PRIMARY KEY (scope, key, window_start)
  ) WITHOUT ROWID`,
];
