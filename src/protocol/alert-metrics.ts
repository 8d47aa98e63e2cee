/**
 * Alertable metric names (reference §8.2), shared by the server's rule validation and the web
 * rules editor. PSI is deliberately not alertable.
 */
export const ALERT_METRICS = [
  'node.offline',
  'cpu.usage_ratio',
  'cpu.load1',
  'cpu.load5',
  'cpu.load15',
  'mem.used',
  'mem.used_ratio',
  'disk.usage.used_ratio',
  'disk.smart.failed',
  'disk.smart.nvme.critical_warning',
  'disk.smart.attribute_failing',
  'disk.smart.max_temp_c',
  'net.recv_bps',
  'net.sent_bps',
  'conn.tcp',
  'raid.failed',
  'thermal.max_temp_c',
] as const;

export type AlertMetric = (typeof ALERT_METRICS)[number];

export const ALERT_OPERATORS = ['>', '>=', '<', '<=', '==', '!='] as const;
export const ALERT_DURATIONS = [0, 60, 300] as const;
/** Metrics whose threshold may be relative to the core count (`core_plus`). */
export const CORE_PLUS_METRICS: readonly string[] = ['cpu.load1', 'cpu.load5', 'cpu.load15'];
