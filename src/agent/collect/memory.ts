import { join } from 'node:path';
import type { MemoryMetrics } from '../payload.js';
import type { HostPaths } from './host-paths.js';
import { readText } from './read.js';
import { clampRatio } from './rate.js';

/** /proc/meminfo as bytes per key (the kernel prints kB). */
export function parseMeminfo(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([^:]+):\s+(\d+)(?:\s+kB)?\s*$/.exec(line);
    if (!m) continue;
    const value = Number(m[2]);
    out.set(m[1]!, line.trimEnd().endsWith('kB') ? value * 1024 : value);
  }
  return out;
}

export interface MemoryTotals {
  total: number;
  swapTotal: number;
}

export interface MemorySnapshot extends MemoryTotals {
  metrics: MemoryMetrics;
}

/**
 * Memory as `free` (procps-ng ≥ 3.3.10) shows it: used = total − available, cache = Cached +
 * SReclaimable. Kernels before 3.14 have no MemAvailable; it is then estimated the way `free`
 * does, from free + page cache + reclaimable slab.
 */
export function memoryFromMeminfo(info: Map<string, number>): MemorySnapshot | undefined {
  const total = info.get('MemTotal');
  const free = info.get('MemFree');
  if (total === undefined || free === undefined || total <= 0) return undefined;
  const buffers = info.get('Buffers') ?? 0;
  const cached = (info.get('Cached') ?? 0) + (info.get('SReclaimable') ?? 0);
  const available = Math.min(total, info.get('MemAvailable') ?? free + buffers + cached);
  const used = Math.max(0, total - available);
  const swapTotal = info.get('SwapTotal') ?? 0;
  const swapFree = Math.min(swapTotal, info.get('SwapFree') ?? swapTotal);
  const swapUsed = Math.max(0, swapTotal - swapFree);
  return {
    total,
    swapTotal,
    metrics: {
      used,
      available,
      buffers,
      cached,
      swap_used: swapUsed,
      swap_free: swapFree,
      used_ratio: clampRatio(used / total),
      swap_used_ratio: swapTotal > 0 ? clampRatio(swapUsed / swapTotal) : 0,
    },
  };
}

export function readMemory(paths: HostPaths): MemorySnapshot | undefined {
  const text = readText(join(paths.proc, 'meminfo'));
  return text === undefined ? undefined : memoryFromMeminfo(parseMeminfo(text));
}
