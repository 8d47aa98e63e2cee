import type {
  NodeReport,
  ReportDiskBaseIo,
  ReportDiskLogical,
  ReportDiskPhysical,
  ReportMetrics,
  ReportNetwork,
  ReportPressureStats,
  ReportRaidArray,
  ReportSmart,
  ReportThermal,
} from '../../protocol/node-report.js';
import { LIMITS, RuleChecker, parseTimestamp } from './rules.js';

const r = new RuleChecker('invalid_metrics');

/** What validation extracts for later steps. */
export interface ValidatedReport {
  version: string;
  hostname: string;
  reportedAt: number;
  metrics: ReportMetrics;
}

const CPU_LOADS = ['load1', 'load5', 'load15'] as const;
const CPU_TIMES = ['user', 'system', 'idle', 'iowait', 'steal'] as const;
const MEMORY_BYTES = [
  'total',
  'used',
  'available',
  'buffers',
  'cached',
  'swap_total',
  'swap_used',
  'swap_free',
] as const;
const IO_VALUES = [
  'read_rate_bytes_per_sec',
  'write_rate_bytes_per_sec',
  'iops',
  'read_iops',
  'write_iops',
  'queue_length',
  'wait_ms',
  'service_ms',
  'read_bytes',
  'write_bytes',
] as const;
const CAPACITY = ['total', 'used', 'free'] as const;
const INODES = ['inodes_total', 'inodes_used', 'inodes_free'] as const;
const FILESYSTEM_COUNTS = ['total', 'used', 'free', ...INODES] as const;
const NETWORK_VALUES = [
  'bytes_recv',
  'bytes_sent',
  'packets_recv',
  'packets_sent',
  'err_in',
  'err_out',
  'drop_in',
  'drop_out',
  'recv_rate_bytes_per_sec',
  'sent_rate_bytes_per_sec',
  'recv_rate_packets_per_sec',
  'sent_rate_packets_per_sec',
] as const;
const RAID_COUNTS = ['active', 'working', 'failed'] as const;
const SENSOR_TEXT = ['kind', 'name', 'sensor_key', 'source', 'status'] as const;
const PSI_AVERAGES = ['avg10', 'avg60', 'avg300'] as const;
const PSI_RESOURCES = ['cpu', 'memory', 'io'] as const;

/**
 * Value rules of reference §1.3/§1.4 for a report that already passed the wire schema. The first
 * failure throws 422 invalid_metrics. A report a real agent sends always passes: absent optional
 * numbers count as zero, exactly as the agent's own decoder treats them.
 */
export function validateMetricsReport(report: NodeReport): ValidatedReport {
  const version = r.version(report.version);
  const hostname = r.required(report.hostname, LIMITS.hostname, 'hostname');
  const reportedAt = r.timestamp(report.timestamp, 'timestamp');
  const m = report.metrics ?? {};
  const disk = m.disk ?? {};
  const physical = r.present(disk.physical, 'metrics.disk.physical');
  const logical = r.present(disk.logical, 'metrics.disk.logical');
  const filesystems = r.present(disk.filesystems, 'metrics.disk.filesystems');
  const baseIo = r.present(disk.base_io, 'metrics.disk.base_io');
  const network = r.present(m.network, 'metrics.network');
  const arrays = r.present(m.raid?.arrays, 'metrics.raid.arrays');
  r.required(m.system?.uptime, undefined, 'metrics.system.uptime');

  checkHost(m);
  for (let i = 0; i < physical.length; i++) checkPhysical(physical[i] as ReportDiskPhysical, i);
  checkNames(physical, LIMITS.diskName, 'disk.physical');
  for (let i = 0; i < logical.length; i++) checkLogical(logical[i] as ReportDiskLogical, i);
  checkNames(logical, LIMITS.diskName, 'disk.logical');
  for (let i = 0; i < filesystems.length; i++) {
    const f = filesystems[i] as NonNullable<typeof filesystems>[number];
    r.required(f.path, undefined, 'disk.filesystems', i, 'path');
    r.maxLength(f.fs_type, LIMITS.fsType, 'disk.filesystems', i, 'fs_type');
    r.nonNegativeFields(f, FILESYSTEM_COUNTS, 'disk.filesystems', i);
    r.ratio(f.used_ratio, 'disk.filesystems', i, 'used_ratio');
    r.ratio(f.inodes_used_ratio, 'disk.filesystems', i, 'inodes_used_ratio');
  }
  for (let i = 0; i < baseIo.length; i++) checkBaseIo(baseIo[i] as ReportDiskBaseIo, i);
  checkNames(baseIo, LIMITS.diskName, 'disk.base_io');
  for (let i = 0; i < network.length; i++) {
    r.nonNegativeFields(network[i] as ReportNetwork, NETWORK_VALUES, 'network', i);
  }
  checkNames(network, LIMITS.iface, 'network');
  for (let i = 0; i < arrays.length; i++) checkRaidArray(arrays[i] as ReportRaidArray, i);
  if (disk.smart) checkSmart(disk.smart);
  if (m.thermal) checkThermal(m.thermal);
  if (m.pressure) {
    for (const res of PSI_RESOURCES) {
      const resource = m.pressure[res];
      if (!resource) continue;
      checkPressure(resource.some, res, 'some');
      checkPressure(resource.full, res, 'full');
    }
  }
  return { version, hostname, reportedAt, metrics: m };
}

