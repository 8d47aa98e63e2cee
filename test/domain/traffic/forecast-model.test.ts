import { describe, expect, it } from 'vitest';
import {
  MIN_FORECAST_DAYS,
  p95RankRange,
  projectSeries,
  type DaySample,
} from '../../../src/domain/traffic/forecast-model.js';

/** Student's t, 0.95 quantile (two-sided 90 %), from printed tables. */
const T95 = { 2: 2.919986, 6: 1.94318, 9: 1.833113, 13: 1.770933 } as const;
const day = (bytes: number, weekday = 1): DaySample => ({ bytes, weekday });
const full = (n: number, weekday = 1) => Array.from({ length: n }, () => ({ days: 1, weekday }));

describe('projectSeries (daily mean model)', () => {
  it('matches a prediction interval worked out by hand', () => {
    // mean 12, s² = ((−2)² + 0 + 2²) / 2 = 4, n = 3; two days left:
    // remaining 24, variance 4 · (2 + 2²/3) = 13.333…, half width t(2) · √13.333….
    const p = projectSeries([day(10), day(12), day(14)], full(2));
    expect(p?.model).toBe('daily_mean');
    expect(p?.mean).toBe(12);
    expect(p?.stddev).toBeCloseTo(2, 12);
    expect(p?.remaining).toBe(24);
    expect(p?.halfWidth).toBeCloseTo(T95[2] * Math.sqrt(40 / 3), 5);
  });

  it('gives no projection with fewer than the minimum of complete days', () => {
    expect(MIN_FORECAST_DAYS).toBe(3);
    expect(projectSeries([day(10), day(12)], full(5))).toBeUndefined();
    expect(projectSeries([], full(5))).toBeUndefined();
  });

  it('widens with the days left and narrows with the days seen', () => {
    const seen = [day(5), day(9), day(7), day(11), day(8)];
    const w = (left: number) => projectSeries(seen, full(left))!.halfWidth;
    expect(w(1)).toBeLessThan(w(5));
    expect(w(5)).toBeLessThan(w(20));
    expect(w(0)).toBe(0);
    const more = projectSeries([...seen, ...seen], full(5))!.halfWidth;
    expect(more).toBeLessThan(w(5));
  });

  it('counts a partial day by its length', () => {
    // Half a day then one day: 1.5 days at the mean; variance s² · (1.5 + 1.5²/3).
    const p = projectSeries([day(10), day(12), day(14)], [{ days: 0.5, weekday: 1 }, ...full(1)]);
    expect(p?.remaining).toBe(18);
    expect(p?.halfWidth).toBeCloseTo(T95[2] * Math.sqrt(4 * (1.5 + 2.25 / 3)), 5);
  });

  it('is exact for perfectly steady traffic', () => {
    const p = projectSeries([day(7), day(7), day(7), day(7)], full(3));
    expect(p).toMatchObject({ mean: 7, stddev: 0, remaining: 21, halfWidth: 0 });
  });
});

describe('projectSeries (weekday model)', () => {
  // Two weeks: weekdays busy (about 100), weekends quiet (about 20).
  const week = (d: number[]) => d.map((bytes, i) => day(bytes, i + 1));
  const twoWeeks = [
    ...week([98, 102, 100, 101, 99, 19, 21]),
    ...week([102, 98, 100, 99, 101, 21, 19]),
  ];

  it('uses one mean per weekday when the pattern is significant', () => {
    const p = projectSeries(twoWeeks, [
      { days: 1, weekday: 6 },
      { days: 1, weekday: 1 },
    ]);
    expect(p?.model).toBe('weekday_mean');
    // Saturday's mean (20) plus Monday's (100).
    expect(p?.remaining).toBe(120);
    // Residual variance: within-weekday squares (4+4, 4+4, 0, 1+1, 1+1, 1+1, 1+1) = 24 over
    // 14 − 7 = 7 degrees of freedom; each slot adds its weekday mean's variance s²/2.
    const s2 = 24 / 7;
    expect(p?.stddev).toBeCloseTo(Math.sqrt(s2), 12);
    expect(p?.halfWidth).toBeCloseTo(1.894579 * Math.sqrt(s2 * (2 + 1 / 2 + 1 / 2)), 4);
  });

  it('keeps one mean when the weekdays do not differ', () => {
    const flat = [...week([10, 12, 11, 13, 9, 12, 10]), ...week([12, 10, 11, 9, 13, 10, 12])];
    const p = projectSeries(flat, full(3, 6));
    expect(p?.model).toBe('daily_mean');
    expect(p?.mean).toBe(11);
    // s² = 24 / 13 (deviations ±1, ±2 from 11), n = 14, three days left.
    expect(p?.halfWidth).toBeCloseTo(T95[13] * Math.sqrt((24 / 13) * (3 + 9 / 14)), 5);
  });

  it('needs two of every weekday before it looks for a pattern', () => {
    expect(projectSeries(twoWeeks.slice(0, 13), full(2))?.model).toBe('daily_mean');
  });
});

describe('p95RankRange', () => {
  it('is the reference P95 rank with no width once the cycle is all seen', () => {
    // 100 rates ascending: drop the top floor(5) → index 94.
    expect(p95RankRange(100, 100)).toEqual({ point: 94, low: 94, high: 94 });
  });

  it('spreads binomially with the share still to come', () => {
    // sd = √(100 · 0.95 · 0.05 · (1 − 100/200)) = 1.5411; z(0.95) = 1.644854 → ±2.535.
    expect(p95RankRange(100, 200)).toEqual({ point: 94, low: 91, high: 97 });
    const early = p95RankRange(100, 1000);
    expect(early.high - early.low).toBeGreaterThan(6);
    expect(early.high).toBeLessThanOrEqual(99);
  });
});
