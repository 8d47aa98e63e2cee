/**
 * Metrics storage: raw history (one compact row per accepted report), the current projection,
 * the per-node device dictionary, 15-minute and 1-hour rollups and job watermarks.
 *
 * Size budget: a raw row holds the host metrics as scaled integers (SQLite stores small
 * integers in 0-3 bytes) and every per-device value in one varint blob, so a realistic report
 * costs about 200-250 bytes. Rollup rows are keyed by `node_id * 2^24 + bucket index` in a
 * rowid table, which keeps them ordered by node then time without a second index.
 */
export const up = [
  `CREATE TABLE metrics_raw (
    node_id INTEGER NOT NULL,
    received_at INTEGER NOT NULL,
    cpu_usage_ratio INTEGER,
    cpu_load1 INTEGER,
    cpu_load5 INTEGER,
    cpu_load15 INTEGER,
    cpu_temp_c INTEGER,
    mem_used INTEGER,
    mem_used_ratio INTEGER,
    proc_count INTEGER,
    net_recv_bps INTEGER,
    net_sent_bps INTEGER,
    conn_tcp INTEGER,
    conn_udp INTEGER,
    psi_cpu_some10 INTEGER,
    psi_cpu_some60 INTEGER,
    psi_cpu_some300 INTEGER,
    psi_mem_some10 INTEGER,
    psi_mem_some60 INTEGER,
    psi_mem_some300 INTEGER,
    psi_mem_full10 INTEGER,
    psi_mem_full60 INTEGER,
    psi_mem_full300 INTEGER,
    psi_io_some10 INTEGER,
    psi_io_some60 INTEGER,
    psi_io_some300 INTEGER,
    psi_io_full10 INTEGER,
    psi_io_full60 INTEGER,
    psi_io_full300 INTEGER,
    devices BLOB,
    PRIMARY KEY (node_id, received_at)
  ) STRICT, WITHOUT ROWID`,
  `CREATE TABLE metric_devices (
    id INTEGER PRIMARY KEY,
    node_id INTEGER NOT NULL,
    kind INTEGER NOT NULL,
    name TEXT NOT NULL,
    ref TEXT NOT NULL DEFAULT '',
    alt TEXT NOT NULL DEFAULT '',
    first_seen_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    UNIQUE (node_id, kind, name)
  ) STRICT`,
  `CREATE TABLE node_current (
    node_id INTEGER PRIMARY KEY,
    received_at INTEGER NOT NULL,
    reported_at INTEGER NOT NULL,
    first_received_at INTEGER NOT NULL,
    runtime_json TEXT NOT NULL,
    smart_json TEXT,
    thermal_json TEXT,
    pressure_json TEXT
  ) STRICT`,
  `CREATE TABLE metrics_15m (
    id INTEGER PRIMARY KEY,
    data BLOB NOT NULL
  ) STRICT`,
  `CREATE TABLE metrics_1h (
    id INTEGER PRIMARY KEY,
    data BLOB NOT NULL
  ) STRICT`,
  `CREATE TABLE metrics_jobs (
    name TEXT PRIMARY KEY,
    watermark INTEGER NOT NULL
  ) STRICT`,
];
