import type BetterSqlite3 from 'better-sqlite3';
import {
  DEVICE_METRICS,
  HOST_METRICS,
  isDeviceMetric,
  type HistoryMetric,
} from '../../protocol/history-metrics.js';
import type { DeviceKind, HistoryPoint, HistoryQuery, HistoryRepo, NicSample } from '../ports.js';
import { DEVICE_KIND_BY_CODE } from './device-registry.js';
import { historySource } from './history-source.js';
import { DEVICE_KIND_CODE, DEVICE_SCALES } from './metrics-codec.js';
import {
  BUCKET_15M,
  BUCKET_1H,
  WATERMARK_15M,
  WATERMARK_1H,
  watermarks,
} from './metrics-jobs-state.js';
import {
  Agg,
  ROLLUP_NODE_SHIFT,
  bucketOfRollupId,
  decodeRollup,
  decodeRollupHost,
} from './rollup-codec.js';
import { RollupSeriesCache, type SeriesLoader } from './rollup-series-cache.js';

/** Picks one series out of a bucket record or a raw row. */
interface Selector {
  host?: number;
  kind?: DeviceKind;
  index: number;
  /** Device ids to include; undefined = every device of the kind. */
  ids?: Set<number>;
}

/**
 * History reads (reference §4.5). Raw ranges bucket raw history (sealed blocks and the open
 * raw rows, history-blocks.ts); rollup ranges read 15-minute or 1-hour rows and add the raw tail
 * newer than the last materialised bucket, so the newest minutes show up before the rollup job
 * has run. Nothing reads raw history beyond that tail.
 */
