/**
 * Drops `traffic_counter_time` (issue 22). The collector stores a minute of counters node by
 * node (docs/ingest-disk-writes.md, "Traffic counters"), so each transaction's rows spread over
 * the whole minute of this time index: it became most of the pages a flush wrote. Retention
 * now deletes each interface's old counters through the primary key instead.
 */
export const up = ['DROP INDEX IF EXISTS traffic_counter_time'];
