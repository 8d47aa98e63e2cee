export type SlaLevel = 'ok' | 'warn' | 'bad' | 'none';

/** Colour class of a day or hour against the SLA thresholds (spec §2.10). */
export function slaLevel(percent: number | null, warning: number, error: number): SlaLevel {
  if (percent === null || !Number.isFinite(percent)) return 'none';
  if (percent >= warning) return 'ok';
  if (percent >= error) return 'warn';
  return 'bad';
}

export const SLA_CLASSES: Record<SlaLevel, string> = {
  ok: 'bg-emerald-500',
  warn: 'bg-amber-400',
  bad: 'bg-rose-500',
  none: 'bg-slate-300 dark:bg-slate-600',
};

/** Weighted average over days or hours: Σ(percent × observed) / Σ observed. */
export function weightedPercent(values: (number | null)[], observed: number[]): number | null {
  let num = 0;
  let den = 0;
  values.forEach((p, i) => {
    const w = observed[i] ?? 0;
    if (p === null || w <= 0) return;
    num += p * w;
    den += w;
  });
  return den > 0 ? num / den : null;
}
