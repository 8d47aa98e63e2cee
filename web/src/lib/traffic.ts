import type { TrafficStats } from '../api/traffic';

/** How much of the period the figures rest on, said plainly (never rounded up to 100 %). */
export function coveragePercent(stats: TrafficStats): string {
  const pct = Math.floor(stats.coverage_ratio * 1000) / 10;
  return `${pct.toFixed(1)}%`;
}

/** Problems that make the figures less than complete, for a visible note. */
export function dataIssues(stats: TrafficStats): Array<'gaps' | 'resets' | 'incomplete'> {
  const out: Array<'gaps' | 'resets' | 'incomplete'> = [];
  if (stats.gap_count > 0) out.push('gaps');
  if (stats.reset_count > 0) out.push('resets');
  if (!stats.data_complete && out.length === 0) out.push('incomplete');
  return out;
}

/** Bar heights (0..1) for daily totals, against the largest day. */
export function barHeights(values: number[]): number[] {
  const max = Math.max(0, ...values);
  return values.map((v) => (max === 0 ? 0 : v / max));
}

/** Rebuild progress 0..1 (0 when the size is not known yet). */
export function rebuildProgress(done: number, total: number): number {
  return total > 0 ? Math.min(1, done / total) : 0;
}
