/**
 * Traffic accounting (as SQLite 0005). Counters and 5-minute facts are partitioned by time,
 * one partition per UTC day; the interface cursor, cycle accumulators and monthly snapshots
 * stay plain tables.
 */
export const up = [
  `CREATE TABLE traffic_counter (
    node_id bigint NOT NULL,
    iface text NOT NULL,
    received_at bigint NOT NULL,
    rx bigint NOT NULL,
    tx bigint NOT NULL,
    PRIMARY KEY (node_id, iface, received_at)
  ) PARTITION BY RANGE (received_at)`,
  `CREATE INDEX traffic_counter_time ON traffic_counter (received_at)`,
  `CREATE TABLE traffic_iface (
    node_id bigint NOT NULL,
    iface text NOT NULL,
    first_at bigint NOT NULL,
    last_at bigint NOT NULL,
    last_rx bigint NOT NULL,
    last_tx bigint NOT NULL,
    PRIMARY KEY (node_id, iface)
  )`,
  `CREATE TABLE traffic_5m (
    node_id bigint NOT NULL,
    iface text NOT NULL,
    bucket bigint NOT NULL,
    in_bytes bigint NOT NULL,
    out_bytes bigint NOT NULL,
    valid_in bigint NOT NULL,
    valid_out bigint NOT NULL,
    valid_ms bigint NOT NULL,
    gap_count bigint NOT NULL,
    reset_count bigint NOT NULL,
    PRIMARY KEY (node_id, iface, bucket)
  ) PARTITION BY RANGE (bucket)`,
  `CREATE INDEX traffic_5m_time ON traffic_5m (bucket)`,
  `CREATE TABLE traffic_cycle_usage (
    node_id bigint NOT NULL,
    iface text NOT NULL,
    cycle_start bigint NOT NULL,
    cycle_end bigint NOT NULL,
    in_bytes bigint NOT NULL,
    out_bytes bigint NOT NULL,
    sample_count bigint NOT NULL,
    gap_count bigint NOT NULL,
    reset_count bigint NOT NULL,
    peak_in double precision NOT NULL,
    peak_out double precision NOT NULL,
    peak_total double precision NOT NULL,
    covered_from bigint NOT NULL,
    covered_until bigint NOT NULL,
    PRIMARY KEY (node_id, iface, cycle_start)
  )`,
  `CREATE TABLE traffic_monthly (
    node_id bigint NOT NULL,
    iface text NOT NULL,
    cycle_start bigint NOT NULL,
    cycle_end bigint NOT NULL,
    stats_json text NOT NULL,
    sealed boolean NOT NULL,
    PRIMARY KEY (node_id, iface, cycle_start)
  )`,
];
