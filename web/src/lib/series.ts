import type { HistoryResponse } from '../api/metrics';

/** Columns for uPlot: x in epoch seconds, then one column per series (null = no value). */
export type AlignedColumns = [number[], ...(number | null)[][]];

/**
 * Joins several history answers on their timestamps. Points exist only for buckets with data,
 * so a jump of more than two steps gets a null row: the line breaks instead of bridging an
 * outage.
 */
export function mergeSeries(responses: readonly HistoryResponse[]): AlignedColumns {
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
  const xs: number[] = [];
  const ys: (number | null)[][] = responses.map(() => []);
  let prev: number | null = null;
  for (const t of times) {
    if (prev !== null && t - prev > 2 * step) {
      xs.push(prev + step);
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
