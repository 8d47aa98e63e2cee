import { join } from 'node:path';
import type { PressureMetrics, PressureResource, PressureStats } from '../payload.js';
import type { HostPaths } from './host-paths.js';
import { readText } from './read.js';

/** Parses one /proc/pressure/<resource> file ("some avg10=… avg60=… avg300=… total=…"). */
export function parsePressure(text: string): PressureResource | undefined {
  const out: PressureResource = {};
  for (const line of text.split('\n')) {
    const m = /^(some|full)\s+avg10=([\d.]+)\s+avg60=([\d.]+)\s+avg300=([\d.]+)\s+total=(\d+)/.exec(
      line.trim(),
    );
    if (!m) continue;
    const stats: PressureStats = {
      avg10: Number(m[2]),
      avg60: Number(m[3]),
      avg300: Number(m[4]),
      total: Number(m[5]),
    };
    const valid = [stats.avg10, stats.avg60, stats.avg300].every(
      (v) => Number.isFinite(v) && v >= 0 && v <= 100,
    );
    if (valid) out[m[1] as 'some' | 'full'] = stats;
  }
  if (!out.some && !out.full) return undefined;
  return { status: 'ok', ...out };
}

/** PSI (Linux 4.20+, when enabled); undefined when the kernel exposes none. */
export function readPressure(paths: HostPaths): PressureMetrics | undefined {
  const out: PressureMetrics = {};
  for (const resource of ['cpu', 'memory', 'io'] as const) {
    const text = readText(join(paths.proc, 'pressure', resource));
    const parsed = text === undefined ? undefined : parsePressure(text);
    if (parsed) out[resource] = parsed;
  }
  return out.cpu || out.memory || out.io ? out : undefined;
}
