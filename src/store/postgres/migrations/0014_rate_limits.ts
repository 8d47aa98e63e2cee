/**
 * State shared by Dash instances (as SQLite 0014): rate-limit counters (failed logins and
 * unknown node secrets per client key and fixed window, counted with one upsert … RETURNING
 * per failure so every instance adds to the same number), and when each shared job last
 * started on any instance, so a turn runs once however the instances' timers are spread.
 */
export const up = [
  `CREATE TABLE rate_limit_hits (
    scope text NOT NULL,
    key text NOT NULL,
    window_start bigint NOT NULL,
    hits bigint NOT NULL,
    PRIMARY KEY (scope, key, window_start)
  )`,
  `CREATE TABLE job_runs (
    name text PRIMARY KEY,
    started_at bigint NOT NULL
  )`,
];
