import { describe, expect, it } from 'vitest';
import { hourIn, last24Hours, lastDays, slaLevel, weightedPercent } from './uptime';

describe('slaLevel', () => {
  it('uses the thresholds inclusively from above', () => {
    expect(slaLevel(99, 99, 95)).toBe('ok');
    expect(slaLevel(98.99, 99, 95)).toBe('warn');
    expect(slaLevel(95, 99, 95)).toBe('warn');
    expect(slaLevel(94.9, 99, 95)).toBe('bad');
    expect(slaLevel(null, 99, 95)).toBe('none');
  });

  it('follows changed thresholds', () => {
    expect(slaLevel(99.5, 99.9, 99)).toBe('warn');
  });
});

describe('weightedPercent', () => {
  it('weights by observed time and skips unknown parts', () => {
    expect(weightedPercent([100, 50, null], [3_600_000, 1_200_000, 0])).toBeCloseTo(87.5);
    expect(weightedPercent([null, null], [0, 0])).toBeNull();
  });
});

describe('uptime windows', () => {
  const day = (hours: (number | null)[]) => ({
    hours,
    observed_ms: hours.map((p) => (p === null ? 0 : 3_600_000)),
  });

  it('takes the last 24 clock hours across midnight', () => {
    const yesterday = day(Array.from({ length: 24 }, (_, h) => (h < 20 ? 0 : 100)));
    const today = day(Array.from({ length: 24 }, (_, h) => (h <= 3 ? 50 : null)));
    // At 03:xx: yesterday 04..23 (16 h at 0 %, 4 h at 100 %) and today 00..03 (4 h at 50 %).
    expect(last24Hours(yesterday, today, 3)).toBeCloseTo((4 * 100 + 4 * 50) / 24, 9);
    expect(last24Hours(undefined, today, 3)).toBe(50);
    expect(last24Hours(undefined, undefined, 3)).toBeNull();
  });

  it('weights the last n days by observed time', () => {
    const days = [
      { percent: 0, observed_ms: 86_400_000 },
      { percent: 100, observed_ms: 86_400_000 },
      { percent: null, observed_ms: 0 },
      { percent: 90, observed_ms: 43_200_000 },
    ];
    expect(lastDays(days, 2)).toBe(90);
    expect(lastDays(days, 4)).toBeCloseTo(
      (100 * 86_400_000 + 90 * 43_200_000) / (2.5 * 86_400_000),
      9,
    );
  });

  it('reads the clock hour in the uptime time zone', () => {
    const t = Date.UTC(2026, 10, 24, 23, 30);
    expect(hourIn('UTC', t)).toBe(23);
    expect(hourIn('Asia/Shanghai', t)).toBe(7);
    expect(hourIn('Not/AZone', t)).toBe(new Date(t).getHours());
  });
});
