import type { NodeView } from '../../protocol/front-view.js';

import {
  ALERT_METRICS,
  CORE_PLUS_METRICS as CORE_PLUS_LIST,
  type AlertMetric,
} from '../../protocol/alert-metrics.js';

export { ALERT_METRICS, type AlertMetric };

const METRIC_SET: ReadonlySet<string> = new Set(ALERT_METRICS);

export function isAlertMetric(name: string): name is AlertMetric {
  return METRIC_SET.has(name);
}

/** Metrics whose threshold may be relative to the core count (`core_plus`). */
export const CORE_PLUS_METRICS: ReadonlySet<string> = new Set(CORE_PLUS_LIST);

/** Logical cores, else physical cores, else 0: the base of a `core_plus` threshold. */
export function coreCount(view: NodeView): number {
  return view.cpu.cores_logical ?? view.cpu.cores_physical ?? 0;
}

function maxOf(values: Iterable<number | undefined>): number | undefined {
  let out: number | undefined;
  for (const v of values) if (v !== undefined && (out === undefined || v > out)) out = v;
  return out;
}

function rootOrLargestMountRatio(view: NodeView): number | undefined {
  const mounts = view.disk.mounts;
  if (mounts.length === 0) return undefined;
  const root = mounts.find((m) => m.mountpoint === '/');
  if (root) return root.used_ratio;
  let largest = mounts[0]!;
  for (const m of mounts) if (m.total_bytes > largest.total_bytes) largest = m;
  return largest.used_ratio;
}

function raidFailed(view: NodeView): number | undefined {
  const raid = view.raid;
  if (!raid || !raid.available) return undefined;
  let sum = 0;
  for (const a of raid.arrays) sum += a.failed > 0 ? a.failed : a.health !== 'healthy' ? 1 : 0;
  return sum;
}

/**
 * The metric's value in a node's front view, or undefined for "no value" (the rule then keeps
 * its firing state and does nothing else). `node.offline` is not read from a view: the
 * evaluator derives it from receive times.
 */
export function metricValue(metric: AlertMetric, view: NodeView): number | undefined {
  const smart = view.disk.smart;
  switch (metric) {
    case 'node.offline':
      return undefined;
    case 'cpu.usage_ratio':
      return view.cpu.usage_ratio;
    case 'cpu.load1':
      return view.cpu.load.l1;
    case 'cpu.load5':
      return view.cpu.load.l5;
    case 'cpu.load15':
      return view.cpu.load.l15;
    case 'mem.used':
      return view.memory.used_bytes;
    case 'mem.used_ratio':
      return view.memory.used_ratio;
    case 'disk.usage.used_ratio':
      return rootOrLargestMountRatio(view);
    case 'disk.smart.failed':
      return smart ? smart.devices.filter((d) => d.health === 'failed').length : undefined;
    case 'disk.smart.nvme.critical_warning': {
      const reporting = smart?.devices.filter((d) => d.critical_warning !== undefined) ?? [];
      if (reporting.length === 0) return undefined;
      return reporting.filter((d) => d.critical_warning !== 0).length;
    }
    case 'disk.smart.attribute_failing': {
      const withAttrs = smart?.devices.filter((d) => d.failing_attrs !== undefined) ?? [];
      if (withAttrs.length === 0) return undefined;
      let n = 0;
      for (const d of withAttrs)
        for (const a of d.failing_attrs ?? []) if (a.when_failed === 'FAILING_NOW') n++;
      return n;
    }
    case 'disk.smart.max_temp_c':
      return maxOf(smart?.devices.map((d) => d.temp_c) ?? []);
    case 'net.recv_bps':
      return view.network.total.recv_bps;
    case 'net.sent_bps':
      return view.network.total.sent_bps;
    case 'conn.tcp':
      return view.connections.tcp;
    case 'raid.failed':
      return raidFailed(view);
    case 'thermal.max_temp_c':
      return maxOf(view.thermal?.sensors.map((s) => s.temp_c) ?? []);
  }
}
