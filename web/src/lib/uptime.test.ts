import { describe, expect, it } from 'vitest';
import { slaLevel, weightedPercent } from './uptime';

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
