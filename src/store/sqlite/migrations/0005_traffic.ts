/**
 * Traffic accounting (issue 14). `traffic_counter` keeps per-interface cumulative counters for
 * traffic's own retention (default 45 days, apart from the 8-day raw history);
 * `traffic_iface` the first and latest sample of each interface (the pair cursor of the
 * incremental materialiser and the ifaces listing); `traffic_5m` the 5-minute facts of Billing
 * mode; `traffic_cycle_usage` the Lite accumulators per billing cycle; `traffic_monthly`
 * snapshots of closed cycles, so monthly history outlives the facts.
 */
export const up = [
  `CREATE TABLE traffic_counter (
    node_id INTEGER NOT NULL,
    iface TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    rx INTEGER NOT NULL,
    tx INTEGER NOT NULL,
    PRIMARY KEY (node_id, iface, received_at)
  ) STRICT, WITHOUT ROWID`,
  `CREATE INDEX traffic_counter_time ON traffic_counter (received_at)`,
  `CREATE TABLE traffic_iface (
    node_id INTEGER NOT NULL,
    iface TEXT NOT NULL,
    first_at INTEGER NOT NULL,
    last_at INTEGER NOT NULL,
    last_rx INTEGER NOT NULL,
    last_tx INTEGER NOT NULL,
    PRIMARY KEY (node_id, iface)
  ) STRICT, WITHOUT ROWID`,
  `CREATE TABLE traffic_5m (
    node_id INTEGER NOT NULL,
    iface TEXT NOT NULL,
    bucket INTEGER NOT NULL,
    in_bytes INTEGER NOT NULL,
    out_bytes INTEGER NOT NULL,
    valid_in INTEGER NOT NULL,
    valid_out INTEGER NOT NULL,
    valid_ms INTEGER NOT NULL,
    gap_count INTEGER NOT NULL,
    reset_count INTEGER NOT NULL,
    PRIMARY KEY (node_id, iface, bucket)
  ) STRICT, WITHOUT ROWID`,
  `CREATE INDEX traffic_5m_time ON traffic_5m (bucket)`,
  `CREATE TABLE traffic_cycle_usage (
    node_id INTEGER NOT NULL,
    iface TEXT NOT NULL,
    cycle_start INTEGER NOT NULL,
    cycle_end INTEGER NOT NULL,
    in_bytes INTEGER NOT NULL,
    out_bytes INTEGER NOT NULL,
    sample_count INTEGER NOT NULL,
    gap_count INTEGER NOT NULL,
    reset_count INTEGER NOT NULL,
    peak_in REAL NOT NULL,
    peak_out REAL NOT NULL,
    peak_total REAL NOT NULL,
    covered_from INTEGER NOT NULL,
    covered_until INTEGER NOT NULL,
    PRIMARY KEY (node_id, iface, cycle_start)
  ) STRICT, WITHOUT ROWID`,
  `CREATE TABLE traffic_monthly (
    node_id INTEGER NOT NULL,
    iface TEXT NOT NULL,
    cycle_start INTEGER NOT NULL,
    cycle_end INTEGER NOT NULL,
    stats_json TEXT NOT NULL,
    sealed INTEGER NOT NULL,
    PRIMARY KEY (node_id, iface, cycle_start)
  ) STRICT, WITHOUT ROWID`,
];
