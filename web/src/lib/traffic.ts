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

/**
 * Rebuild progress 0..1 (0 when the size is not known yet). A completed rebuild is whole even
 * when it had nothing to do (no counters stored yet: 0 of 0 chunks).
 */
export function rebuildProgress(done: number, total: number, completed = false): number {
  if (completed) return 1;
  return total > 0 ? Math.min(1, done / total) : 0;
}

/** Units a provider's bill may use: decimal first (most bills), then binary. */
export const BILL_UNITS = {
  GB: 1e9,
  TB: 1e12,
  GiB: 2 ** 30,
  TiB: 2 ** 40,
  B: 1,
} as const;
export type BillUnit = keyof typeof BILL_UNITS;

/** "1.5" GB → 1500000000; undefined unless a positive amount of at most 2^53 − 1 bytes. */
export function billToBytes(amount: string, unit: BillUnit): number | undefined {
  const text = amount.trim().replace(/[\s_]/g, '').replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
  const bytes = Math.round(Number(text) * BILL_UNITS[unit]);
  return bytes > 0 && Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** How far the bill is from Dash's own figure: "+10.0%", "−2.5%", "0.0%". */
export function billDifference(billed: number, raw: number): string {
  if (raw <= 0) return '';
  const pct = ((billed - raw) / raw) * 100;
  const text = Math.abs(pct).toFixed(1);
  return pct > 0.05 ? `+${text}%` : pct < -0.05 ? `\u2212${text}%` : `${text}%`;
}

/** Bytes with decimal units as bills state them: 1500000000 → "1.50 GB". */
export function formatDecimalBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
  let v = bytes;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  if (i === 0) return `${Math.round(v)} B`;
  return `${v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2)} ${units[i]}`;
}
