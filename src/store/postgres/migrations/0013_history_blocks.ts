/**
 * History blocks (as SQLite 0013): nothing to create on PostgreSQL.
 *
 * On SQLite, 0013 moves sealed raw history into compressed per-node column blocks
 * (`metrics_blocks`, `metrics_block_days`) because one row per report costs a SQLite file more
 * space than the daily partitions of PostgreSQL, where retention drops whole days and the
 * server's own storage carries the rows. PostgreSQL keeps every report as a row of the
 * partitioned `metrics_raw`, so it has no blocks, no block day accounting and no seal job.
 *
 * The id still exists so both engines name the same schema state: `dash migrate-data` accepts a
 * SQLite database at 0013 and copies its blocks as raw rows (store/postgres/copy-from-sqlite.ts).
 */
export const up: readonly string[] = [];
