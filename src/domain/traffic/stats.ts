import { rfc3339 as iso } from '../../platform/time-format.js';
import type { P95Status, StatsStatus, TrafficStats } from '../../protocol/traffic.js';
import { BUCKET_MS, bucketRates, floorBucket, type BucketFact } from './facts.js';

export type { P95Status, StatsStatus, TrafficStats };
export type DirectionMode = 'out' | 'both' | 'max';
/** P95 needs at least this many valid 5-minute buckets. */
export const P95_MIN_SAMPLES = 20;
/** A closed period is sealed this long after its end. */
export const SEAL_AFTER_MS = 48 * 3_600_000;

/** Raw figures before the direction view is applied (also what a snapshot keeps). */
export interface RawStats {
  inBytes: number;
  outBytes: number;
  p95Status: P95Status;
  p95: { in: number; out: number; total: number } | null;
  peak: { in: number; out: number; total: number };
  sampleCount: number;
  expectedSampleCount: number;
  effectiveStart: number;
  effectiveEnd: number;
  coverageRatio: number;
  coveredUntil: number;
  gapCount: number;
  resetCount: number;
  dataComplete: boolean;
}

/** P95 of rates: sorted descending, drop the top floor(5 % of n), take the next one. */
export function p95Of(rates: number[]): number {
  const sorted = [...rates].sort((a, b) => b - a);
  return sorted[Math.floor(sorted.length * 0.05)] ?? 0;
}

export interface BillingWindow {
  /** Period start (cycle start or day start) and its end. */
  start: number;
  end: number;
  now: number;
  /** First counter sample of the interface, if any (moves the effective start forward). */
  firstSampleAt: number | undefined;
  p95Enabled: boolean;
}

/** Stats of a Billing-mode period from its 5-minute facts (reference §6.6). */
export function billingStats(facts: readonly BucketFact[], w: BillingWindow): RawStats {
  const statEnd = Math.min(w.end, floorBucket(w.now));
  let effectiveStart = w.start;
  if (w.firstSampleAt !== undefined) {
    const first = floorBucket(w.firstSampleAt);
    if (first > effectiveStart && first < w.end) effectiveStart = first;
  }
  const effectiveEnd = Math.max(statEnd, effectiveStart);
  let inBytes = 0;
  let outBytes = 0;
  let gaps = 0;
  let resets = 0;
  const rin: number[] = [];
  const rout: number[] = [];
  const rtot: number[] = [];
  for (const f of facts) {
    if (f.bucket < w.start || f.bucket >= statEnd) continue;
    inBytes += f.inBytes;
    outBytes += f.outBytes;
    gaps += f.gapCount;
    resets += f.resetCount;
    const r = bucketRates(f);
    if (r) {
      rin.push(r.in);
      rout.push(r.out);
      rtot.push(r.in + r.out);
    }
  }
  const n = rin.length;
  const expected = Math.ceil((effectiveEnd - effectiveStart) / BUCKET_MS);
  const p95Status: P95Status = !w.p95Enabled
    ? 'disabled'
    : n < P95_MIN_SAMPLES
      ? 'insufficient_samples'
      : 'available';
  return {
    inBytes,
    outBytes,
    p95Status,
    p95:
      p95Status === 'available' ? { in: p95Of(rin), out: p95Of(rout), total: p95Of(rtot) } : null,
    peak: { in: Math.max(0, ...rin), out: Math.max(0, ...rout), total: Math.max(0, ...rtot) },
    sampleCount: n,
    expectedSampleCount: expected,
    effectiveStart,
    effectiveEnd,
    coverageRatio: expected === 0 ? 1 : Math.min(1, n / expected),
    coveredUntil: effectiveEnd,
    gapCount: gaps,
    resetCount: resets,
    dataComplete: expected === 0 || (n >= expected && gaps === 0 && resets === 0),
  };
}

/** A Lite-mode accumulator for one interface and cycle (reference §6.7). */
export interface LiteUsage {
  inBytes: number;
  outBytes: number;
  sampleCount: number;
  gapCount: number;
  resetCount: number;
  peakIn: number;
  peakOut: number;
  peakTotal: number;
  coveredFrom: number;
  coveredUntil: number;
}

