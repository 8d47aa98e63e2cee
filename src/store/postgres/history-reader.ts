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
import {
  ROLLUP_NODE_SHIFT,
  bucketOfRollupId,
  rollupHostPrefixBytes,
  type Agg,
} from '../sqlite/rollup-codec.js';

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

type Watermarks = Record<'15m' | '1h', number | undefined>;

/** One rollup part of a read, with the bucket range this read fetches for it. */
interface PartFetch {
  part: RollupPart;
  bucketMs: number;
  /** Set when the part goes through the series cache. */
  key?: string;
  /** Buckets starting in [loadFrom, part.until) are fetched (the cache holds those before). */
  loadFrom: number;
}

/** A row of the one-statement read: tag 0 the watermarks, 1… a part's rollup rows, TAIL the tail. */
type ReadRow = [
  tag: number,
  a: number | null,
  b: number | null,
  bin: Buffer | null,
  txt: string | null,
];
const TAIL = 9;

/**
 * History reads on PostgreSQL, answering exactly as the SQLite reader does (both plan and fold
 * through store/history/series-read.ts; a contract test compares them): raw ranges bucket the
 * rows of the day partitions the range touches, rollup ranges read `metrics_15m` / `metrics_1h`
 * below their watermarks plus the raw tail after them. PostgreSQL keeps no sealed blocks, so
 * raw history is rows only.
 *
 * Every read is one statement, so one round trip and one snapshot (a statement sees a single
 * snapshot, as SQLite's read transaction gives). A rollup read plans with the watermarks the
 * previous read saw and fetches, in that statement, the watermarks themselves, the rollup rows
 * the series cache lacks and the raw tail; when the watermarks it gets back differ from the
 * ones it planned with (the rollup job ran since), it plans again with those, so what it folds
 * always comes from one snapshot whose watermarks it planned with.
 */
