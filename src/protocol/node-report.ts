import { Type, type Static } from 'typebox';
import { diskLogicalMembers, int32, int64, nullable, num, opt, str, uint64 } from './wire-types.js';

/**
 * NodeReport, the body of POST /api/node/metrics (reference §1.2–§1.3). The schema checks JSON
 * types and integer ranges only; value rules live in domain/ingest/validate-metrics.ts.
 * Unknown fields are ignored, so newer agents keep working.
 */

const CpuSchema = Type.Object({
  usage_ratio: num(),
  load1: num(),
  load5: num(),
  load15: num(),
  times: opt(Type.Object({ user: num(), system: num(), idle: num(), iowait: num(), steal: num() })),
});

const MemorySchema = Type.Object({
  total: opt(int64()),
  used: opt(int64()),
  available: opt(int64()),
  buffers: opt(int64()),
  cached: opt(int64()),
  used_ratio: num(),
  swap_total: opt(int64()),
  swap_used: opt(int64()),
  swap_free: opt(int64()),
  swap_used_ratio: num(),
});

const DiskPhysicalSchema = Type.Object({
  name: str(),
  device_path: str(),
  ref: str(),
  read_bytes: opt(int64()),
  write_bytes: opt(int64()),
  read_rate_bytes_per_sec: num(),
  write_rate_bytes_per_sec: num(),
  iops: num(),
  read_iops: num(),
  write_iops: num(),
  util_ratio: num(),
  queue_length: num(),
  wait_ms: num(),
  service_ms: num(),
});

const DiskLogicalSchema = Type.Object(diskLogicalMembers);

const DiskFilesystemSchema = Type.Object({
  path: str(),
  device: str(),
  mountpoint: str(),
  total: opt(int64()),
  used: opt(int64()),
  free: opt(int64()),
  used_ratio: num(),
  fs_type: str(),
  inodes_total: opt(int64()),
  inodes_used: opt(int64()),
  inodes_free: opt(int64()),
  inodes_used_ratio: num(),
});

const DiskBaseIoSchema = Type.Object({
  kind: str(),
  name: str(),
  device_path: str(),
  ref: str(),
  role: str(),
  read_bytes: opt(int64()),
  write_bytes: opt(int64()),
  read_rate_bytes_per_sec: num(),
  write_rate_bytes_per_sec: num(),
  read_iops: num(),
  write_iops: num(),
  iops: num(),
  util_ratio: num(),
  queue_length: num(),
  wait_ms: num(),
  service_ms: num(),
});

const SmartAttrSchema = Type.Object({ id: opt(int64()), name: str(), when_failed: str() });

const SmartDeviceSchema = Type.Object({
  ref: str(),
  name: str(),
  device_path: str(),
  device_type: str(),
  protocol: str(),
  model: str(),
  serial: str(),
  wwn: str(),
  source: str(),
  status: str(),
  exit_status: nullable(int64()),
  health: nullable(Type.String()),
  temp_c: nullable(Type.Number()),
  power_on_hours: nullable(uint64()),
  lifetime_used_percent: nullable(Type.Number()),
  critical_warning: nullable(uint64()),
  media_errors: nullable(uint64()),
  failing_attrs: nullable(Type.Array(SmartAttrSchema)),
});

const SmartSchema = Type.Object({
  status: str(),
  updated_at: nullable(Type.String()),
  ttl_seconds: opt(int64()),
  devices: nullable(Type.Array(SmartDeviceSchema)),
});

const DiskSchema = Type.Object({
  physical: nullable(Type.Array(DiskPhysicalSchema)),
  logical: nullable(Type.Array(DiskLogicalSchema)),
  filesystems: nullable(Type.Array(DiskFilesystemSchema)),
  base_io: nullable(Type.Array(DiskBaseIoSchema)),
  smart: nullable(SmartSchema),
});

const NetworkSchema = Type.Object({
  name: str(),
  bytes_recv: opt(int64()),
  bytes_sent: opt(int64()),
  recv_rate_bytes_per_sec: num(),
  sent_rate_bytes_per_sec: num(),
  packets_recv: opt(int64()),
  packets_sent: opt(int64()),
  recv_rate_packets_per_sec: num(),
  sent_rate_packets_per_sec: num(),
  err_in: opt(int64()),
  err_out: opt(int64()),
  drop_in: opt(int64()),
  drop_out: opt(int64()),
});

const RaidArraySchema = Type.Object({
  name: str(),
  status: str(),
  active: opt(int64()),
  working: opt(int64()),
  failed: opt(int64()),
  health: str(),
  members: nullable(Type.Array(Type.Object({ name: str(), state: str() }))),
  sync_status: str(),
  sync_progress: str(),
});

const ThermalSensorSchema = Type.Object({
  kind: str(),
  name: str(),
  sensor_key: str(),
  source: str(),
  status: str(),
  temp_c: nullable(Type.Number()),
  high_c: nullable(Type.Number()),
  critical_c: nullable(Type.Number()),
});

const PressureStatsSchema = Type.Object({
  avg10: num(),
  avg60: num(),
  avg300: num(),
  total: opt(int64()),
});

const PressureResourceSchema = Type.Object({
  /** The agent's collection state; Dash ignores it (any value). */
  status: Type.Optional(Type.Unknown()),
  some: nullable(PressureStatsSchema),
  full: nullable(PressureStatsSchema),
});

const MetricsSchema = Type.Object({
  cpu: opt(CpuSchema),
  memory: opt(MemorySchema),
  disk: opt(DiskSchema),
  network: nullable(Type.Array(NetworkSchema)),
  system: opt(
    Type.Object({ alive: opt(Type.Boolean()), uptime_seconds: opt(int64()), uptime: str() }),
  ),
  processes: opt(Type.Object({ process_count: opt(int32()) })),
  connections: opt(Type.Object({ tcp_count: opt(int32()), udp_count: opt(int32()) })),
  raid: opt(
    Type.Object({
      supported: opt(Type.Boolean()),
      available: opt(Type.Boolean()),
      arrays: nullable(Type.Array(RaidArraySchema)),
    }),
  ),
  thermal: nullable(
    Type.Object({
      status: str(),
      updated_at: nullable(Type.String()),
      sensors: nullable(Type.Array(ThermalSensorSchema)),
    }),
  ),
  pressure: nullable(
    Type.Object({
      cpu: nullable(PressureResourceSchema),
      memory: nullable(PressureResourceSchema),
      io: nullable(PressureResourceSchema),
    }),
  ),
});

export const NodeReportSchema = Type.Object({
  version: str(),
  hostname: str(),
  timestamp: str(),
  metrics: opt(MetricsSchema),
});

export type NodeReport = Static<typeof NodeReportSchema>;
export type ReportMetrics = Static<typeof MetricsSchema>;
export type ReportDiskPhysical = Static<typeof DiskPhysicalSchema>;
export type ReportDiskLogical = Static<typeof DiskLogicalSchema>;
export type ReportDiskBaseIo = Static<typeof DiskBaseIoSchema>;
export type ReportSmart = Static<typeof SmartSchema>;
export type ReportSmartDevice = Static<typeof SmartDeviceSchema>;
export type ReportNetwork = Static<typeof NetworkSchema>;
export type ReportRaidArray = Static<typeof RaidArraySchema>;
export type ReportThermal = NonNullable<ReportMetrics['thermal']>;
export type ReportThermalSensor = Static<typeof ThermalSensorSchema>;
export type ReportPressure = NonNullable<ReportMetrics['pressure']>;
export type ReportPressureResource = Static<typeof PressureResourceSchema>;
export type ReportPressureStats = Static<typeof PressureStatsSchema>;
