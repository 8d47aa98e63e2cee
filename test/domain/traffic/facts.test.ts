import { describe, expect, it } from 'vitest';
import {
  bucketRates,
  factsForWindow,
  pairParts,
  type CounterSample,
} from '../../../src/domain/traffic/facts.js';
import { billingStats, p95Of, presentStats } from '../../../src/domain/traffic/stats.js';
import { addLite, litePairParts } from '../../../src/domain/traffic/lite.js';
import { cycleAt } from '../../../src/domain/traffic/cycle-bounds.js';

const M = 60_000;
const s = (at: number, rx: number, tx: number): CounterSample => ({ at, rx, tx });

describe('5-minute facts from counter pairs', () => {
  it('splits a pair across buckets in proportion to time, summing exactly', () => {
    // 60 s spanning a bucket edge 20 s in: 1001 bytes split 20/40.
    const parts = pairParts(s(5 * M - 20_000, 0, 0), s(6 * M - 20_000, 1001, 3));
    expect(parts.map((p) => [p.bucket, p.inBytes, p.outBytes, p.validMs])).toEqual([
      [0, 334, 1, 20_000],
      [5 * M, 667, 2, 40_000],
    ]);
  });

  it('counts a pair longer than 5 minutes as a gap: bytes kept, no valid time', () => {
    const parts = pairParts(s(0, 0, 0), s(12 * M, 1200, 0));
    expect(parts).toHaveLength(3);
    expect(parts.reduce((n, p) => n + p.inBytes, 0)).toBe(1200);
    expect(parts.map((p) => p.gapCount)).toEqual([1, 0, 0]);
    expect(parts.every((p) => p.validMs === 0 && p.validIn === 0)).toBe(true);
  });

  it('counts a counter that went down as a reset on the later bucket, without bytes', () => {
    expect(pairParts(s(M, 500, 500), s(7 * M, 10, 900))).toEqual([
      {
        bucket: 5 * M,
        inBytes: 0,
        outBytes: 0,
        validIn: 0,
        validOut: 0,
        validMs: 0,
        gapCount: 0,
        resetCount: 1,
      },
    ]);
    expect(pairParts(s(M, 1, 1), s(M, 2, 2))).toEqual([]);
  });

  it('gives a rate only to buckets with 270 s of valid time and no reset', () => {
    const samples = [0, 1, 2, 3, 4, 5].map((i) => s(i * M, i * 6000, i * 60));
    const [full] = factsForWindow(samples, 0, 5 * M);
    expect(bucketRates(full!)).toEqual({ in: 100, out: 1 });
    const short = factsForWindow(samples.slice(0, 5), 0, 5 * M)[0]!;
    expect(short.validMs).toBe(240_000);
    expect(bucketRates(short)).toBeUndefined();
    expect(bucketRates({ ...full!, resetCount: 1 })).toBeUndefined();
  });

  it('rebuilding windows gives the same facts as all pairs at once', () => {
    const samples = Array.from({ length: 200 }, (_, i) => s(i * 47_000, i * i * 13, i * 7));
    const whole = factsForWindow(samples, 0, 200 * M);
    const halves = [
      ...factsForWindow(samples, 0, 60 * M),
      ...factsForWindow(samples, 60 * M, 200 * M),
    ];
    expect(halves).toEqual(whole);
  });
});

describe('P95 and stats', () => {
  it('drops the top floor(5 % of n) and takes the next value', () => {
    const rates = Array.from({ length: 40 }, (_, i) => i + 1); // 1..40
    expect(p95Of(rates)).toBe(38); // drop 40 and 39
    expect(p95Of(Array.from({ length: 39 }, (_, i) => i + 1))).toBe(38); // drop 39 only
    expect(p95Of(Array.from({ length: 20 }, (_, i) => i + 1))).toBe(19);
  });

  it('moves the effective start to the first sample and counts expected buckets', () => {
    const raw = billingStats([], {
      start: 0,
      end: 100 * 5 * M,
      now: 10 * 5 * M + 1234,
      firstSampleAt: 4 * 5 * M + 10,
      p95Enabled: true,
    });
    expect(raw).toMatchObject({
      effectiveStart: 4 * 5 * M,
      effectiveEnd: 10 * 5 * M,
      expectedSampleCount: 6,
      sampleCount: 0,
      coverageRatio: 0,
      dataComplete: false,
      p95Status: 'insufficient_samples',
    });
  });

  it('max direction picks the larger side per figure, ties going to out', () => {
    const raw = billingStats([], {
      start: 0,
      end: 5 * M,
      now: 0,
      firstSampleAt: undefined,
      p95Enabled: false,
    });
    const view = presentStats(
      { ...raw, inBytes: 10, outBytes: 10, peak: { in: 5, out: 3, total: 8 } },
      { direction: 'max', p95Enabled: false, periodEnd: 5 * M, now: 0 },
    );
    expect([view.selected_bytes_direction, view.selected_peak_direction]).toEqual(['out', 'in']);
    expect(view.selected_peak_bytes_per_sec).toBe(5);
    expect(view).not.toHaveProperty('selected_p95_direction');
  });
});

describe('Lite accumulation', () => {
  const cycle = { mode: 'calendar_month' as const, startDay: 1, anchorDate: '', zone: 'UTC' };
  const of = (at: number) => cycleAt(cycle, at);
  const edge = Date.UTC(2026, 10, 1);

  it('splits a pair across a cycle boundary and keeps its rate as a peak', () => {
    const parts = litePairParts(s(edge - 20_000, 0, 0), s(edge + 40_000, 600, 60), of);
    expect(parts.map((p) => [p.cycleStart, p.inBytes, p.outBytes, p.sampleCount])).toEqual([
      [Date.UTC(2026, 9, 1), 200, 20, 0],
      [edge, 400, 40, 1],
    ]);
    expect(parts[1]).toMatchObject({ peakIn: 10, peakOut: 1, peakTotal: 11, coveredFrom: edge });
  });

  it('adds a gap to every cycle a long pair touches and a reset to the later cycle', () => {
    const gap = litePairParts(s(edge - 10 * M, 0, 0), s(edge + 10 * M, 100, 0), of);
    expect(gap.map((p) => p.gapCount)).toEqual([1, 1]);
    const reset = litePairParts(s(edge - M, 100, 0), s(edge + M, 5, 0), of);
    expect(reset).toMatchObject([{ cycleStart: edge, resetCount: 1, inBytes: 0 }]);
    const merged = addLite(gap[1], reset[0]!);
    expect(merged).toMatchObject({ gapCount: 1, resetCount: 1, inBytes: 50 });
  });
});
