import type { Generated } from 'kysely';

/** Table shapes shared by both engines; times are UTC epoch milliseconds. */
export interface SettingsTable {
  key: string;
  value: string;
  updated_at: number;
}

export interface GroupsTable {
  id: Generated<number>;
  name: string;
  remark: string;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export interface NodesTable {
  id: Generated<number>;
  name: string;
  /** SHA-256 of the secret, unique among live nodes; NULL once deleted (frees the secret). */
  secret_hash: string | null;
  /** The secret encrypted with the data key (admins read it back in the node list). */
  secret_enc: string;
  hostname: string;
  ip: string | null;
  is_guest_visible: number;
  traffic_p95_enabled: number;
  traffic_cycle_mode: string;
  traffic_billing_start_day: number;
  traffic_billing_anchor_date: string;
  traffic_billing_timezone: string;
  traffic_direction_mode: string;
  display_order: number;
  tags: string;
  agent_version: string;
  os: string;
  platform: string;
  platform_version: string;
  kernel_version: string;
  arch: string;
  interval_sec: number;
  static_json: string | null;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export interface NodeGroupsTable {
  node_id: number;
  group_id: number;
}

export interface SessionsTable {
  id: string;
  refresh_hash: string;
  csrf_hash: string;
  session_only: number;
  user_version: number;
  created_at: number;
  expires_at: number;
}

export interface UptimeMinuteTable {
  node_id: number;
  minute: number;
  online_ms: number;
  observed_ms: number;
  reports: number;
}

export interface UptimeHourTable {
  node_id: number;
  hour_start: number;
  online_ms: number;
  observed_ms: number;
}

export interface UptimeDayTable {
  node_id: number;
  day: string;
  online_ms: number;
  observed_ms: number;
}

/** Current projection of a node (migration 0002): its newest report by server receive order. */
export interface NodeCurrentTable {
  node_id: number;
  received_at: number;
  reported_at: number;
  first_received_at: number;
  runtime_json: string;
  smart_json: string | null;
  thermal_json: string | null;
  pressure_json: string | null;
}

/**
 * Per-node device dictionary (migration 0002). kind: 1 interface, 2 disk IO, 3 disk usage,
 * 4 disk temperature. alt: mountpoint (usage) or device path (temperature).
 */
export interface MetricDevicesTable {
  id: Generated<number>;
  node_id: number;
  kind: number;
  name: string;
  ref: string;
  alt: string;
  first_seen_at: number;
  last_seen_at: number;
}

/**
 * Raw history (migration 0002), one row per stored report; host metrics are scaled integers and
 * per-device values a varint blob (see store/sqlite/metrics-codec.ts). Read through
 * store/sqlite/history-reader.ts, not column by column.
 */
export interface MetricsRawTable {
  node_id: number;
  received_at: number;
  devices: Uint8Array | null;
}

/** 15-minute and 1-hour rollups: id = node_id * 2^24 + bucket index (rollup-codec.ts). */
export interface MetricsRollupTable {
  id: number;
  data: Uint8Array;
}

export interface MetricsJobsTable {
  name: string;
  watermark: number;
}

/** Shared rate-limit counters (PostgreSQL with several instances; migration 0014). */
export interface RateLimitHitsTable {
  scope: string;
  key: string;
  window_start: number;
  hits: number;
}

/** When each shared job last started on any instance (PostgreSQL; migration 0014). */
export interface JobRunsTable {
  name: string;
  started_at: number;
}

export interface Database {
  settings: SettingsTable;
  groups: GroupsTable;
  nodes: NodesTable;
  node_groups: NodeGroupsTable;
  sessions: SessionsTable;
  uptime_minute: UptimeMinuteTable;
  uptime_hour: UptimeHourTable;
  uptime_day: UptimeDayTable;
  node_current: NodeCurrentTable;
  metric_devices: MetricDevicesTable;
  metrics_raw: MetricsRawTable;
  metrics_15m: MetricsRollupTable;
  metrics_1h: MetricsRollupTable;
  metrics_jobs: MetricsJobsTable;
  rate_limit_hits: RateLimitHitsTable;
  job_runs: JobRunsTable;
}
