import { describe, expect, it } from 'vitest';
import type { HistoryResponse } from '../api/metrics';
import { hasPoints, mergeSeries } from './series';

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
});
