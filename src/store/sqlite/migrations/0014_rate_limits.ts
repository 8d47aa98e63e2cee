/**
 * State shared by Dash instances (issue 23): rate-limit counters (one row per limiter scope,
 * client key and fixed window, counting that window's hits) and the start of each shared job's
 * last run on any instance. SQLite is one process, keeps its limiters in memory and runs its
 * jobs unlocked, so it never writes here; the tables exist so both engines name the same
 * schema state.
 */
export const up = [
  `CREATE TABLE rate_limit_hits (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    window_start INTEGER NOT NULL,
    hits INTEGER NOT NULL,
    PRIMARY KEY (scope, key, window_start)
  ) WITHOUT ROWID`,
  `CREATE TABLE job_runs (
    name TEXT PRIMARY KEY,
    started_at INTEGER NOT NULL
  ) WITHOUT ROWID`,
];
