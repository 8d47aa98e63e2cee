/**
 * Uptime (as SQLite 0004). Minutes are partitioned by their start, one partition per UTC day;
 * the hour and day sums are small and stay plain tables.
 */
export const up = [
  `CREATE TABLE uptime_minute (
    node_id bigint NOT NULL,
    minute bigint NOT NULL,
    online_ms bigint NOT NULL,
    observed_ms bigint NOT NULL,
    reports bigint NOT NULL,
    PRIMARY KEY (node_id, minute)
  ) PARTITION BY RANGE (minute)`,
  `CREATE INDEX uptime_minute_time ON uptime_minute (minute)`,
  `CREATE TABLE uptime_hour (
    node_id bigint NOT NULL,
    hour_start bigint NOT NULL,
    online_ms bigint NOT NULL,
    observed_ms bigint NOT NULL,
    PRIMARY KEY (node_id, hour_start)
  )`,
  `CREATE TABLE uptime_day (
    node_id bigint NOT NULL,
    day text NOT NULL,
    online_ms bigint NOT NULL,
    observed_ms bigint NOT NULL,
    PRIMARY KEY (node_id, day)
  )`,
];
