export const MINUTE_MS = 60_000;

export interface MinuteResult {
  onlineMs: number;
  observedMs: number;
  /** Reports received inside the minute (feeds the online-rate series). */
  reports: number;
}

/**
 * Online time of one node in the minute [minute, minute+60s), observed from `observedFrom`.
 * Each report received at t covers [t, min(next report, t + threshold)); those spans never
 * overlap, so their clipped lengths add up. `receipts` is sorted ascending.
 */
export function minuteOnline(
  receipts: readonly number[],
  minute: number,
  observedFrom: number,
  thresholdMs: number,
): MinuteResult {
  const end = minute + MINUTE_MS;
  const from = Math.max(minute, observedFrom);
  if (from >= end) return { onlineMs: 0, observedMs: 0, reports: 0 };
  let online = 0;
  let reports = 0;
  for (let i = 0; i < receipts.length; i++) {
    const t = receipts[i] as number;
    if (t >= end) break;
    if (t >= minute) reports++;
    const next = receipts[i + 1];
    const coverEnd = Math.min(next ?? Infinity, t + thresholdMs, end);
    const coverStart = Math.max(t, from);
    if (coverEnd > coverStart) online += coverEnd - coverStart;
  }
  return { onlineMs: online, observedMs: end - from, reports };
}
