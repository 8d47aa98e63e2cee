/**
 * Uptime: one row per node per finalised minute, plus local-hour and local-day sums kept as
 * minutes are written, so reads never scan minutes. Hour rows are keyed by the instant their
 * local hour starts (a repeated DST hour gets two rows); day rows by local date.
 */
export const up = [
  `CREATE TABLE uptime_minute (
    node_id INTEGER NOT NULL,
    minute INTEGER NOT NULL,
    online_ms INTEGER NOT NULL,
    observed_ms INTEGER NOT NULL,
    reports INTEGER NOT NULL,
    PRIMARY KEY (node_id, minute)
  ) STRICT, WITHOUT ROWID`,
  `CREATE INDEX uptime_minute_time ON uptime_minute (minute)`,
  `CREATE TABLE uptime_hour (
    node_id INTEGER NOT NULL,
    hour_start INTEGER NOT NULL,
    online_ms INTEGER NOT NULL,
    observed_ms INTEGER NOT NULL,
    PRIMARY KEY (node_id, hour_start)
  ) STRICT, WITHOUT ROWID`,
  `CREATE TABLE uptime_day (
    node_id INTEGER NOT NULL,
    day TEXT NOT NULL,
    online_ms INTEGER NOT NULL,
    observed_ms INTEGER NOT NULL,
    PRIMARY KEY (node_id, day)
  ) STRICT, WITHOUT ROWID`,
];
