/**
 * The id of SQLite 0018 (each interface's open 5-minute bucket kept on its cursor row), with
 * nothing to do here: PostgreSQL's `traffic_5m` is partitioned by day, so a flush's upserts of
 * the open buckets touch the pages of one day's partition. Present so a database copied from
 * SQLite (`dash migrate-data`, which folds the open buckets into `traffic_5m`) finds every id.
 */
export const up: readonly string[] = [];
