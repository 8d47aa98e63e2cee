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

/** The clock hour (0-23) of an instant in an IANA time zone; the browser's zone if invalid. */
export function hourIn(timeZone: string, nowMs: number): number {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hour: 'numeric',
      hourCycle: 'h23',
    }).formatToParts(nowMs);
  } catch {
    return new Date(nowMs).getHours();
  }
  const h = Number(parts.find((p) => p.type === 'hour')?.value);
  return Number.isInteger(h) ? h % 24 : new Date(nowMs).getHours();
}

/** Hourly rates of one day (GET /api/metrics/uptime/day). */
export interface DayHours {
  hours: (number | null)[];
  observed_ms: number[];
}

/**
 * Availability over the last 24 hours: yesterday's hours after the current clock hour and
 * today's up to it, weighted by observed time (unknown hours do not count).
 */
export function last24Hours(
  yesterday: DayHours | undefined,
  today: DayHours | undefined,
  hourNow: number,
): number | null {
  const values: (number | null)[] = [];
  const observed: number[] = [];
  const take = (d: DayHours | undefined, from: number, to: number) => {
    for (let h = from; h < to; h++) {
      values.push(d?.hours[h] ?? null);
      observed.push(d?.observed_ms[h] ?? 0);
    }
  };
  take(yesterday, hourNow + 1, 24);
  take(today, 0, hourNow + 1);
  return weightedPercent(values, observed);
}

/** Availability over the last `n` days of the 45-day list (oldest first, today last). */
export function lastDays(days: readonly UptimeDayLike[], n: number): number | null {
  const tail = days.slice(-n);
  return weightedPercent(
    tail.map((d) => d.percent),
    tail.map((d) => d.observed_ms),
  );
}

export interface UptimeDayLike {
  percent: number | null;
  observed_ms: number;
}
