import type { UpdateManifest as WireManifest } from '../protocol/node-metrics-reply.js';
import type { NodeReport as WireNodeReport } from '../protocol/node-report.js';
import type { StaticReport as WireStaticReport } from '../protocol/static-report.js';

/**
 * Wire payloads the agent sends (reference §1.2–§1.3 NodeReport, §2.1 Static) and the update
 * manifest it receives (§1.6). Field names are the wire names. Optional numbers are left out when
 * the source is missing; they are never sent as a stand-in 0.
 */

export interface CpuTimes {
  user: number;
  system: number;
  idle: number;
  iowait: number;
  steal: number;
}

export interface CpuMetrics {
  usage_ratio: number;
  load1: number;
  load5: number;
  load15: number;
  times: CpuTimes;
}

export interface MemoryMetrics {
  used: number;
  available: number;
  buffers: number;
  cached: number;
  swap_used: number;
  swap_free: number;
  used_ratio: number;
  swap_used_ratio: number;
}

export interface NetworkInterface {
  name: string;
  bytes_recv: number;
  bytes_sent: number;
  packets_recv: number;
  packets_sent: number;
  err_in: number;
  err_out: number;
  drop_in: number;
  drop_out: number;
  recv_rate_bytes_per_sec: number;
  sent_rate_bytes_per_sec: number;
  recv_rate_packets_per_sec: number;
  sent_rate_packets_per_sec: number;
}

export interface PhysicalDisk {
  name: string;
  device_path?: string;
  ref?: string;
  read_bytes: number;
  write_bytes: number;
  read_rate_bytes_per_sec: number;
  write_rate_bytes_per_sec: number;
  iops: number;
  read_iops: number;
  write_iops: number;
  util_ratio: number;
  queue_length: number;
  wait_ms: number;
  service_ms: number;
}

export interface MountpointInfo {
  fs_type?: string;
  inodes_total?: number;
  inodes_used?: number;
  inodes_free?: number;
  inodes_used_ratio?: number;
}

export interface LogicalDisk {
  kind: string;
  name: string;
  device_path?: string;
  ref?: string;
  used: number;
  free: number;
  total?: number;
  used_ratio: number;
  health?: string;
  level?: string;
  mountpoint?: string;
  mountpoints?: Record<string, MountpointInfo>;
  devices?: string[];
}

export interface Filesystem {
  path: string;
  device?: string;
  mountpoint?: string;
  used: number;
  free: number;
  total?: number;
  used_ratio: number;
  inodes_used: number;
  inodes_free: number;
  inodes_total?: number;
  inodes_used_ratio: number;
  fs_type?: string;
}

export interface BaseIo {
  kind: string;
  name: string;
  device_path?: string;
  ref?: string;
  role?: string;
  read_rate_bytes_per_sec: number;
  write_rate_bytes_per_sec: number;
  read_iops: number;
  write_iops: number;
  iops: number;
  read_bytes?: number;
  write_bytes?: number;
  util_ratio?: number;
  queue_length?: number;
  wait_ms?: number;
  service_ms?: number;
}

export interface DiskMetrics {
  physical: PhysicalDisk[];
  logical: LogicalDisk[];
  filesystems: Filesystem[];
  base_io: BaseIo[];
}

export interface SystemMetrics {
  alive: boolean;
  uptime_seconds: number;
  uptime: string;
}

export interface RaidMember {
  name: string;
  state: string;
}

export interface RaidArray {
  name: string;
  status: string;
  health: string;
  active: number;
  working: number;
  failed: number;
  members: RaidMember[];
  sync_status?: string;
  sync_progress?: string;
}

export interface RaidMetrics {
  supported: boolean;
  available: boolean;
  arrays: RaidArray[];
}

export interface ThermalSensor {
  kind: string;
  name: string;
  sensor_key: string;
  source: string;
  status: string;
  temp_c?: number;
  high_c?: number;
  critical_c?: number;
}

export interface ThermalMetrics {
  status: string;
  updated_at?: string;
  sensors: ThermalSensor[];
}

export interface PressureStats {
  avg10: number;
  avg60: number;
  avg300: number;
  total: number;
}

export interface PressureResource {
  status?: string;
  some?: PressureStats;
  full?: PressureStats;
}

export interface PressureMetrics {
  cpu?: PressureResource;
  memory?: PressureResource;
  io?: PressureResource;
}

export interface Metrics {
  cpu: CpuMetrics;
  memory: MemoryMetrics;
  disk: DiskMetrics;
  network: NetworkInterface[];
  system: SystemMetrics;
  processes: { process_count: number };
  connections: { tcp_count: number; udp_count: number };
  raid: RaidMetrics;
  thermal?: ThermalMetrics;
  pressure?: PressureMetrics;
}

/** Body of POST …/metrics. */
export interface NodeReport {
  version: string;
  hostname: string;
  timestamp: string;
  metrics: Metrics;
}

export interface StaticCpuInfo {
  model_name?: string;
  vendor_id?: string;
  sockets?: number;
  cores_physical?: number;
  cores_logical?: number;
  frequency_mhz?: number;
}

export interface StaticSystem {
  hostname: string;
  os: string;
  platform: string;
  platform_version: string;
  kernel_version: string;
  arch: string;
}

export interface StaticLogicalDisk {
  kind: string;
  name: string;
  device_path?: string;
  ref?: string;
  total?: number;
  level?: string;
  mountpoint?: string;
  mountpoints?: Record<string, MountpointInfo>;
  devices?: string[];
}

export interface StaticFilesystem {
  path: string;
  device?: string;
  mountpoint?: string;
  total: number;
  fs_type: string;
  inodes_total: number;
}

export interface StaticRaidArray {
  name: string;
  level: string;
  devices: number;
  members?: { name: string }[];
}

/** Body of POST …/static (no wrapper object). */
export interface StaticReport {
  version: string;
  timestamp: string;
  report_interval_seconds: number;
  cpu: { info: StaticCpuInfo };
  memory: { total?: number; swap_total?: number };
  system: StaticSystem;
  disk: {
    physical: { name: string; device_path?: string; ref?: string }[];
    logical: StaticLogicalDisk[];
    filesystems: StaticFilesystem[];
    base_io: { kind: string; name: string; device_path?: string; ref?: string; role?: string }[];
  };
  raid: { supported: boolean; available: boolean; arrays: StaticRaidArray[] };
}

/** `update` of the metrics response (§1.6): the wire model's, with `id` optional here. */
export type UpdateManifest = Omit<WireManifest, 'id'> & { id?: string };

type Conforms<A extends B, B> = A;
/**
 * The agent's payloads checked against the server's wire model (src/protocol, imported for
 * types only, so nothing of the server enters the bundle): tsc fails here if they drift.
 */
export type WireConformance = [
  Conforms<NodeReport, WireNodeReport>,
  Conforms<StaticReport, WireStaticReport>,
];
