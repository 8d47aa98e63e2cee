import { describe, expect, it } from 'vitest';
import type { HistoryResponse } from '../api/metrics';
import {
  appendSample,
  gapThreshold,
  hasPoints,
  medianSpacing,
  mergeSeries,
  type AlignedColumns,
} from './series';

function answer(metric: string, points: [string, number | null][], step = 60): HistoryResponse {
  return {
    server_id: 1,
    metric,
    range: '12h',
    agg: 'avg',
    step_sec: step,
    points: points.map(([ts, value]) => ({ ts, value })),
  };
}

const sec = (iso: string) => Date.parse(iso) / 1000;

describe('mergeSeries', () => {
  it('joins series on the union of their timestamps', () => {
    const cols = mergeSeries([
      answer('net.recv_bps', [
        ['2025-01-01T00:00:00Z', 1],
        ['2025-01-01T00:01:00Z', 2],
      ]),
      answer('net.sent_bps', [['2025-01-01T00:01:00Z', 5]]),
    ]);
    expect(cols).toEqual([
      [sec('2025-01-01T00:00:00Z'), sec('2025-01-01T00:01:00Z')],
      [1, 2],
      [null, 5],
    ]);
  });

  it('breaks the line where buckets are missing for more than two steps', () => {
    const cols = mergeSeries([
      answer('cpu.usage_ratio', [
        ['2025-01-01T00:00:00Z', 0.1],
        ['2025-01-01T00:02:00Z', 0.2],
        ['2025-01-01T01:00:00Z', 0.3],
      ]),
    ]);
    expect(cols[0]).toEqual([
      sec('2025-01-01T00:00:00Z'),
      sec('2025-01-01T00:02:00Z'),
      sec('2025-01-01T00:03:00Z'),
      sec('2025-01-01T01:00:00Z'),
    ]);
    expect(cols[1]).toEqual([0.1, 0.2, null, 0.3]);
  });

  it('tells empty answers apart from answers with values', () => {
    expect(hasPoints(mergeSeries([answer('x', [])]))).toBe(false);
    expect(hasPoints(mergeSeries([answer('x', [['2025-01-01T00:00:00Z', null]])]))).toBe(false);
    expect(hasPoints(mergeSeries([answer('x', [['2025-01-01T00:00:00Z', 0]])]))).toBe(true);
  });

  it('judges gaps against the node report interval, not the range step', () => {
    // 30 min range (3 s buckets) of a node that reports every 10 s: points 9-12 s apart.
    const base = Date.parse('2025-01-01T00:00:00Z');
    const offsets = [0, 9, 21, 30, 42, 51, 60, 150, 159, 171];
    const r = answer(
      'cpu.usage_ratio',
      offsets.map((o) => [new Date(base + o * 1000).toISOString(), 0.5]),
      3,
    );
    const cols = mergeSeries([r]);
    // One null row only: at the 90 s outage, not between reports 9 or 12 s apart.
    const ys = cols[1] ?? [];
    expect(ys.filter((v) => v === null)).toHaveLength(1);
    const gapAt = ys.indexOf(null);
    expect(cols[0][gapAt - 1]).toBe(base / 1000 + 60);
    // A known interval overrides the estimate.
    expect((mergeSeries([r], 60)[1] ?? []).filter((v) => v === null)).toHaveLength(0);
  });
});

describe('gap helpers', () => {
  it('estimates the interval as the median spacing', () => {
    expect(medianSpacing([0, 10, 20, 31, 40, 400])).toBe(10);
    expect(medianSpacing([5])).toBeNull();
  });

  it('allows two steps, or 2.5 intervals when the node reports less often', () => {
    expect(gapThreshold(60, 60)).toBe(150);
    expect(gapThreshold(3, 10)).toBe(25);
    expect(gapThreshold(900, null)).toBe(1800);
  });
});

describe('appendSample', () => {
  const cols: AlignedColumns = [
    [100, 103, 106],
    [1, 2, 3],
    [4, 5, 6],
  ];

  it('adds a newer report as one row and keeps the object for an old one', () => {
    expect(appendSample(cols, 109, [7, 8], 0, 10)).toEqual([
      [100, 103, 106, 109],
      [1, 2, 3, 7],
      [4, 5, 6, 8],
    ]);
    expect(appendSample(cols, 106, [7, 8], 0, 10)).toBe(cols);
    expect(appendSample(cols, 109, [undefined, null], 0, 10)).toBe(cols);
  });

  it('drops points that slid out of the window and breaks the line after an outage', () => {
    expect(appendSample(cols, 140, [7, undefined], 103, 10)).toEqual([
      [103, 106, 111, 140],
      [2, 3, null, 7],
      [5, 6, null, null],
    ]);
  });

  it('starts a series from nothing', () => {
    expect(appendSample([[], []], 5, [1], 0, 10)).toEqual([[5], [1]]);
  });
});
