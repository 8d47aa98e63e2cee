/** The ranges and bucket aggregates GET /api/metrics/history takes (reference §4.5). */
export const HISTORY_RANGES = ['30m', '1h', '12h', '24h', '1w', '15d', '30d'] as const;
export const HISTORY_AGGS = ['avg', 'max', 'min', 'last'] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];
export type HistoryAgg = (typeof HISTORY_AGGS)[number];

/** Per-device history series: interface counters, disk IO, disk usage, disk temperature. */
export type DeviceKind = 'iface' | 'io' | 'usage' | 'temp';

/**
 * Every history metric of reference §4.5 and where it lives. Host metrics are one value per
 * report; device metrics are one value per device per report. The order of HOST_METRICS and of
 * each DEVICE_KINDS value list is the storage order, so only append.
 */

export const HOST_METRICS = [
  'cpu.usage_ratio',
  'cpu.load1',
  'cpu.load5',
  'cpu.load15',
  'cpu.temp_c',
  'mem.used',
  'mem.used_ratio',
  'proc.count',
  'net.recv_bps',
  'net.sent_bps',
  'conn.tcp',
  'conn.udp',
  'pressure.cpu.some_avg10',
  'pressure.cpu.some_avg60',
  'pressure.cpu.some_avg300',
  'pressure.memory.some_avg10',
  'pressure.memory.some_avg60',
  'pressure.memory.some_avg300',
  'pressure.memory.full_avg10',
  'pressure.memory.full_avg60',
  'pressure.memory.full_avg300',
  'pressure.io.some_avg10',
  'pressure.io.some_avg60',
  'pressure.io.some_avg300',
  'pressure.io.full_avg10',
  'pressure.io.full_avg60',
  'pressure.io.full_avg300',
  'cpu.iowait_ratio',
  'cpu.steal_ratio',
] as const;

export type HostMetric = (typeof HOST_METRICS)[number];

/**
 * Per-device series. `iface` (interface counters and rates) is kept for traffic accounting and
 * has no history metric of its own; the others back the disk.* metrics.
 */
export const DEVICE_KINDS = {
  iface: ['bytes_recv', 'bytes_sent', 'recv_bps', 'sent_bps'],
  io: ['read_bps', 'write_bps', 'read_iops', 'write_iops', 'iops'],
  usage: ['used', 'used_ratio'],
  temp: ['temp_c'],
} as const satisfies Record<DeviceKind, readonly string[]>;

export const DEVICE_METRICS = {
  'disk.read_bps': { kind: 'io', index: 0 },
  'disk.write_bps': { kind: 'io', index: 1 },
  'disk.read_iops': { kind: 'io', index: 2 },
  'disk.write_iops': { kind: 'io', index: 3 },
  'disk.iops': { kind: 'io', index: 4 },
  'disk.used': { kind: 'usage', index: 0 },
  'disk.used_ratio': { kind: 'usage', index: 1 },
  'disk.temp_c': { kind: 'temp', index: 0 },
} as const satisfies Record<string, { kind: DeviceKind; index: number }>;

export type DeviceMetric = keyof typeof DEVICE_METRICS;
export type HistoryMetric = HostMetric | DeviceMetric;

export function isHostMetric(m: string): m is HostMetric {
  return (HOST_METRICS as readonly string[]).includes(m);
}

export function isDeviceMetric(m: string): m is DeviceMetric {
  return Object.prototype.hasOwnProperty.call(DEVICE_METRICS, m);
}

/** Device metrics that need a device; disk.temp_c without one aggregates every physical disk. */
export function requiresDevice(m: DeviceMetric): boolean {
  return m !== 'disk.temp_c';
}