export function historyReader(db: BetterSqlite3.Database): HistoryRepo {
  const raw = historySource(db);
  const wm = watermarks(db);
  const cache = new RollupSeriesCache();
  const deviceIds = db
    .prepare(
      `SELECT id FROM metric_devices WHERE node_id = @node AND kind = @kind
         AND (name = @device OR ref = @device OR (alt != '' AND alt = @device))`,
    )
    .pluck();
  const rollupRows = {
    '15m': db
      .prepare('SELECT id, data FROM metrics_15m WHERE id >= ? AND id < ? ORDER BY id')
      .raw(),
    '1h': db.prepare('SELECT id, data FROM metrics_1h WHERE id >= ? AND id < ? ORDER BY id').raw(),
  };
  const listDevices = db.prepare(
    `SELECT name, ref, alt, last_seen_at FROM metric_devices WHERE node_id = ? AND kind = ?
     ORDER BY last_seen_at DESC, name`,
  );
  const ifaceNames = db.prepare(
    'SELECT id, name FROM metric_devices WHERE node_id = ? AND kind = ?',
  );

  function selector(q: HistoryQuery): Selector | undefined {
    const metric = q.metric as HistoryMetric;
    if (!isDeviceMetric(metric)) {
      const host = (HOST_METRICS as readonly string[]).indexOf(metric);
      if (host < 0) throw new Error(`unknown history metric ${q.metric}`);
      return { host, index: 0 };
    }
    const { kind, index } = DEVICE_METRICS[metric];
    if (q.device === undefined) return { kind, index };
    const ids = deviceIds.all({
      node: q.nodeId,
      kind: DEVICE_KIND_CODE[kind],
      device: q.device,
    }) as number[];
    return ids.length === 0 ? undefined : { kind, index, ids: new Set(ids) };
  }

  function bucketsFromRaw(
    q: HistoryQuery,
    sel: Selector,
    from: number,
    out: Map<number, Agg>,
  ): void {
    const step = q.stepMs;
    const points =
      sel.host !== undefined
        ? raw.hostSeries(q.nodeId, sel.host, from, q.to)
        : raw.deviceSeries(q.nodeId, sel.kind ?? 'iface', sel.index, sel.ids, from, q.to);
    for (const p of points) aggAt(out, Math.floor(p.at / step) * step).add(p.value);
  }

  /** Loads the non-empty aggs the selector picks from rollup rows, in bucket then blob order. */
  function rollupLoader(
    nodeId: number,
    sel: Selector,
    source: '15m' | '1h',
    bucketMs: number,
  ): SeriesLoader {
    return (from, until, push) => {
      const base = nodeId * ROLLUP_NODE_SHIFT;
      const lo = base + Math.floor(from / bucketMs);
      const hi = base + Math.ceil(until / bucketMs);
      // all() rather than iterate(): a bounded range, and stepping row by row costs more.
      for (const [id, data] of rollupRows[source].all(lo, hi) as Array<[number, Uint8Array]>) {
        const start = bucketOfRollupId(id, bucketMs);
        if (sel.host !== undefined) {
          const a = decodeRollupHost(data, sel.host);
          if (a && a.count > 0) push(start, a);
          continue;
        }
        for (const d of decodeRollup(data).devices.values()) {
          if (d.kind !== sel.kind || (sel.ids && !sel.ids.has(d.id))) continue;
          const a = d.aggs[sel.index];
          if (a && a.count > 0) push(start, a);
        }
      }
    };
  }

  /**
   * Folds the materialised buckets of one rollup table from `from` on into `out` and returns how
   * far they reach (from itself when none are done yet).
   */
  function bucketsFromRollup(
    q: HistoryQuery,
    sel: Selector,
    source: '15m' | '1h',
    from: number,
    out: Map<number, Agg>,
  ): number {
    const bucketMs = source === '1h' ? BUCKET_1H : BUCKET_15M;
    const done = wm.get(source === '1h' ? WATERMARK_1H : WATERMARK_15M) ?? from;
    const until = Math.min(q.to, done);
    if (until <= from) return from;
    const load = rollupLoader(q.nodeId, sel, source, bucketMs);
    const visit = (start: number, a: Agg): void => {
      aggAt(out, Math.floor(start / q.stepMs) * q.stepMs).merge(a);
    };
    if (from % bucketMs === 0 && until % bucketMs === 0) {
      cache.fold(`${q.nodeId}:${source}:${seriesKey(sel)}`, from, until, load, visit);
    } else {
      load(from, until, visit);
    }
    return until;
  }

  /**
   * Where the raw tail starts after the rollups of an aggregate range. The 1-hour watermark
   * trails the 15-minute one by up to an hour; the 15-minute buckets in between are exact parts
   * of the unfinished hour, so only the last quarter (at most) is read raw.
   */
  function foldRollups(q: HistoryQuery, sel: Selector, out: Map<number, Agg>): number {
    if (q.source === '15m') return bucketsFromRollup(q, sel, '15m', q.from, out);
    return bucketsFromRollup(q, sel, '15m', bucketsFromRollup(q, sel, '1h', q.from, out), out);
  }

  return {
    async points(q) {
      if (!(q.stepMs > 0) || q.to <= q.from) return [];
      const sel = selector(q);
      if (!sel) return [];
      const out = new Map<number, Agg>();
      const tailFrom = q.source === 'raw' ? q.from : foldRollups(q, sel, out);
      if (tailFrom < q.to) bucketsFromRaw(q, sel, tailFrom, out);
      const points: HistoryPoint[] = [];
      for (const [ts, a] of out) if (a.count > 0) points.push({ ts, value: a.value(q.agg) });
      return points.sort((x, y) => x.ts - y.ts);
    },

    async nicSamples(nodeId, from, to) {
      const names = new Map<number, string>();
      for (const r of ifaceNames.all(nodeId, DEVICE_KIND_CODE.iface) as Array<{
        id: number;
        name: string;
      }>) {
        names.set(r.id, r.name);
      }
      const out: NicSample[] = [];
      const scales = DEVICE_SCALES.iface;
      const at = (v: number[], i: number) => (v[i] ?? 0) / (scales[i] ?? 1);
      for (const d of raw.deviceRows(nodeId, 'iface', from, to)) {
        out.push({
          receivedAt: d.at,
          iface: names.get(d.id) ?? `#${d.id}`,
          bytesRecv: at(d.values, 0),
          bytesSent: at(d.values, 1),
          recvBps: at(d.values, 2),
          sentBps: at(d.values, 3),
        });
      }
      return out;
    },

    async devices(nodeId, kind) {
      const list = listDevices.all(nodeId, DEVICE_KIND_CODE[kind]) as Array<{
        name: string;
        ref: string;
        alt: string;
        last_seen_at: number;
      }>;
      return list.map((d) => ({
        name: d.name,
        ref: d.ref,
        alt: d.alt,
        lastSeenAt: d.last_seen_at,
      }));
    },
  };
}

function seriesKey(sel: Selector): string {
  if (sel.host !== undefined) return `h${sel.host}`;
  const ids = sel.ids ? [...sel.ids].sort((a, b) => a - b).join(',') : '*';
  return `d${sel.kind}:${sel.index}:${ids}`;
}

function aggAt(out: Map<number, Agg>, b: number): Agg {
  let a = out.get(b);
  if (!a) {
    a = new Agg();
    out.set(b, a);
  }
  return a;
}

export { DEVICE_KIND_BY_CODE };
