import type {
  NodeReport,
  ReportDiskBaseIo,
  ReportDiskLogical,
  ReportDiskPhysical,
  ReportMetrics,
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
  physical.forEach((d, i) => checkPhysical(d, i));
  checkNames(physical, LIMITS.diskName, 'disk.physical');
  logical.forEach((d, i) => checkLogical(d, i));
  checkNames(logical, LIMITS.diskName, 'disk.logical');
  filesystems.forEach((f, i) => checkFilesystem(f, i));
  baseIo.forEach((d, i) => checkBaseIo(d, i));
  checkNames(baseIo, LIMITS.diskName, 'disk.base_io');
  network.forEach((n, i) => checkNetwork(n, i));
  checkNames(network, LIMITS.iface, 'network');
  arrays.forEach((a, i) => checkRaidArray(a, i));
  if (disk.smart) checkSmart(disk.smart);
  if (m.thermal) checkThermal(m.thermal);
  if (m.pressure) {
    for (const res of ['cpu', 'memory', 'io'] as const) {
      const resource = m.pressure[res];
      checkPressure(resource?.some, `pressure.${res}.some`);
      checkPressure(resource?.full, `pressure.${res}.full`);
    }
  }
  return { version, hostname, reportedAt, metrics: m };
}

function checkHost(m: ReportMetrics): void {
  const cpu = m.cpu ?? {};
  r.ratio(cpu.usage_ratio, 'cpu.usage_ratio');
  for (const k of ['load1', 'load5', 'load15'] as const) r.nonNegative(cpu[k], `cpu.${k}`);
  const times = cpu.times ?? {};
  for (const k of ['user', 'system', 'idle', 'iowait', 'steal'] as const) {
    r.nonNegative(times[k], `cpu.times.${k}`);
  }
  const mem = m.memory ?? {};
  for (const k of [
    'total',
    'used',
    'available',
    'buffers',
    'cached',
    'swap_total',
    'swap_used',
    'swap_free',
  ] as const) {
    r.nonNegative(mem[k], `memory.${k}`);
  }
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
  items.forEach((item, i) => {
    r.unique(seen, r.required(item.name, max, `${what}[${i}].name`), `${what} name`);
  });
}

function checkIoRates(
  d: {
    read_rate_bytes_per_sec?: number;
    write_rate_bytes_per_sec?: number;
    iops?: number;
    read_iops?: number;
    write_iops?: number;
    util_ratio?: number;
    queue_length?: number;
    wait_ms?: number;
    service_ms?: number;
    read_bytes?: number;
    write_bytes?: number;
  },
  at: string,
): void {
  for (const k of [
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
  ] as const) {
    r.nonNegative(d[k], `${at}.${k}`);
  }
  r.ratio(d.util_ratio, `${at}.util_ratio`);
  if (!Number.isFinite((d.read_iops ?? 0) + (d.write_iops ?? 0))) {
    r.fail(`${at}: read_iops + write_iops overflows`);
  }
}

function checkPhysical(d: ReportDiskPhysical, i: number): void {
  r.maxLength(d.ref, LIMITS.diskRef, `disk.physical[${i}].ref`);
  checkIoRates(d, `disk.physical[${i}]`);
}

function checkLogical(d: ReportDiskLogical, i: number): void {
  const at = `disk.logical[${i}]`;
  r.required(d.kind, LIMITS.diskKind, `${at}.kind`);
  r.maxLength(d.ref, LIMITS.diskRef, `${at}.ref`);
  r.maxLength(d.health, LIMITS.logicalState, `${at}.health`);
  r.maxLength(d.level, LIMITS.logicalState, `${at}.level`);
  for (const k of ['total', 'used', 'free'] as const) r.nonNegative(d[k], `${at}.${k}`);
  // Doubles cannot tell 2^63 - 1 from 2^63; borderline sums are accepted, never refused.
  if (!d.total && (d.used ?? 0) + (d.free ?? 0) > 2 ** 63) r.fail(`${at}: used + free overflows`);
  r.ratio(d.used_ratio, `${at}.used_ratio`);
  for (const [mount, stats] of Object.entries(d.mountpoints ?? {})) {
    const mat = `${at}.mountpoints["${mount}"]`;
    r.maxLength(stats.fs_type, LIMITS.fsType, `${mat}.fs_type`);
    for (const k of ['inodes_total', 'inodes_used', 'inodes_free'] as const) {
      r.nonNegative(stats[k], `${mat}.${k}`);
    }
    r.ratio(stats.inodes_used_ratio, `${mat}.inodes_used_ratio`);
  }
}