function checkHost(m: ReportMetrics): void {
  const cpu = m.cpu ?? {};
  r.ratio(cpu.usage_ratio, 'cpu.usage_ratio');
  r.nonNegativeFields(cpu, CPU_LOADS, 'cpu');
  if (cpu.times) r.nonNegativeFields(cpu.times, CPU_TIMES, 'cpu.times');
  const mem = m.memory ?? {};
  r.nonNegativeFields(mem, MEMORY_BYTES, 'memory');
  r.ratio(mem.used_ratio, 'memory.used_ratio');
  r.ratio(mem.swap_used_ratio, 'memory.swap_used_ratio');
  r.nonNegative(m.system?.uptime_seconds, 'system.uptime_seconds');
  r.nonNegative(m.processes?.process_count, 'processes.process_count');
  r.nonNegative(m.connections?.tcp_count, 'connections.tcp_count');
  r.nonNegative(m.connections?.udp_count, 'connections.udp_count');
}

/** Names are required, trimmed, bounded and unique within their array. */
function checkNames(items: ReadonlyArray<{ name?: string }>, max: number, what: string): void {
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    r.unique(seen, r.required(items[i]?.name, max, what, i, 'name'), `${what} name`);
  }
}

function checkIoRates(d: ReportDiskPhysical | ReportDiskBaseIo, section: string, i: number): void {
  r.nonNegativeFields(d, IO_VALUES, section, i);
  r.ratio(d.util_ratio, section, i, 'util_ratio');
  if (!Number.isFinite((d.read_iops ?? 0) + (d.write_iops ?? 0))) {
    r.fail(`${section}[${i}]: read_iops + write_iops overflows`);
  }
}

function checkPhysical(d: ReportDiskPhysical, i: number): void {
  r.maxLength(d.ref, LIMITS.diskRef, 'disk.physical', i, 'ref');
  checkIoRates(d, 'disk.physical', i);
}

function checkLogical(d: ReportDiskLogical, i: number): void {
  const s = 'disk.logical';
  r.required(d.kind, LIMITS.diskKind, s, i, 'kind');
  r.maxLength(d.ref, LIMITS.diskRef, s, i, 'ref');
  r.maxLength(d.health, LIMITS.logicalState, s, i, 'health');
  r.maxLength(d.level, LIMITS.logicalState, s, i, 'level');
  r.nonNegativeFields(d, CAPACITY, s, i);
  // Doubles cannot tell 2^63 - 1 from 2^63; borderline sums are accepted, never refused.
  if (!d.total && (d.used ?? 0) + (d.free ?? 0) > 2 ** 63)
    r.fail(`${s}[${i}]: used + free overflows`);
  r.ratio(d.used_ratio, s, i, 'used_ratio');
  if (!d.mountpoints) return;
  for (const mount in d.mountpoints) {
    const stats = d.mountpoints[mount];
    if (!stats) continue;
    const where = `${s}[${i}].mountpoints["${mount}"]`;
    r.maxLength(stats.fs_type, LIMITS.fsType, where, undefined, 'fs_type');
    r.nonNegativeFields(stats, INODES, where);
    r.ratio(stats.inodes_used_ratio, where, undefined, 'inodes_used_ratio');
  }
}

function checkBaseIo(d: ReportDiskBaseIo, i: number): void {
  r.required(d.kind, LIMITS.diskKind, 'disk.base_io', i, 'kind');
  r.maxLength(d.ref, LIMITS.diskRef, 'disk.base_io', i, 'ref');
  r.maxLength(d.role, LIMITS.diskRole, 'disk.base_io', i, 'role');
  checkIoRates(d, 'disk.base_io', i);
}

function checkRaidArray(a: ReportRaidArray, i: number): void {
  const s = 'raid.arrays';
  r.required(a.name, undefined, s, i, 'name');
  r.required(a.status, undefined, s, i, 'status');
  r.required(a.health, LIMITS.raidHealth, s, i, 'health');
  const members = r.present(a.members, `${s}[${i}].members`);
  r.nonNegativeFields(a, RAID_COUNTS, s, i);
  for (let j = 0; j < members.length; j++) {
    const m = members[j] as (typeof members)[number];
    r.required(m.name, undefined, `${s}[${i}].members`, j, 'name');
    r.required(m.state, undefined, `${s}[${i}].members`, j, 'state');
  }
}

function checkSmart(s: ReportSmart): void {
  r.required(s.status, undefined, 'disk.smart.status');
  if (s.updated_at) parseTimestamp(s.updated_at, 'disk.smart.updated_at');
  const devices = r.present(s.devices, 'disk.smart.devices');
  for (let i = 0; i < devices.length; i++) {
    const d = devices[i] as (typeof devices)[number];
    r.required(d.name, LIMITS.diskName, 'disk.smart.devices', i, 'name');
    r.maxLength(d.ref, LIMITS.diskRef, 'disk.smart.devices', i, 'ref');
    r.required(d.source, undefined, 'disk.smart.devices', i, 'source');
    r.required(d.status, undefined, 'disk.smart.devices', i, 'status');
  }
}

function checkThermal(t: ReportThermal): void {
  r.required(t.status, undefined, 'thermal.status');
  if (t.updated_at) parseTimestamp(t.updated_at, 'thermal.updated_at');
  const sensors = r.present(t.sensors, 'thermal.sensors');
  for (let i = 0; i < sensors.length; i++) {
    const sensor = sensors[i] as (typeof sensors)[number];
    for (const k of SENSOR_TEXT) r.required(sensor[k], undefined, 'thermal.sensors', i, k);
  }
}

function checkPressure(
  stats: ReportPressureStats | null | undefined,
  res: string,
  kind: 'some' | 'full',
): void {
  if (!stats) return;
  for (const k of PSI_AVERAGES) r.percent(stats[k], `pressure.${res}.${kind}`, undefined, k);
  r.nonNegative(stats.total, `pressure.${res}.${kind}`, undefined, 'total');
}
