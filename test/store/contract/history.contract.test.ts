import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_METRICS } from '../../../src/protocol/history-metrics.js';
import type {
  HistoryAgg,
  HistoryQuery,
  HistoryRepo,
  HistorySource,
  MetricsWrite,
} from '../../../src/store/ports.js';
import { postgresHistoryReader } from '../../../src/store/postgres/history-reader.js';
import { postgresRollup } from '../../../src/store/postgres/history-rollup.js';
import { PgMetricsEngine } from '../../../src/store/postgres/metrics-engine.js';
import type { PostgresStore } from '../../../src/store/postgres/open.js';
import { historyReader } from '../../../src/store/sqlite/history-reader.js';
import { MetricsEngine } from '../../../src/store/sqlite/metrics-engine.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/open.js';
import { decodeRollup } from '../../../src/store/sqlite/rollup-codec.js';
import { rollupTask } from '../../../src/store/sqlite/rollup-task.js';
import { metricsWrite } from '../../support/metrics-writes.js';
import { openSharedPostgres, POSTGRES_AVAILABLE } from '../engines.js';

const H = 3_600_000;
const M = 60_000;
/** An hour-aligned instant; history runs from 26 h before it to 3 h after. */
const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const FIRST = T0 - 26 * H;
const LAST = T0 + 3 * H;
/** Node 1 reports nothing in this hour: the gap. */
const GAP = [T0 - 5 * H, T0 - 4 * H] as const;
/** The rollups' "now": 15-minute rows up to T0+2h30, 1-hour rows up to T0+2h. */
const ROLLUP_AT = T0 + 2 * H + 40 * M + 10_000;
const cpu = HOST_METRICS.indexOf('cpu.usage_ratio');

function writes(): MetricsWrite[] {
  const out: MetricsWrite[] = [];
  for (let at = FIRST, i = 0; at < LAST; at += 30_000, i++) {
    if (at < GAP[0] || at >= GAP[1]) {
      const w = metricsWrite(1, at, { seq: i, deadline: Infinity });
      w.host[cpu] = Math.round(5000 + 4000 * Math.sin(i / 37)) / 10_000;
      for (const d of w.devices) if (d.kind === 'io') d.values[0] = (i * 7919) % 100_000;
      out.push(w);
    }
    // Node 2 reports only during the last hours, every minute.
    if (at >= T0 && i % 2 === 0) out.push(metricsWrite(2, at + 1, { seq: i, deadline: Infinity }));
  }
  return out;
}

/**
 * Node 3's reports, newest first, each committed on its own (an engine sorts within a batch):
 * stored out of time order, they must still fold oldest first.
 */
function newestFirst(): MetricsWrite[] {
  const out: MetricsWrite[] = [];
  for (let k = 0; k < 24; k++) {
    const w = metricsWrite(3, T0 - 5 * M * (k + 1) + 7, { seq: k, deadline: Infinity });
    w.host[cpu] = ((k * 37) % 100) / 100;
    out.push(w);
  }
  return out;
}

interface DeviceRow {
  id: number;
  kind: number;
  name: string;
}
const deviceNames = (rows: DeviceRow[]) => new Map(rows.map((r) => [r.id, r.name]));

/**
 * A rollup row with its devices named: device ids are each engine's own (assigned in its own
 * order), everything else must be the same.
 */
function canonical(data: Buffer, names: Map<number, string>) {
  const rec = decodeRollup(data);
  const devices = [...rec.devices.values()]
    .map((d) => ({ key: `${d.kind}:${names.get(d.id) ?? d.id}`, aggs: d.aggs }))
    .sort((x, y) => (x.key < y.key ? -1 : 1));
  return { host: rec.host, devices };
}