export function postgresHistoryReader(
  pool: pg.Pool,
  opts: { cache?: RollupSeriesCache } = {},
): HistoryRepo {
  const cache = opts.cache ?? new RollupSeriesCache();
  /** The watermarks the latest read saw; the next read plans with them. */
  let known: Watermarks | undefined;

  async function deviceIds(q: HistoryQuery, kind: DeviceKind, device: string) {
    const res = await pool.query<{ id: number }>(
      `SELECT id FROM metric_devices WHERE node_id = $1 AND kind = $2
         AND (name = $3 OR ref = $3 OR (alt <> '' AND alt = $3))`,
      [q.nodeId, DEVICE_KIND_CODE[kind], device],
    );
    return res.rows.map((r) => r.id);
  }

  /** A raw-only range: one statement of the series' rows, folded into the query's buckets. */
  async function rawRead(q: HistoryQuery, sel: Selector): Promise<Map<number, Agg>> {
    const out = new Map<number, Agg>();
    const tail = tailSql(q, sel, q.from, 1);
    const res = await pool.query<ReadRow>({
      text: `SELECT ${TAIL}, ${tail.text} ORDER BY 1, 2`,
      values: tail.values,
      rowMode: 'array',
    });
    foldTail(out, q, sel, q.from, res.rows);
    return out;
  }

  /**
   * A rollup range planned with `wm`: undefined with the watermarks actually seen when they
   * differ from `wm` (plan again), else the buckets.
   */
  async function rollupRead(
    q: HistoryQuery,
    sel: Selector,
    wm: Watermarks,
  ): Promise<{ seen: Watermarks; out?: Map<number, Agg> }> {
    const plan = readPlan(q, wm);
    const values: unknown[] = [WATERMARK_15M, WATERMARK_1H];
    const branches = [
      `SELECT 0, (SELECT watermark FROM metrics_jobs WHERE name = $1),
              (SELECT watermark FROM metrics_jobs WHERE name = $2), NULL::bytea, NULL::text`,
    ];
    const fetches: PartFetch[] = plan.parts.map((part, i) => {
      const bucketMs = part.source === '1h' ? BUCKET_1H : BUCKET_15M;
      const aligned = part.from % bucketMs === 0 && part.until % bucketMs === 0;
      const key = aligned ? `${q.nodeId}:${part.source}:${seriesKey(sel)}` : undefined;
      const loadFrom = key ? cache.loadsFrom(key, part.from, part.until) : part.from;
      if (loadFrom < part.until) {
        const [lo, hi] = rollupIdRange(q.nodeId, loadFrom, part.until, bucketMs, ROLLUP_NODE_SHIFT);
        values.push(lo, hi);
        const n = values.length;
        branches.push(
          `SELECT ${i + 1}, id, NULL::bigint, ${rollupData(sel)}, NULL::text
             FROM ${part.source === '1h' ? 'metrics_1h' : 'metrics_15m'}
            WHERE id >= $${n - 1} AND id < $${n}`,
        );
      }
      return { part, bucketMs, loadFrom, ...(key ? { key } : {}) };
    });
    if (plan.tailFrom < q.to) {
      const tail = tailSql(q, sel, plan.tailFrom, values.length + 1);
      values.push(...tail.values);
      branches.push(`SELECT ${TAIL}, ${tail.text}`);
    }
    const res = await pool.query<ReadRow>({
      text: `${branches.join('\nUNION ALL\n')}\nORDER BY 1, 2`,
      values,
      rowMode: 'array',
    });
    const head = res.rows[0];
    const seen: Watermarks = {
      '15m': head?.[1] ?? undefined,
      '1h': head?.[2] ?? undefined,
    };
    if (seen['15m'] !== wm['15m'] || seen['1h'] !== wm['1h']) return { seen };
    const out = new Map<number, Agg>();
    for (const [i, f] of fetches.entries()) {
      const rows = res.rows.filter((r) => r[0] === i + 1);
      await foldPart(q, sel, f, rows, out);
    }
    if (plan.tailFrom < q.to) {
      foldTail(
        out,
        q,
        sel,
        plan.tailFrom,
        res.rows.filter((r) => r[0] === TAIL),
      );
    }
    return { seen, out };
  }

  /**
   * Folds one part's buckets into `out` in bucket order, through the series cache when the part
   * is bucket-aligned. `rows` are its buckets from `loadFrom` on, fetched in the snapshot whose
   * watermark bounds the part: final. Should the cache have changed meanwhile (another read
   * stored or dropped an entry) and need buckets from before `loadFrom`, those are fetched on
   * their own; they lie below the watermark too, so any later snapshot has them as they were.
   */
  async function foldPart(
    q: HistoryQuery,
    sel: Selector,
    f: PartFetch,
    rows: ReadRow[],
    out: Map<number, Agg>,
  ): Promise<void> {
    const visit = (start: number, a: Agg): void => {
      aggAt(out, Math.floor(start / q.stepMs) * q.stepMs).merge(a);
    };
    const load: AsyncSeriesLoader = async (from, until, push) => {
      if (from < f.loadFrom) {
        await rollupLoader(pool, q.nodeId, sel, f.part.source)(from, f.loadFrom, push);
      }
      // The buckets rollupIdRange gives for [max(from, loadFrom), until): partial ones included.
      const lo = Math.floor(Math.max(from, f.loadFrom) / f.bucketMs) * f.bucketMs;
      const hi = Math.ceil(until / f.bucketMs) * f.bucketMs;
      for (const [, id, , bytes] of rows) {
        const start = bucketOfRollupId(id as number, f.bucketMs);
        if (start >= lo && start < hi)
          selectedAggs(id as number, bytes as Buffer, f.bucketMs, sel, push);
      }
    };
    if (f.key) await cache.foldAsync(f.key, f.part.from, f.part.until, load, visit);
    else await load(f.part.from, f.part.until, visit);
  }

  return {
    async points(q) {
      if (emptyQuery(q)) return [];
      const sel = await selectorOf(q, (kind, device) => deviceIds(q, kind, device));
      if (!sel) return [];
      if (q.source === 'raw') return pointsOf(await rawRead(q, sel), q.agg);
      let wm = known ?? (await rollupWatermarks(pool));
      for (;;) {
        const r = await rollupRead(q, sel, wm);
        known = r.seen;
        if (r.out) return pointsOf(r.out, q.agg);
        wm = r.seen;
      }
    },

    async nicSamples(nodeId, from, to) {
      return snapshot(pool, async (db) => {
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

function snapshot<T>(pool: pg.Pool, fn: (db: pg.PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(pool, fn, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
}

/** A host series sits at the head of each rollup record: fetch only that (a few dozen bytes of ~2 KB). */
function rollupData(sel: Selector): string {
  return sel.host !== undefined
    ? `substring(data from 1 for ${rollupHostPrefixBytes(sel.host)})`
    : 'data';
}

/** Loads the aggs the selector picks from rollup rows (a statement of its own). */
function rollupLoader(
  db: Queryable,
  nodeId: number,
  sel: Selector,
  source: '15m' | '1h',
): AsyncSeriesLoader {
  const bucketMs = source === '1h' ? BUCKET_1H : BUCKET_15M;
  const table = source === '1h' ? 'metrics_1h' : 'metrics_15m';
  return async (from, until, push) => {
    const [lo, hi] = rollupIdRange(nodeId, from, until, bucketMs, ROLLUP_NODE_SHIFT);
    const res = await db.query<[number, Buffer]>({
      text: `SELECT id, ${rollupData(sel)} FROM ${table} WHERE id >= $1 AND id < $2 ORDER BY id`,
      values: [lo, hi],
      rowMode: 'array',
    });
    for (const [id, bytes] of res.rows) selectedAggs(id, bytes, bucketMs, sel, push);
  };
}

/**
 * The columns (after the tag) of the raw rows of [from, q.to) as a UNION branch; parameters
 * from `$first`. A host series is one row: one comma-joined text of `offset,value` pairs, the
 * offset being the receive time less `from` (fewer digits to print, send and parse than the
 * times themselves; the integers print exactly). Devices are a row per report with its blob.
 */
function tailSql(
  q: HistoryQuery,
  sel: Selector,
  from: number,
  first: number,
): { text: string; values: unknown[] } {
  const [p1, p2, p3] = [`$${first}`, `$${first + 1}`, `$${first + 2}`];
  const values = [q.nodeId, from, q.to];
  if (sel.host !== undefined) {
    const column = HOST_COLUMNS[sel.host];
    if (column === undefined) throw new Error(`no host column ${sel.host}`);
    return {
      text: `NULL::bigint, NULL::bigint, NULL::bytea,
               string_agg((received_at - ${p2})::text || ',' || ${column}::text, ',')
             FROM metrics_raw WHERE node_id = ${p1} AND received_at >= ${p2}
               AND received_at < ${p3} AND ${column} IS NOT NULL`,
      values,
    };
  }
  return {
    text: `received_at, NULL::bigint, devices, NULL::text
             FROM metrics_raw WHERE node_id = ${p1} AND received_at >= ${p2}
               AND received_at < ${p3} AND devices IS NOT NULL`,
    values,
  };
}

/** Folds the raw rows tailSql fetched (already in time order for devices: ORDER BY 1, 2). */
function foldTail(
  out: Map<number, Agg>,
  q: HistoryQuery,
  sel: Selector,
  from: number,
  rows: ReadRow[],
): void {
  if (sel.host !== undefined) {
    const joined = rows[0]?.[4];
    if (joined) foldJoinedSeries(out, q.stepMs, joined, from, HOST_SCALES[sel.host] ?? 1);
    return;
  }
  const kind = sel.kind ?? 'iface';
  const code = DEVICE_KIND_CODE[kind];
  const scale = DEVICE_SCALES[kind][sel.index] ?? 1;
  const points: Array<{ at: number; value: number }> = [];
  for (const [, at, , blob] of rows) {
    if (blob === null) continue;
    for (const d of storedDevices(blob)) {
      if (d.kind !== code || (sel.ids && !sel.ids.has(d.id))) continue;
      const v = d.values[sel.index];
      if (v !== undefined) points.push({ at: at as number, value: v / scale });
    }
  }
  foldPoints(out, q.stepMs, points);
}

/**
 * Folds a host series joined as `offset,value,offset,value…` (integers, offsets from `base`)
 * into buckets of `stepMs`, oldest first, exactly as foldPoints folds the same points: each
 * value is the stored integer divided by `scale`. Parsed in place into typed arrays (no split,
 * no point objects: a day of 3 s reports is ~29,000 points). The rows come in storage order,
 * which is time order unless reports were stored out of order; then they are sorted first
 * ((node, receive time) is the key, so no two share a time).
 */
export function foldJoinedSeries(
  out: Map<number, Agg>,
  stepMs: number,
  joined: string,
  base: number,
  scale: number,
): void {
  const n = joined.length;
  const cap = Math.ceil(n / 4) + 1;
  let ats = new Float64Array(cap);
  let vals = new Float64Array(cap);
  let count = 0;
  let sorted = true;
  let i = 0;
  const int = (): number => {
    let neg = false;
    let x = 0;
    let c = joined.charCodeAt(i);
    if (c === 45) {
      neg = true;
      i++;
    }
    while (i < n && (c = joined.charCodeAt(i)) !== 44) {
      x = x * 10 + (c - 48);
      i++;
    }
    i++;
    return neg ? -x : x;
  };
  while (i < n) {
    const at = base + int();
    const v = int() / scale;
    if (count > 0 && at < (ats[count - 1] as number)) sorted = false;
    ats[count] = at;
    vals[count] = v;
    count++;
  }
  if (!sorted) {
    const order = Array.from({ length: count }, (_, k) => k).sort(
      (x, y) => (ats[x] as number) - (ats[y] as number),
    );
    ats = Float64Array.from(order, (k) => ats[k] as number);
    vals = Float64Array.from(order, (k) => vals[k] as number);
  }
  let bucket = NaN;
  let agg: Agg | undefined;
  for (let k = 0; k < count; k++) {
    const b = Math.floor((ats[k] as number) / stepMs) * stepMs;
    if (b !== bucket || !agg) {
      agg = aggAt(out, b);
      bucket = b;
    }
    agg.add(vals[k] as number);
  }
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
