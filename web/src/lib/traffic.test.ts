import { describe, expect, it } from 'vitest';
import type { TrafficStats } from '../api/traffic';
import {
  barHeights,
  billDifference,
  billToBytes,
  coveragePercent,
  dataIssues,
  formatDecimalBytes,
  rebuildProgress,
} from './traffic';

const stats = (over: Partial<TrafficStats>) =>
  ({
    coverage_ratio: 1,
    gap_count: 0,
    reset_count: 0,
    data_complete: true,
    ...over,
  }) as TrafficStats;

describe('traffic helpers', () => {
  it('never rounds coverage up to a complete-looking figure', () => {
    expect(coveragePercent(stats({ coverage_ratio: 0.99996 }))).toBe('99.9%');
    expect(coveragePercent(stats({ coverage_ratio: 1 }))).toBe('100.0%');
    expect(coveragePercent(stats({ coverage_ratio: 0.5 }))).toBe('50.0%');
  });

  it('names gaps and resets, or a plain incomplete period', () => {
    expect(dataIssues(stats({}))).toEqual([]);
    expect(dataIssues(stats({ gap_count: 2, reset_count: 1, data_complete: false }))).toEqual([
      'gaps',
      'resets',
    ]);
    expect(dataIssues(stats({ data_complete: false }))).toEqual(['incomplete']);
  });

  it('scales bars to the largest day and reports rebuild progress', () => {
    expect(barHeights([0, 5, 10])).toEqual([0, 0.5, 1]);
    expect(barHeights([0, 0])).toEqual([0, 0]);
    expect(rebuildProgress(3, 4)).toBe(0.75);
    expect(rebuildProgress(0, 0)).toBe(0);
    expect(rebuildProgress(0, 0, true)).toBe(1);
    expect(rebuildProgress(3, 4, true)).toBe(1);
  });
});

describe('bill helpers', () => {
  it('turns an amount and unit into bytes, refusing what is not a positive amount', () => {
    expect(billToBytes('1.5', 'GB')).toBe(1_500_000_000);
    expect(billToBytes(' 2,25 ', 'TB')).toBe(2_250_000_000_000);
    expect(billToBytes('1', 'GiB')).toBe(1_073_741_824);
    expect(billToBytes('1 000', 'B')).toBe(1000);
    for (const bad of ['', '0', '-1', 'abc', '1e3', '1.2.3']) {
      expect(billToBytes(bad, 'GB'), bad).toBeUndefined();
    }
    expect(billToBytes('99999999', 'TB')).toBeUndefined();
  });

  it('states the difference between bill and measurement with its sign', () => {
    expect(billDifference(110, 100)).toBe('+10.0%');
    expect(billDifference(975, 1000)).toBe('\u22122.5%');
    expect(billDifference(1000, 1000)).toBe('0.0%');
    expect(billDifference(5, 0)).toBe('');
  });

  it('writes bytes in the decimal units bills use', () => {
    expect(formatDecimalBytes(999)).toBe('999 B');
    expect(formatDecimalBytes(1_500_000_000)).toBe('1.50 GB');
    expect(formatDecimalBytes(2_345_000_000_000)).toBe('2.35 TB');
  });
});
