import type { HistoryResponse } from '../api/metrics';

/** Columns for uPlot: x in epoch seconds, then one column per series (null = no value). */
export type AlignedColumns = [number[], ...(number | null)[][]];

/** Points farther apart than this many report intervals (and two steps) break the line. */
export const GAP_INTERVALS = 2.5;

/**
 * The node's report interval as the data shows it: the median spacing of consecutive points.
 * On raw ranges whose step is shorter than the interval (3 s buckets of a node that reports
 * every 10 s) this is the interval; on aggregate ranges it is the step.
 */
export function medianSpacing(times: readonly number[]): number | null {
  const d: number[] = [];
  for (let i = 1; i < times.length; i++) {
    const g = (times[i] as number) - (times[i - 1] as number);
    if (g > 0) d.push(g);
  }
  if (d.length === 0) return null;
  d.sort((a, b) => a - b);
  return d[Math.floor((d.length - 1) / 2)] as number;
}

/**
 * Longest distance between two points (seconds) still drawn as one line: two steps of the
 * range, or GAP_INTERVALS report intervals of the node when it reports less often than the
 * step. A longer distance is an outage and the line breaks there.
 */
export function gapThreshold(stepSec: number, intervalSec: number | null): number {
  return Math.max(2 * Math.max(1, stepSec), GAP_INTERVALS * (intervalSec ?? 0));
}

/**
 * Joins several history answers on their timestamps. Points exist only for buckets with data,
 * so a jump longer than gapThreshold gets a null row: the line breaks instead of bridging an
 * outage. `intervalSec` is the node's report interval when known; otherwise it is read from
 * the points.
 */
export function mergeSeries(
  responses: readonly HistoryResponse[],
  intervalSec?: number,
): AlignedColumns {
  const step = Math.max(1, ...responses.map((r) => r.step_sec || 1));
  const maps = responses.map((r) => {
    const m = new Map<number, number | null>();
    for (const p of r.points) {
      const t = Math.floor(Date.parse(p.ts) / 1000);
      if (Number.isFinite(t)) m.set(t, p.value);
    }
    return m;
  });
  const times = [...new Set(maps.flatMap((m) => [...m.keys()]))].sort((a, b) => a - b);
  const interval =
    intervalSec ?? Math.max(0, ...maps.map((m) => medianSpacing([...m.keys()].sort()) ?? 0));
  const limit = gapThreshold(step, interval || null);
  const xs: number[] = [];
  const ys: (number | null)[][] = responses.map(() => []);
  let prev: number | null = null;
  for (const t of times) {
    if (prev !== null && t - prev > limit) {
      xs.push(prev + Math.min(step, (t - prev) / 2));
      for (const col of ys) col.push(null);
    }
    xs.push(t);
    maps.forEach((m, i) => ys[i]!.push(m.get(t) ?? null));
    prev = t;
  }
  return [xs, ...ys];
}

export function hasPoints(cols: AlignedColumns): boolean {
  return cols.slice(1).some((col) => col.some((v) => v !== null));
}

/**
 * Appends one live sample (a report that arrived after the series was fetched) and drops the
 * points that slid out of the window. Returns the same object when nothing changes: a sample
 * not newer than the last point, or one without any value.
 */
export function appendSample(
  cols: AlignedColumns,
  tSec: number,
  values: readonly (number | null | undefined)[],
  windowStartSec: number,
  limitSec: number,
): AlignedColumns {
  const [xs, ...ys] = cols;
  const last = xs.at(-1);
  if (last !== undefined && tSec <= last) return cols;
  if (!values.some((v) => v !== null && v !== undefined && Number.isFinite(v))) return cols;
  let from = 0;
  while (from < xs.length && (xs[from] as number) < windowStartSec) from++;
  const nx = xs.slice(from);
  const ny = ys.map((col) => col.slice(from));
  if (last !== undefined && tSec - last > limitSec && nx.length > 0) {
    nx.push(last + Math.min(limitSec / 2, (tSec - last) / 2));
    for (const col of ny) col.push(null);
  }
  nx.push(tSec);
  ny.forEach((col, i) => {
    const v = values[i];
    col.push(v === undefined || v === null || !Number.isFinite(v) ? null : v);
  });
  return [nx, ...ny];
}
