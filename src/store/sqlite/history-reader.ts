import type BetterSqlite3 from 'better-sqlite3';
import type { DeviceKind, HistoryQuery, HistoryRepo, NicSample } from '../ports.js';
import {
  emptyQuery,
  foldPoints,
  aggAt,
  nicSample,
  pointsOf,
  readPlan,
  rollupIdRange,
  selectedAggs,
  selectorOf,
  seriesKey,
  type RollupPart,
  type Selector,
} from '../history/series-read.js';
import { DEVICE_KIND_BY_CODE } from './device-registry.js';
import { historySource, type OpenLogs } from './history-source.js';
import { DEVICE_KIND_CODE } from './metrics-codec.js';
import {
  BUCKET_15M,
  BUCKET_1H,
  WATERMARK_15M,
  WATERMARK_1H,
  watermarks,
} from './metrics-jobs-state.js';
import { ROLLUP_NODE_SHIFT, type Agg } from './rollup-codec.js';
import { RollupSeriesCache, type SeriesLoader } from '../history/rollup-series-cache.js';

/**
 * History reads (reference §4.5). Raw ranges bucket raw history (sealed blocks and the open
 * raw rows, history-blocks.ts); rollup ranges read 15-minute or 1-hour rows and add the raw tail
 * newer than the last materialised bucket, so the newest minutes show up before the rollup job
 * has run. Nothing reads raw history beyond that tail. What to read and how it folds is shared
 * with PostgreSQL (store/history/series-read.ts).
 */
export function historyReader(db: BetterSqlite3.Database, logs?: OpenLogs): HistoryRepo {
  const raw = historySource(db, logs);
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

  const selector = (q: HistoryQuery) =>
    selectorOf(
      q,
      (kind, device) =>
        deviceIds.all({ node: q.nodeId, kind: DEVICE_KIND_CODE[kind], device }) as number[],
    );

  function bucketsFromRaw(q: HistoryQuery, sel: Selector, from: number, out: Map<number, Agg>) {
    const points =
      sel.host !== undefined
        ? raw.hostSeries(q.nodeId, sel.host, from, q.to)
        : raw.deviceSeries(q.nodeId, sel.kind ?? 'iface', sel.index, sel.ids, from, q.to);
    foldPoints(out, q.stepMs, points);
  }

  /** Loads the non-empty aggs the selector picks from rollup rows, in bucket then blob order. */
  function rollupLoader(nodeId: number, sel: Selector, source: '15m' | '1h'): SeriesLoader {
    const bucketMs = source === '1h' ? BUCKET_1H : BUCKET_15M;
    return (from, until, push) => {
      const [lo, hi] = rollupIdRange(nodeId, from, until, bucketMs, ROLLUP_NODE_SHIFT);
      // all() rather than iterate(): a bounded range, and stepping row by row costs more.
      for (const [id, data] of rollupRows[source].all(lo, hi) as Array<[number, Uint8Array]>) {
        selectedAggs(id, data, bucketMs, sel, push);
      }
    };
  }

  /** Folds the materialised buckets of one part of a read into `out`. */
  function bucketsFromRollup(
    q: HistoryQuery,
    sel: Selector,
    part: RollupPart,
    out: Map<number, Agg>,
  ) {
    const bucketMs = part.source === '1h' ? BUCKET_1H : BUCKET_15M;
    const load = rollupLoader(q.nodeId, sel, part.source);
    const visit = (start: number, a: Agg): void => {
      aggAt(out, Math.floor(start / q.stepMs) * q.stepMs).merge(a);
    };
    if (part.from % bucketMs === 0 && part.until % bucketMs === 0) {
      const key = `${q.nodeId}:${part.source}:${seriesKey(sel)}`;
      cache.fold(key, part.from, part.until, load, visit);
    } else {
      load(part.from, part.until, visit);
    }
  }

  return {
    async points(q) {
      if (emptyQuery(q)) return [];
      const sel = await selector(q);
      if (!sel) return [];
      const out = new Map<number, Agg>();
      const plan = readPlan(q, { '15m': wm.get(WATERMARK_15M), '1h': wm.get(WATERMARK_1H) });
      for (const part of plan.parts) bucketsFromRollup(q, sel, part, out);
      if (plan.tailFrom < q.to) bucketsFromRaw(q, sel, plan.tailFrom, out);
      return pointsOf(out, q.agg);
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
      for (const d of raw.deviceRows(nodeId, 'iface', from, to)) {
        out.push(nicSample(names, d.at, d.id, d.values));
      }
      return out;
    },

    async devices(nodeId, kind: DeviceKind) {
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

export { DEVICE_KIND_BY_CODE };