function checkFilesystem(
  f: {
    path?: string;
    fs_type?: string;
    used_ratio?: number;
    inodes_used_ratio?: number;
  } & Partial<
    Record<'total' | 'used' | 'free' | 'inodes_total' | 'inodes_used' | 'inodes_free', number>
  >,
  i: number,
): void {
  const at = `disk.filesystems[${i}]`;
  r.required(f.path, undefined, `${at}.path`);
  r.maxLength(f.fs_type, LIMITS.fsType, `${at}.fs_type`);
  for (const k of [
    'total',
    'used',
    'free',
    'inodes_total',
    'inodes_used',
    'inodes_free',
  ] as const) {
    r.nonNegative(f[k], `${at}.${k}`);
  }
  r.ratio(f.used_ratio, `${at}.used_ratio`);
  r.ratio(f.inodes_used_ratio, `${at}.inodes_used_ratio`);
}

function checkBaseIo(d: ReportDiskBaseIo, i: number): void {
  const at = `disk.base_io[${i}]`;
  r.required(d.kind, LIMITS.diskKind, `${at}.kind`);
  r.maxLength(d.ref, LIMITS.diskRef, `${at}.ref`);
  r.maxLength(d.role, LIMITS.diskRole, `${at}.role`);
  checkIoRates(d, at);
}

function checkNetwork(
  n: Partial<Record<string, number | string | undefined>> & { name?: string },
  i: number,
): void {
  const at = `network[${i}]`;
  for (const k of [
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
  ]) {
    r.nonNegative(n[k] as number | undefined, `${at}.${k}`);
  }
}

function checkRaidArray(a: ReportRaidArray, i: number): void {
  const at = `raid.arrays[${i}]`;
  r.required(a.name, undefined, `${at}.name`);
  r.required(a.status, undefined, `${at}.status`);
  r.required(a.health, LIMITS.raidHealth, `${at}.health`);
  const members = r.present(a.members, `${at}.members`);
  for (const k of ['active', 'working', 'failed'] as const) r.nonNegative(a[k], `${at}.${k}`);
  members.forEach((m, j) => {
    r.required(m.name, undefined, `${at}.members[${j}].name`);
    r.required(m.state, undefined, `${at}.members[${j}].state`);
  });
}

function checkSmart(s: ReportSmart): void {
  r.required(s.status, undefined, 'disk.smart.status');
  if (s.updated_at) parseTimestamp(s.updated_at, 'disk.smart.updated_at');
  const devices = r.present(s.devices, 'disk.smart.devices');
  devices.forEach((d, i) => {
    const at = `disk.smart.devices[${i}]`;
    r.required(d.name, LIMITS.diskName, `${at}.name`);
    r.maxLength(d.ref, LIMITS.diskRef, `${at}.ref`);
    r.required(d.source, undefined, `${at}.source`);
    r.required(d.status, undefined, `${at}.status`);
  });
}

function checkThermal(t: ReportThermal): void {
  r.required(t.status, undefined, 'thermal.status');
  if (t.updated_at) parseTimestamp(t.updated_at, 'thermal.updated_at');
  const sensors = r.present(t.sensors, 'thermal.sensors');
  sensors.forEach((s, i) => {
    for (const k of ['kind', 'name', 'sensor_key', 'source', 'status'] as const) {
      r.required(s[k], undefined, `thermal.sensors[${i}].${k}`);
    }
  });
}

function checkPressure(stats: ReportPressureStats | null | undefined, at: string): void {
  if (!stats) return;
  r.percent(stats.avg10, `${at}.avg10`);
  r.percent(stats.avg60, `${at}.avg60`);
  r.percent(stats.avg300, `${at}.avg300`);
  r.nonNegative(stats.total, `${at}.total`);
}