export function liteStats(
  u: LiteUsage | undefined,
  w: { start: number; end: number; now: number },
): RawStats {
  const statEnd = Math.min(w.end, w.now);
  const from = u?.coveredFrom ?? statEnd;
  const until = u?.coveredUntil ?? statEnd;
  const gaps = u?.gapCount ?? 0;
  const resets = u?.resetCount ?? 0;
  const span = statEnd - w.start;
  const covered = Math.max(0, Math.min(until, statEnd) - Math.max(from, w.start));
  const coverage = gaps > 0 || resets > 0 || !u ? 0 : span <= 0 ? 1 : Math.min(1, covered / span);
  const ended = w.now >= w.end;
  return {
    inBytes: u?.inBytes ?? 0,
    outBytes: u?.outBytes ?? 0,
    p95Status: 'lite_mode',
    p95: null,
    peak: { in: u?.peakIn ?? 0, out: u?.peakOut ?? 0, total: u?.peakTotal ?? 0 },
    sampleCount: u?.sampleCount ?? 0,
    expectedSampleCount: 0,
    effectiveStart: u ? from : w.start,
    effectiveEnd: statEnd,
    coverageRatio: coverage,
    coveredUntil: until,
    gapCount: gaps,
    resetCount: resets,
    dataComplete:
      u !== undefined &&
      gaps === 0 &&
      resets === 0 &&
      from <= w.start &&
      (!ended || until >= w.end),
  };
}

type Dir = 'out' | 'in' | 'total';
/** `max` picks the larger of in and out; a tie goes to out. */
function pick(mode: DirectionMode, v: { in: number; out: number; total: number }): [number, Dir] {
  if (mode === 'both') return [v.total, 'total'];
  if (mode === 'max' && v.in > v.out) return [v.in, 'in'];
  return [v.out, 'out'];
}

/** The API view of raw stats for a direction mode and a period's place in time. */
export function presentStats(
  raw: RawStats,
  opts: {
    direction: DirectionMode;
    p95Enabled: boolean;
    periodEnd: number;
    now: number;
    /** A stored snapshot whose raw source no longer covers the period. */
    stale?: boolean;
  },
): TrafficStats {
  const [bytes, bytesDir] = pick(opts.direction, {
    in: raw.inBytes,
    out: raw.outBytes,
    total: raw.inBytes + raw.outBytes,
  });
  const [peak, peakDir] = pick(opts.direction, raw.peak);
  const p95 = raw.p95 ? pick(opts.direction, raw.p95) : null;
  const ended = opts.now >= opts.periodEnd;
  const status: StatsStatus = opts.stale
    ? 'stale'
    : !ended
      ? 'provisional'
      : opts.now - opts.periodEnd < SEAL_AFTER_MS
        ? 'grace'
        : 'sealed';
  const out: TrafficStats = {
    in_bytes: raw.inBytes,
    out_bytes: raw.outBytes,
    p95_enabled: raw.p95Status !== 'lite_mode' && opts.p95Enabled,
    p95_status: raw.p95Status,
    in_p95_bytes_per_sec: raw.p95?.in ?? null,
    out_p95_bytes_per_sec: raw.p95?.out ?? null,
    selected_p95_bytes_per_sec: p95?.[0] ?? null,
    in_peak_bytes_per_sec: raw.peak.in,
    out_peak_bytes_per_sec: raw.peak.out,
    selected_peak_bytes_per_sec: peak,
    selected_bytes: bytes,
    selected_bytes_direction: bytesDir,
    selected_peak_direction: peakDir,
    sample_count: raw.sampleCount,
    expected_sample_count: raw.expectedSampleCount,
    effective_start: iso(raw.effectiveStart),
    effective_end: iso(raw.effectiveEnd),
    coverage_ratio: raw.coverageRatio,
    covered_until: iso(raw.coveredUntil),
    gap_count: raw.gapCount,
    reset_count: raw.resetCount,
    cycle_complete: ended,
    data_complete: raw.dataComplete,
    status,
  };
  if (raw.p95Status !== 'available') out.p95_unavailable_reason = raw.p95Status;
  if (p95) out.selected_p95_direction = p95[1];
  return out;
}
