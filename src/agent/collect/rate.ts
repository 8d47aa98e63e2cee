/**
 * Per-second rate of a cumulative counter between two samples.
 *
 * A counter that went down was reset (driver reload, interface re-created, device re-attached) or
 * wrapped (32-bit counters on old kernels). The two cannot be told apart reliably, so the sample
 * that sees the decrease reports a rate of 0 and the new value becomes the baseline: one interval
 * is under-reported instead of emitting a negative rate or a spike of 2^32 bytes.
 */
export function counterRate(previous: number, current: number, seconds: number): number {
  if (!(seconds > 0) || current < previous) return 0;
  return (current - previous) / seconds;
}

/** Difference of two counters, 0 when the counter went down (see counterRate). */
export function counterDelta(previous: number, current: number): number {
  return current >= previous ? current - previous : 0;
}

/** Clamps a ratio into 0..1 (rounding in the kernel's accounting can overshoot slightly). */
export function clampRatio(value: number): number {
  if (!Number.isFinite(value) || value <= 0) return 0;
  return value >= 1 ? 1 : value;
}

/** used / (used + free), 0 for an empty device. */
export function usedRatio(used: number, free: number): number {
  const total = used + free;
  return total > 0 ? clampRatio(used / total) : 0;
}
