import { Temporal } from 'temporal-polyfill';
import type { TrafficForecast } from '../../protocol/traffic.js';
import { localDays, type CycleWindow } from './cycle-bounds.js';
import { BUCKET_MS, bucketRates, type BucketFact } from './facts.js';
import {
  FORECAST_LEVEL,
  MIN_FORECAST_DAYS,
  p95RankRange,
  projectSeries,
  type DaySample,
  type DaySlot,
  type SeriesProjection,
} from './forecast-model.js';
import type { DirectionMode, RawStats } from './stats.js';

export type { TrafficForecast };

const DAY_MS = 86_400_000;
type Dir = 'in' | 'out' | 'total';

const weekdayOf = (date: string) => Temporal.PlainDate.from(date).dayOfWeek;

/** In/out bytes of each complete local day of [from, to), per 24 h (DST days scaled). */
function completeDays(facts: readonly BucketFact[], from: number, to: number, zone: string) {
  const out: Array<{ weekday: number; in: number; out: number }> = [];
  let i = 0;
  for (const d of localDays(from, to, zone)) {
    while (i < facts.length && (facts[i] as BucketFact).bucket < d.dayStart) i++;
    let sumIn = 0;
    let sumOut = 0;
    for (; i < facts.length && (facts[i] as BucketFact).bucket < d.dayEnd; i++) {
      sumIn += (facts[i] as BucketFact).inBytes;
      sumOut += (facts[i] as BucketFact).outBytes;
    }
    if (d.start !== d.dayStart || d.end !== d.dayEnd) continue;
    const scale = DAY_MS / (d.dayEnd - d.dayStart);
    out.push({ weekday: weekdayOf(d.date), in: sumIn * scale, out: sumOut * scale });
  }
  return out;
}

/** The valid 5-minute rates of [from, to) in one direction, ascending. */
function sortedRates(facts: readonly BucketFact[], from: number, to: number, dir: Dir): number[] {
  const out: number[] = [];
  for (const f of facts) {
    if (f.bucket < from || f.bucket >= to) continue;
    const r = bucketRates(f);
    if (r) out.push(dir === 'in' ? r.in : dir === 'out' ? r.out : r.in + r.out);
  }
  return out.sort((a, b) => a - b);
}

/**
 * The forecast of the current cycle from its 5-minute facts so far (facts exist in both
 * usage modes; `raw` gives the figures the projection starts from).
 */
export function forecast(input: {
  raw: RawStats;
  window: CycleWindow;
  zone: string;
  direction: DirectionMode;
  facts: readonly BucketFact[];
}): TrafficForecast {
  const { raw, window: w, zone, direction, facts } = input;
  // Only time with facts was observed: a day before the first or after the last one (the
  // agent silent, its bytes not counted yet) is unknown, not a day without traffic.
  const first = facts[0]?.bucket;
  const last = facts.at(-1)?.bucket;
  const end = Math.min(Math.max(raw.effectiveEnd, raw.effectiveStart), w.end);
  const from = first === undefined ? end : Math.max(raw.effectiveStart, first);
  const split = last === undefined ? end : Math.min(end, last + BUCKET_MS);
  const days = completeDays(facts, from, Math.max(from, split), zone);
  const rest: DaySlot[] = localDays(split, w.end, zone).map((d) => ({
    days: (d.end - d.start) / DAY_MS,
    weekday: weekdayOf(d.date),
  }));
  const series = (pick: (d: { in: number; out: number }) => number): DaySample[] =>
    days.map((d) => ({ bytes: pick(d), weekday: d.weekday }));
  const used: Record<Dir, number> = {
    in: raw.inBytes,
    out: raw.outBytes,
    total: raw.inBytes + raw.outBytes,
  };
  const project = (dir: Dir) =>
    projectSeries(
      series((d) => (dir === 'in' ? d.in : dir === 'out' ? d.out : d.in + d.out)),
      rest,
    );
  let dir: Dir = direction === 'both' ? 'total' : 'out';
  let p: SeriesProjection | undefined = project(dir);
  if (direction === 'max') {
    const pin = project('in');
    // The larger projected total is the one billed at the end; a tie goes to out.
    if (pin && p && used.in + pin.remaining > used.out + p.remaining) {
      dir = 'in';
      p = pin;
    }
  }
  const span = w.end - from;
  const base = {
    interval_level: FORECAST_LEVEL,
    days_observed: days.length,
    min_days: MIN_FORECAST_DAYS,
    days_remaining: Math.round(((w.end - split) / DAY_MS) * 1000) / 1000,
    projected_direction: dir,
    observed_ratio: span <= 0 ? 1 : Math.max(0, Math.min(1, (split - from) / span)),
  };
  if (!p) {
    return {
      status: 'insufficient_data',
      reason: 'too_few_days',
      model: null,
      ...base,
      daily_mean_bytes: null,
      daily_stddev_bytes: null,
      projected_selected_bytes: null,
      projected_selected_bytes_low: null,
      projected_selected_bytes_high: null,
      projected_p95_bytes_per_sec: null,
      projected_p95_bytes_per_sec_low: null,
      projected_p95_bytes_per_sec_high: null,
    };
  }
  const u = used[dir];
  const p95 = p95Projection(raw, facts, w, split, direction);
  return {
    status: 'available',
    model: p.model,
    ...base,
    daily_mean_bytes: Math.round(p.mean),
    daily_stddev_bytes: Math.round(p.stddev),
    projected_selected_bytes: Math.round(u + p.remaining),
    projected_selected_bytes_low: Math.round(u + Math.max(0, p.remaining - p.halfWidth)),
    projected_selected_bytes_high: Math.round(u + p.remaining + p.halfWidth),
    projected_p95_bytes_per_sec: p95?.point ?? null,
    projected_p95_bytes_per_sec_low: p95?.low ?? null,
    projected_p95_bytes_per_sec_high: p95?.high ?? null,
  };
}

/** The final P95's range in the selected view ('max': the larger P95 so far, ties to out). */
function p95Projection(
  raw: RawStats,
  facts: readonly BucketFact[],
  w: CycleWindow,
  split: number,
  direction: DirectionMode,
) {
  if (!raw.p95) return undefined;
  const dir: Dir =
    direction === 'both' ? 'total' : direction === 'max' && raw.p95.in > raw.p95.out ? 'in' : 'out';
  const rates = sortedRates(facts, w.start, split, dir);
  if (rates.length === 0) return undefined;
  // The rest of the cycle is assumed as well covered as the part seen.
  const left = Math.ceil((w.end - split) / BUCKET_MS);
  const finalCount = rates.length + Math.round(left * raw.coverageRatio);
  const r = p95RankRange(rates.length, finalCount);
  return {
    point: rates[r.point] as number,
    low: rates[r.low] as number,
    high: rates[r.high] as number,
  };
}
