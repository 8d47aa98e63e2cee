import { describe, expect, it } from 'vitest';
import type { TrafficStats } from '../api/traffic';
import { barHeights, coveragePercent, dataIssues, rebuildProgress } from './traffic';

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
  });
});
