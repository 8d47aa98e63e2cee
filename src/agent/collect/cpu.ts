import { join } from 'node:path';
import type { CpuMetrics, CpuTimes } from '../payload.js';
import type { HostPaths } from './host-paths.js';
import { fields, readText } from './read.js';
import { clampRatio, counterDelta } from './rate.js';

/** Aggregate jiffies of the `cpu` line of /proc/stat. Fields a kernel predates read as 0. */
export interface CpuCounters {
  user: number;
  nice: number;
  system: number;
  idle: number;
  iowait: number;
  irq: number;
  softirq: number;
  steal: number;
}

/**
 * Parses the aggregate line. Kernels add columns over time (iowait/irq/softirq 2.6.0, steal
 * 2.6.11, guest 2.6.24, guest_nice 2.6.33); guest time is already inside user/nice, so it is not
 * added again.
 */
export function parseProcStat(text: string): CpuCounters | undefined {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return undefined;
  const v = fields(line)
    .slice(1)
    .map((f) => Number(f));
  if (v.length < 4 || v.some((n) => !Number.isFinite(n))) return undefined;
  const at = (i: number): number => v[i] ?? 0;
  return {
    user: at(0),
    nice: at(1),
    system: at(2),
    idle: at(3),
    iowait: at(4),
    irq: at(5),
    softirq: at(6),
    steal: at(7),
  };
}

export function readCpuCounters(paths: HostPaths): CpuCounters | undefined {
  const text = readText(join(paths.proc, 'stat'));
  return text === undefined ? undefined : parseProcStat(text);
}

/**
 * Busy share and time split between two samples, as ratios of the elapsed jiffies. iowait is
 * idle time (the CPU was free to run something else), so it does not count as busy; each column
 * delta is clamped at 0 because some kernels let iowait step backwards.
 */
export function cpuUsage(
  prev: CpuCounters,
  cur: CpuCounters,
): Pick<CpuMetrics, 'usage_ratio'> & {
  times: CpuTimes;
} {
  const d = {
    user: counterDelta(prev.user, cur.user) + counterDelta(prev.nice, cur.nice),
    system:
      counterDelta(prev.system, cur.system) +
      counterDelta(prev.irq, cur.irq) +
      counterDelta(prev.softirq, cur.softirq),
    idle: counterDelta(prev.idle, cur.idle),
    iowait: counterDelta(prev.iowait, cur.iowait),
    steal: counterDelta(prev.steal, cur.steal),
  };
  const total = d.user + d.system + d.idle + d.iowait + d.steal;
  if (total <= 0) {
    return { usage_ratio: 0, times: { user: 0, system: 0, idle: 0, iowait: 0, steal: 0 } };
  }
  const share = (n: number): number => clampRatio(n / total);
  return {
    usage_ratio: share(d.user + d.system + d.steal),
    times: {
      user: share(d.user),
      system: share(d.system),
      idle: share(d.idle),
      iowait: share(d.iowait),
      steal: share(d.steal),
    },
  };
}

export interface LoadAverage {
  load1: number;
  load5: number;
  load15: number;
}

export function parseLoadavg(text: string): LoadAverage | undefined {
  const [a, b, c] = fields(text).map((f) => Number(f));
  if (a === undefined || b === undefined || c === undefined) return undefined;
  if (![a, b, c].every((n) => Number.isFinite(n) && n >= 0)) return undefined;
  return { load1: a, load5: b, load15: c };
}

export function readLoad(paths: HostPaths): LoadAverage | undefined {
  const text = readText(join(paths.proc, 'loadavg'));
  return text === undefined ? undefined : parseLoadavg(text);
}