describe.skipIf(!POSTGRES_AVAILABLE)('history on both engines', () => {
  let lite: SqliteStore;
  let pg: PostgresStore;
  let readers: Record<'sqlite' | 'postgres', HistoryRepo>;

  const rollups = async (at = ROLLUP_AT) => {
    // Several runs: one run materialises at most a day of buckets.
    for (;;) {
      const gen = rollupTask(lite.raw, at);
      let r = gen.next();
      while (!r.done) r = gen.next();
      const onPg = await postgresRollup(pg.pool, at);
      expect(onPg.watermark15m).toBe(r.value.watermark15m);
      expect(onPg.watermark1h).toBe(r.value.watermark1h);
      expect(onPg.buckets).toBe(r.value.buckets);
      if (r.value.buckets === 0) return r.value;
    }
  };

  beforeAll(async () => {
    lite = openSqliteStore(':memory:', 0);
    pg = await openSharedPostgres(T0);
    const all = writes();
    const sqliteEngine = new MetricsEngine(lite.raw, () => 0);
    const pgEngine = new PgMetricsEngine(pg.pool, () => 0, pg.partitions);
    for (let i = 0; i < all.length; i += 500) {
      const batch = all.slice(i, i + 500);
      expect(await pgEngine.commitBatch(batch)).toEqual(sqliteEngine.commitBatch(batch));
    }
    for (const w of newestFirst()) {
      expect(await pgEngine.commitBatch([w])).toEqual(sqliteEngine.commitBatch([w]));
    }
    readers = { sqlite: historyReader(lite.raw), postgres: postgresHistoryReader(pg.pool) };
  }, 120_000);
  afterAll(async () => {
    await lite.close();
    await pg.close();
  });

  const cases: Array<Partial<HistoryQuery> & { source: HistorySource }> = [
    { source: 'raw', from: T0 + H, to: LAST, stepMs: M },
    { source: 'raw', from: GAP[0] - 10 * M, to: GAP[1] + 10 * M, stepMs: 5 * M },
    { source: 'raw', from: T0 - 10 * M, to: T0 + 20 * M, stepMs: 30_000, nodeId: 2 },
    { source: 'raw', from: T0 - 2 * H, to: T0, stepMs: 15 * M, nodeId: 3 },
    { source: '15m', from: FIRST, to: LAST, stepMs: 15 * M },
    { source: '15m', from: FIRST + 7 * M, to: LAST - 3 * M, stepMs: 30 * M },
    { source: '1h', from: FIRST, to: LAST, stepMs: H },
    { source: '1h', from: FIRST - 30 * 24 * H, to: LAST, stepMs: 6 * H },
    { source: '1h', from: T0, to: LAST, stepMs: H, nodeId: 2 },
  ];
  const metrics: Array<Pick<HistoryQuery, 'metric' | 'device'>> = [
    { metric: 'cpu.usage_ratio' },
    { metric: 'mem.used' },
    { metric: 'disk.read_bps', device: 'nvme0n1' },
    { metric: 'disk.read_bps' },
    { metric: 'disk.used_ratio', device: '/' },
    { metric: 'disk.temp_c' },
    { metric: 'disk.read_bps', device: 'no-such-disk' },
  ];
  const aggs: HistoryAgg[] = ['avg', 'max', 'min', 'last'];

  async function compareAll(stage: string): Promise<number> {
    let nonEmpty = 0;
    for (const c of cases) {
      for (const m of metrics) {
        for (const agg of aggs) {
          const q = { nodeId: 1, from: 0, to: 0, stepMs: M, ...c, ...m, agg };
          const [a, b] = await Promise.all([readers.sqlite.points(q), readers.postgres.points(q)]);
          expect(b, `${stage} ${JSON.stringify(q)}`).toEqual(a);
          if (a.length > 0) nonEmpty++;
        }
      }
    }
    return nonEmpty;
  }

  it('answers every range, source and series alike before any rollup (raw tails only)', async () => {
    expect(await compareAll('before rollups')).toBeGreaterThan(100);
  });

  it('computes identical 15-minute and 1-hour rollups, then answers alike from them', async () => {
    const run = await rollups();
    expect(run.watermark15m).toBe(T0 + 2 * H + 30 * M);
    expect(run.watermark1h).toBe(T0 + 2 * H);
    for (const table of ['metrics_15m', 'metrics_1h']) {
      const a = lite.raw.prepare(`SELECT id, data FROM ${table} ORDER BY id`).all() as Array<{
        id: number;
        data: Buffer;
      }>;
      const b = (
        await pg.pool.query<{ id: number; data: Buffer }>(
          `SELECT id, data FROM ${table} ORDER BY id`,
        )
      ).rows;
      expect(b.length).toBeGreaterThan(0);
      expect(b.map((r) => r.id)).toEqual(a.map((r) => r.id));
      const liteNames = deviceNames(
        lite.raw.prepare('SELECT id, kind, name FROM metric_devices').all() as DeviceRow[],
      );
      const pgNames = deviceNames(
        (await pg.pool.query<DeviceRow>('SELECT id, kind, name FROM metric_devices')).rows,
      );
      b.forEach((r, i) => {
        expect(canonical(r.data, pgNames), `${table} ${r.id}`).toEqual(
          canonical(a[i]!.data, liteNames),
        );
      });
    }
    expect(await compareAll('after rollups')).toBeGreaterThan(100);
  });

  it('answers repeated reads alike after new rollups land (cached series load only the rest)', async () => {
    // The readers' series caches hold everything up to the first watermarks; the rollup job
    // (here as another instance would: straight into the tables) now materialises the last
    // half hour and hour. Reads must add those buckets, not serve the stale end nor repeat any.
    const run = await rollups(LAST + H);
    expect(run.watermark15m).toBeGreaterThanOrEqual(LAST);
    expect(run.watermark1h).toBeGreaterThanOrEqual(LAST);
    expect(await compareAll('after new rollups')).toBeGreaterThan(100);
    // And the cached PostgreSQL reader agrees with one that never read before.
    const fresh = postgresHistoryReader(pg.pool);
    for (const c of cases.filter((x) => x.source !== 'raw')) {
      for (const m of metrics) {
        const q = { nodeId: 1, from: 0, to: 0, stepMs: M, ...c, ...m, agg: 'max' as const };
        const points = await readers.postgres.points(q);
        expect(points, JSON.stringify(q)).toEqual(await fresh.points(q));
      }
    }
  });

  it('folds reports stored out of time order oldest first on both engines', async () => {
    const q: HistoryQuery = {
      nodeId: 3,
      metric: 'cpu.usage_ratio',
      source: 'raw',
      from: T0 - 2 * H,
      to: T0,
      stepMs: 15 * M,
      agg: 'last',
    };
    const points = await readers.postgres.points(q);
    // Each 15-minute bucket holds three reports; `last` is the newest one's value.
    const newest = newestFirst();
    expect(points).toHaveLength(8);
    expect(points.map((p) => p.value)).toEqual(
      [21, 18, 15, 12, 9, 6, 3, 0].map((k) => newest[k]!.host[cpu]),
    );
    expect(points).toEqual(await readers.sqlite.points(q));
  });

  it('keeps the gap a gap on both engines', async () => {
    const q: HistoryQuery = {
      nodeId: 1,
      metric: 'cpu.usage_ratio',
      source: '15m',
      from: GAP[0] - H,
      to: GAP[1] + H,
      stepMs: 15 * M,
      agg: 'avg',
    };
    const points = await readers.postgres.points(q);
    expect(points.map((p) => p.ts)).not.toContain(GAP[0]);
    expect(points).toHaveLength(8);
    expect(points).toEqual(await readers.sqlite.points(q));
  });

  it('lists the same devices and interface samples', async () => {
    for (const kind of ['iface', 'io', 'usage', 'temp'] as const) {
      for (const node of [1, 2]) {
        // last_seen_at is refreshed at most once a minute and written late on both engines
        // (with a batch that writes anyway on SQLite, once a minute across instances on
        // PostgreSQL): each may lag the newest report by up to two minutes, so the engines
        // agree on the devices and on last_seen_at within that.
        const a = await readers.sqlite.devices(node, kind);
        expect(a.length).toBeGreaterThan(0);
        const b = await readers.postgres.devices(node, kind);
        const withoutSeen = (ds: typeof a) => ds.map(({ lastSeenAt: _, ...d }) => d);
        expect(withoutSeen(b)).toEqual(withoutSeen(a));
        b.forEach((d, i) => {
          expect(Math.abs(d.lastSeenAt - a[i]!.lastSeenAt)).toBeLessThanOrEqual(2 * M);
        });
      }
    }
    const a = await readers.sqlite.nicSamples(1, T0 - 10 * M, T0 + 10 * M);
    expect(a.length).toBeGreaterThan(0);
    expect(await readers.postgres.nicSamples(1, T0 - 10 * M, T0 + 10 * M)).toEqual(a);
  });
});
