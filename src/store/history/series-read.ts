import {
  DEVICE_METRICS,
  HOST_METRICS,
  isDeviceMetric,
  type HistoryMetric,
} from '../../protocol/history-metrics.js';
import type { DeviceKind, HistoryPoint, HistoryQuery, NicSample } from '../ports.js';
import { DEVICE_SCALES } from '../sqlite/metrics-codec.js';
import { Agg, bucketOfRollupId, decodeRollup, decodeRollupHost } from '../sqlite/rollup-codec.js';

/**
 * The engine-free half of a history read (reference §4.5), shared by the SQLite and PostgreSQL
 * readers so both answer every query with the same points: which series a query picks, which
 * rollup buckets it reads and where its raw tail starts, how rollup rows and raw points fold
 * into buckets. The engines only fetch rows.
 */

/** Picks one series out of a bucket record or a raw row. */
export interface Selector {
  host?: number;
  kind?: DeviceKind;
  index: number;
  /** Device ids to include; undefined = every device of the kind. */
  ids?: Set<number>;
}

/**
 * The series a query reads; `lookupIds` finds the ids of a named device. undefined: the query
 * names a device the node never reported (no points).
 */
export async function selectorOf(
  q: HistoryQuery,
  lookupIds: (kind: DeviceKind, device: string) => number[] | Promise<number[]>,
): Promise<Selector | undefined> {
  const metric = q.metric as HistoryMetric;
  if (!isDeviceMetric(metric)) {
    const host = (HOST_METRICS as readonly string[]).indexOf(metric);
    if (host < 0) throw new Error(`unknown history metric ${q.metric}`);
    return { host, index: 0 };
  }
  const { kind, index } = DEVICE_METRICS[metric];
  if (q.device === undefined) return { kind, index };
  const ids = await lookupIds(kind, q.device);
  return ids.length === 0 ? undefined : { kind, index, ids: new Set(ids) };
}

export type RollupTable = '15m' | '1h';

/** One rollup table's share of a read: buckets starting in [from, until). */
export interface RollupPart {
  source: RollupTable;
  from: number;
  until: number;
}

/**
 * Which rollup buckets an aggregate range reads and where its raw tail starts, from the tables'
 * watermarks (materialised up to, exclusive). The 1-hour watermark trails the 15-minute one by
 * up to an hour; the 15-minute buckets in between are exact parts of the unfinished hour, so
 * only the last quarter (at most) is read raw.
 */
export function readPlan(
  q: Pick<HistoryQuery, 'source' | 'from' | 'to'>,
  done: Record<RollupTable, number | undefined>,
): { parts: RollupPart[]; tailFrom: number } {
  const tables: readonly RollupTable[] =
    q.source === '15m' ? ['15m'] : q.source === '1h' ? ['1h', '15m'] : [];
  const parts: RollupPart[] = [];
  let from = q.from;
  for (const source of tables) {
    const until = Math.min(q.to, done[source] ?? from);
    if (until <= from) continue;
    parts.push({ source, from, until });
    from = until;
  }
  return { parts, tailFrom: from };
}

/** Rollup row id range [lo, hi) of one node's buckets starting in [from, until). */
export function rollupIdRange(
  nodeId: number,
  from: number,
  until: number,
  bucketMs: number,
  shift: number,
): [number, number] {
  const base = nodeId * shift;
  return [base + Math.floor(from / bucketMs), base + Math.ceil(until / bucketMs)];
}

/** Pushes the non-empty aggs the selector picks from one rollup row, in blob order. */
export function selectedAggs(
  id: number,
  data: Uint8Array,
  bucketMs: number,
  sel: Selector,
  push: (bucketStart: number, agg: Agg) => void,
): void {
  const start = bucketOfRollupId(id, bucketMs);
  if (sel.host !== undefined) {
    const a = decodeRollupHost(data, sel.host);
    if (a && a.count > 0) push(start, a);
    return;
  }
  for (const d of decodeRollup(data).devices.values()) {
    if (d.kind !== sel.kind || (sel.ids && !sel.ids.has(d.id))) continue;
    const a = d.aggs[sel.index];
    if (a && a.count > 0) push(start, a);
  }
}

export function seriesKey(sel: Selector): string {
  if (sel.host !== undefined) return `h${sel.host}`;
  const ids = sel.ids ? [...sel.ids].sort((a, b) => a - b).join(',') : '*';
  return `d${sel.kind}:${sel.index}:${ids}`;
}

export function aggAt(out: Map<number, Agg>, b: number): Agg {
  let a = out.get(b);
  if (!a) {
    a = new Agg();
    out.set(b, a);
  }
  return a;
}

/** Adds raw points to the query's buckets. */
export function foldPoints(
  out: Map<number, Agg>,
  stepMs: number,
  points: Iterable<{ at: number; value: number }>,
): void {
  for (const p of points) aggAt(out, Math.floor(p.at / stepMs) * stepMs).add(p.value);
}

/** The answer: one point per bucket holding data, ascending. */
export function pointsOf(out: Map<number, Agg>, agg: HistoryQuery['agg']): HistoryPoint[] {
  const points: HistoryPoint[] = [];
  for (const [ts, a] of out) if (a.count > 0) points.push({ ts, value: a.value(agg) });
  return points.sort((x, y) => x.ts - y.ts);
}

/** Whether a query can have points at all. */
export function emptyQuery(q: HistoryQuery): boolean {
  return !(q.stepMs > 0) || q.to <= q.from;
}

/** One interface's stored counters in one report, unscaled (nicSamples). */
export function nicSample(
  names: ReadonlyMap<number, string>,
  at: number,
  id: number,
  values: readonly number[],
): NicSample {
  const scales = DEVICE_SCALES.iface;
  const v = (i: number) => (values[i] ?? 0) / (scales[i] ?? 1);
  return {
    receivedAt: at,
    iface: names.get(id) ?? `#${id}`,
    bytesRecv: v(0),
    bytesSent: v(1),
    recvBps: v(2),
    sentBps: v(3),
  };
}
