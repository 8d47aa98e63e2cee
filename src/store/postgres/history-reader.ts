import type pg from 'pg';
import type { DeviceKind, HistoryQuery, HistoryRepo, NicSample } from '../ports.js';
import {
  aggAt,
  emptyQuery,
  foldPoints,
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
import { RollupSeriesCache, type AsyncSeriesLoader } from '../history/rollup-series-cache.js';
import { storedDevices } from '../sqlite/history-blocks.js';
import {
  DEVICE_KIND_CODE,
  DEVICE_SCALES,
  HOST_COLUMNS,
  HOST_SCALES,
} from '../sqlite/metrics-codec.js';
import {
  BUCKET_15M,
  BUCKET_1H,
  WATERMARK_15M,
  WATERMARK_1H,
} from '../sqlite/metrics-jobs-state.js';
import { ROLLUP_NODE_SHIFT, rollupHostPrefixBytes, type Agg } from '../sqlite/rollup-codec.js';

import { inTransaction } from './pool.js';

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/** The rollup watermarks (materialised up to, exclusive), as the rollup job stored them. */
export async function rollupWatermarks(
  db: Queryable,
): Promise<Record<'15m' | '1h', number | undefined>> {
  const res = await db.query<{ name: string; watermark: number }>(
    'SELECT name, watermark FROM metrics_jobs WHERE name = ANY($1::text[])',
    [[WATERMARK_15M, WATERMARK_1H]],
  );
  const get = (name: string) => res.rows.find((r) => r.name === name)?.watermark;
  return { '15m': get(WATERMARK_15M), '1h': get(WATERMARK_1H) };
}

/**
 * History reads on PostgreSQL, answering exactly as the SQLite reader does (both plan and fold
 * through store/history/series-read.ts; a contract test compares them): raw ranges bucket the
 * rows of the day partitions the range touches, rollup ranges read `metrics_15m` / `metrics_1h`
 * below their watermarks plus the raw tail after them. PostgreSQL keeps no sealed blocks, so
 * raw history is rows only. Each read is one REPEATABLE READ transaction: the watermark, the
 * rollup rows and the tail come from one snapshot, as SQLite's read transaction gives.
 */
export function postgresHistoryReader(pool: pg.Pool): HistoryRepo {
  const snapshot = <T>(fn: (db: pg.PoolClient) => Promise<T>): Promise<T> =>
    inTransaction(pool, fn, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  const cache = new RollupSeriesCache();

  async function rawPoints(db: Queryable, q: HistoryQuery, sel: Selector, from: number) {
    if (sel.host !== undefined) return hostSeries(db, q.nodeId, sel.host, from, q.to);
    const kind = sel.kind ?? 'iface';
    const code = DEVICE_KIND_CODE[kind];
    const scale = DEVICE_SCALES[kind][sel.index] ?? 1;
    const out: Array<{ at: number; value: number }> = [];
    for (const [at, blob] of await deviceBlobs(db, q.nodeId, from, q.to)) {
      for (const d of storedDevices(blob)) {
        if (d.kind !== code || (sel.ids && !sel.ids.has(d.id))) continue;
        const v = d.values[sel.index];
        if (v !== undefined) out.push({ at, value: v / scale });
      }
    }
    return out;
  }

  /** Loads the aggs the selector picks from rollup rows of this read's snapshot. */
  function rollupLoader(
    db: Queryable,
    nodeId: number,
    sel: Selector,
    source: '15m' | '1h',
  ): AsyncSeriesLoader {
    const bucketMs = source === '1h' ? BUCKET_1H : BUCKET_15M;
    const table = source === '1h' ? 'metrics_1h' : 'metrics_15m';
    // A host series sits at the head of each record: fetch only that (a few dozen bytes of ~2 KB).
    const data =
      sel.host !== undefined
        ? `substring(data from 1 for ${rollupHostPrefixBytes(sel.host)})`
        : 'data';
    return async (from, until, push) => {
      const [lo, hi] = rollupIdRange(nodeId, from, until, bucketMs, ROLLUP_NODE_SHIFT);
      const res = await db.query<[number, Buffer]>({
        text: `SELECT id, ${data} FROM ${table} WHERE id >= $1 AND id < $2 ORDER BY id`,
        values: [lo, hi],
        rowMode: 'array',
      });
      for (const [id, bytes] of res.rows) selectedAggs(id, bytes, bucketMs, sel, push);
    };
  }

  /**
   * Folds the materialised buckets of one part of a read into `out`, through the series cache
   * when the part is bucket-aligned. Its `until` is the watermark read in this read's snapshot
   * and the loader reads in the same snapshot, so the cache only ever holds buckets that were
   * below the watermark when loaded — final, whichever instance's rollup job wrote them.
   */
  async function foldRollup(
    db: Queryable,
    q: HistoryQuery,
    sel: Selector,
    part: RollupPart,
    out: Map<number, Agg>,
  ): Promise<void> {
    const bucketMs = part.source === '1h' ? BUCKET_1H : BUCKET_15M;
    const load = rollupLoader(db, q.nodeId, sel, part.source);
    const visit = (start: number, a: Agg): void => {
      aggAt(out, Math.floor(start / q.stepMs) * q.stepMs).merge(a);
    };
    if (part.from % bucketMs === 0 && part.until % bucketMs === 0) {
      const key = `${q.nodeId}:${part.source}:${seriesKey(sel)}`;
      await cache.foldAsync(key, part.from, part.until, load, visit);
    } else {
      await load(part.from, part.until, visit);
    }
  }

  return {
    async points(q) {
      if (emptyQuery(q)) return [];
      return snapshot(async (db) => {
        const sel = await selectorOf(q, async (kind, device) => {
          const res = await db.query<{ id: number }>(
            `SELECT id FROM metric_devices WHERE node_id = $1 AND kind = $2
               AND (name = $3 OR ref = $3 OR (alt <> '' AND alt = $3))`,
            [q.nodeId, DEVICE_KIND_CODE[kind], device],
          );
          return res.rows.map((r) => r.id);
        });
        if (!sel) return [];
        const out = new Map<number, Agg>();
        const plan = readPlan(
          q,
          q.source === 'raw' ? { '15m': undefined, '1h': undefined } : await rollupWatermarks(db),
        );
        for (const part of plan.parts) await foldRollup(db, q, sel, part, out);
        if (plan.tailFrom < q.to)
          foldPoints(out, q.stepMs, await rawPoints(db, q, sel, plan.tailFrom));
        return pointsOf(out, q.agg);
      });
    },

    async nicSamples(nodeId, from, to) {
      return snapshot(async (db) => {
        const res = await db.query<{ id: number; name: string }>(
          'SELECT id, name FROM metric_devices WHERE node_id = $1 AND kind = $2',
          [nodeId, DEVICE_KIND_CODE.iface],
        );
        const names = new Map(res.rows.map((r) => [r.id, r.name]));
        const out: NicSample[] = [];
        for (const [at, blob] of await deviceBlobs(db, nodeId, from, to)) {
          for (const d of storedDevices(blob)) {
            if (d.kind === DEVICE_KIND_CODE.iface) out.push(nicSample(names, at, d.id, d.values));
          }
        }
        return out;
      });
    },

    async devices(nodeId, kind: DeviceKind) {
      const res = await pool.query<{
        name: string;
        ref: string;
        alt: string;
        last_seen_at: number;
      }>(
        `SELECT name, ref, alt, last_seen_at FROM metric_devices WHERE node_id = $1 AND kind = $2
         ORDER BY last_seen_at DESC, name COLLATE "C"`,
        [nodeId, DEVICE_KIND_CODE[kind]],
      );
      return res.rows.map((d) => ({
        name: d.name,
        ref: d.ref,
        alt: d.alt,
        lastSeenAt: d.last_seen_at,
      }));
    },
  };
}

/**
 * One host series of raw rows, scaled back, oldest first. One row of one comma-joined list
 * (`at,value,at,value…`) rather than a row per sample: a day of 3 s reports is ~29,000 rows, and
 * decoding that many result rows costs far more in the client than splitting one string. The
 * integers print exactly, so the points are those of the rows. No ORDER BY: sorting in the
 * aggregate costs the server more than checking here that the rows came in order (they do when
 * read in insertion order) and sorting when not; (node_id, received_at) is the key, so the order
 * is the same either way.
 */
async function hostSeries(
  db: Queryable,
  nodeId: number,
  host: number,
  from: number,
  to: number,
): Promise<Array<{ at: number; value: number }>> {
  const column = HOST_COLUMNS[host];
  if (column === undefined) throw new Error(`no host column ${host}`);
  const scale = HOST_SCALES[host] ?? 1;
  const res = await db.query<[string | null]>({
    text: `SELECT string_agg(received_at::text || ',' || ${column}::text, ',')
             FROM metrics_raw WHERE node_id = $1 AND received_at >= $2 AND received_at < $3
               AND ${column} IS NOT NULL`,
    values: [nodeId, from, to],
    rowMode: 'array',
  });
  const joined = res.rows[0]?.[0];
  if (joined === null || joined === undefined) return [];
  const parts = joined.split(',');
  const out = new Array<{ at: number; value: number }>(parts.length / 2);
  let sorted = true;
  for (let i = 0, j = 0; j < parts.length; i++, j += 2) {
    const at = Number(parts[j]);
    out[i] = { at, value: Number(parts[j + 1]) / scale };
    if (i > 0 && at < (out[i - 1] as { at: number }).at) sorted = false;
  }
  if (!sorted) out.sort((x, y) => x.at - y.at);
  return out;
}

async function deviceBlobs(
  db: Queryable,
  nodeId: number,
  from: number,
  to: number,
): Promise<Array<[number, Buffer]>> {
  const res = await db.query<[number, Buffer]>({
    text: `SELECT received_at, devices FROM metrics_raw WHERE node_id = $1 AND received_at >= $2
             AND received_at < $3 AND devices IS NOT NULL ORDER BY received_at`,
    values: [nodeId, from, to],
    rowMode: 'array',
  });
  return res.rows;
}
