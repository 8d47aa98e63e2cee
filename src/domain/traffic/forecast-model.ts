import jstatPkg from 'jstat';

/**
 * The statistics behind the end-of-cycle forecast, free of traffic types so they can be tested
 * with numbers worked out by hand.
 *
 * Bytes: the daily totals seen so far are a sample of independent days with a common mean
 * (or one mean per weekday, when the data show a weekday pattern). The rest of the cycle is a
 * sum of `r` such days, so its prediction variance is the day-to-day variance times `r` (the
 * days to come vary) plus the uncertainty of the estimated mean times `r²` (the mean itself is
 * only estimated): s²·(r + r²/n) for one mean. The interval uses Student's t with the degrees
 * of freedom the variance was estimated with, so a few days give a wide range and the range
 * grows with the days left.
 */

const { jStat } = jstatPkg;

/** Two-sided level of every forecast interval. */
export const FORECAST_LEVEL = 0.9;
/** Fewer complete days than this and there is no variance worth the name: no forecast. */
export const MIN_FORECAST_DAYS = 3;
/** A weekday model needs at least this many of each weekday. */
const MIN_PER_WEEKDAY = 2;
/** A weekday pattern is used when a one-way ANOVA finds it at this significance. */
const WEEKDAY_ALPHA = 0.05;

/** One complete day seen: bytes per 24 h and ISO weekday (1 = Monday ... 7 = Sunday). */
export interface DaySample {
  bytes: number;
  weekday: number;
}

/** A part of the rest of the cycle: its length in days (0..1, a DST day a little more). */
export interface DaySlot {
  days: number;
  weekday: number;
}

export interface SeriesProjection {
  model: 'daily_mean' | 'weekday_mean';
  /** Mean bytes of a day (over all days seen) and the residual day-to-day deviation. */
  mean: number;
  stddev: number;
  /** Expected bytes of the rest of the cycle and the half width of its interval. */
  remaining: number;
  halfWidth: number;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** Groups by weekday; undefined when a weekday model cannot be fitted or is not supported. */
function weekdayModel(days: readonly DaySample[]) {
  const groups = new Map<number, number[]>();
  for (const d of days) groups.set(d.weekday, [...(groups.get(d.weekday) ?? []), d.bytes]);
  if (groups.size < 7) return undefined;
  if ([...groups.values()].some((g) => g.length < MIN_PER_WEEKDAY)) return undefined;
  const n = days.length;
  const k = groups.size;
  const grand = sum(days.map((d) => d.bytes)) / n;
  const means = new Map<number, { mean: number; n: number }>();
  let between = 0;
  let within = 0;
  for (const [w, xs] of groups) {
    const m = sum(xs) / xs.length;
    means.set(w, { mean: m, n: xs.length });
    between += xs.length * (m - grand) ** 2;
    within += sum(xs.map((x) => (x - m) ** 2));
  }
  if (between === 0) return undefined;
  const df = n - k;
  if (within > 0) {
    const f = between / (k - 1) / (within / df);
    if (1 - jStat.centralF.cdf(f, k - 1, df) >= WEEKDAY_ALPHA) return undefined;
  }
  return { means, variance: within / df, df };
}

/**
 * Projects the rest of a cycle from the complete days seen so far. Undefined with fewer than
 * MIN_FORECAST_DAYS days: saying "not enough data" beats inventing a number.
 */
export function projectSeries(
  days: readonly DaySample[],
  rest: readonly DaySlot[],
): SeriesProjection | undefined {
  const n = days.length;
  if (n < MIN_FORECAST_DAYS) return undefined;
  const mean = sum(days.map((d) => d.bytes)) / n;
  const t = (df: number) => jStat.studentt.inv(0.5 + FORECAST_LEVEL / 2, df);
  const weekly = weekdayModel(days);
  if (weekly) {
    // Per weekday: noise of each slot, plus the uncertainty of that weekday's mean.
    const share = new Map<number, number>();
    let remaining = 0;
    let slotDays = 0;
    for (const s of rest) {
      const g = weekly.means.get(s.weekday);
      if (!g) continue;
      remaining += s.days * g.mean;
      slotDays += s.days;
      share.set(s.weekday, (share.get(s.weekday) ?? 0) + s.days);
    }
    let meanVar = 0;
    for (const [w, d] of share) meanVar += (d * d) / (weekly.means.get(w)?.n ?? 1);
    const variance = weekly.variance * (slotDays + meanVar);
    return {
      model: 'weekday_mean',
      mean,
      stddev: Math.sqrt(weekly.variance),
      remaining,
      halfWidth: t(weekly.df) * Math.sqrt(variance),
    };
  }
  const s2 = sum(days.map((d) => (d.bytes - mean) ** 2)) / (n - 1);
  const r = sum(rest.map((s) => s.days));
  return {
    model: 'daily_mean',
    mean,
    stddev: Math.sqrt(s2),
    remaining: r * mean,
    halfWidth: t(n - 1) * Math.sqrt(s2 * (r + (r * r) / n)),
  };
}

/**
 * Range of the cycle's final P95 from the valid 5-minute rates seen so far, without assuming
 * a distribution. If the rest of the cycle is like what was seen, the final P95 is the P95 of
 * `finalCount` rates of which `rates` are a part; the rank of that value among the rates seen
 * varies binomially, with a spread that shrinks to nothing as the seen part reaches the whole.
 * Returns indexes into the rates sorted ascending (the point is the reference's P95 rank).
 */
export function p95RankRange(
  seen: number,
  finalCount: number,
): { point: number; low: number; high: number } {
  const point = seen - 1 - Math.floor(seen * 0.05);
  const p = 0.95;
  const z = jStat.normal.inv(0.5 + FORECAST_LEVEL / 2, 0, 1);
  const fraction = finalCount > 0 ? Math.min(1, seen / finalCount) : 1;
  const spread = z * Math.sqrt(seen * p * (1 - p) * (1 - fraction));
  return {
    point,
    low: Math.max(0, Math.floor(point - spread)),
    high: Math.min(seen - 1, Math.ceil(point + spread)),
  };
}
