import type { CycleWindow } from './cycle-bounds.js';
import type { DirectionMode, RawStats } from './stats.js';
import type { TrafficForecast } from '../../protocol/traffic.js';

export type { TrafficForecast };

/** Below this much observed time a projection says more about noise than about the trend. */
const MIN_OBSERVED_MS = 3_600_000;

export function forecast(
  raw: RawStats,
  w: CycleWindow,
  now: number,
  direction: DirectionMode,
): TrafficForecast | undefined {
  if (now >= w.end) return undefined;
  const observed = raw.effectiveEnd - raw.effectiveStart;
  if (observed < MIN_OBSERVED_MS) return undefined;
  const used =
    direction === 'both'
      ? raw.inBytes + raw.outBytes
      : direction === 'max'
        ? Math.max(raw.inBytes, raw.outBytes)
        : raw.outBytes;
  const remaining = w.end - raw.effectiveEnd;
  const rate = used / observed;
  const projected = Math.round(used + rate * remaining);
  // Relative spread shrinks as the observed share grows (about 1/sqrt of observed time).
  const ratio = observed / (w.end - raw.effectiveStart);
  const spread = Math.sqrt((1 - ratio) / Math.max(ratio, 1e-6)) * 0.5;
  const p95 = raw.p95
    ? direction === 'both'
      ? raw.p95.total
      : direction === 'max'
        ? Math.max(raw.p95.in, raw.p95.out)
        : raw.p95.out
    : null;
  return {
    projected_selected_bytes: projected,
    projected_selected_bytes_low: Math.max(
      used,
      Math.round(used + rate * remaining * (1 - spread)),
    ),
    projected_selected_bytes_high: Math.round(used + rate * remaining * (1 + spread)),
    projected_p95_bytes_per_sec: p95,
    observed_ratio: Math.min(1, ratio),
  };
}
