/**
 * As SQLite 0015: `traffic_counter_time` goes. Retention drops whole partitions by time here,
 * and every read of counters goes by node (the primary key), so the index only cost writes.
 */
export const up = ['DROP INDEX IF EXISTS traffic_counter_time'];
