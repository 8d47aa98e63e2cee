import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { HOST_METRICS } from '../../../src/protocol/history-metrics.js';
import type { HistoryQuery, HistoryRepo } from '../../../src/store/ports.js';
import { RollupSeriesCache } from '../../../src/store/history/rollup-series-cache.js';
import { foldPoints } from '../../../src/store/history/series-read.js';
import {
  foldJoinedSeries,
  postgresHistoryReader,
} from '../../../src/store/postgres/history-reader.js';
import { postgresRollup } from '../../../src/store/postgres/history-rollup.js';
import { PgMetricsEngine } from '../../../src/store/postgres/metrics-engine.js';
import type { PostgresStore } from '../../../src/store/postgres/open.js';
import { historyReader } from '../../../src/store/sqlite/history-reader.js';
import { MetricsEngine } from '../../../src/store/sqlite/metrics-engine.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/open.js';
import { Agg } from '../../../src/store/sqlite/rollup-codec.js';
import { rollupTask } from '../../../src/store/sqlite/rollup-task.js';
import { metricsWrite } from '../../support/metrics-writes.js';
import { openSharedPostgres, POSTGRES_AVAILABLE } from '../engines.js';

const H = 3_600_000;
const M = 60_000;
const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const FIRST = T0 - 30 * H;
const cpu = HOST_METRICS.indexOf('cpu.usage_ratio');

/** A pool that counts the statements sent through it (one each: the reader never batches). */
function counting(pool: pg.Pool): { pool: pg.Pool; count: () => number } {
  let n = 0;
  const wrapped = {
    query: (...args: unknown[]) => {
      n++;
      return (pool.query as (...a: unknown[]) => unknown)(...args);
    },
    connect: () => pool.connect(),
  };
  return { pool: wrapped as unknown as pg.Pool, count: () => n };
}

/** A cache that claims to hold every bucket already, as when an entry is dropped mid-read. */
class ForgetfulCache extends RollupSeriesCache {
  override loadsFrom(_key: string, _from: number, until: number): number {
    return until;
  }
}

describe.skipIf(!POSTGRES_AVAILABLE)('PostgreSQL history reads are one statement each', () => {
  let lite: SqliteStore;
  let store: PostgresStore;
  let sqlite: HistoryRepo;

  const write = async (from: number, to: number) => {
    const batch = [];
    for (let at = from, i = 0; at < to; at += 20_000, i++) {
      const w = metricsWrite(1, at, { seq: i, deadline: Infinity });
      w.host[cpu] = Math.round(5000 + 4000 * Math.sin(at / 7e6)) / 10_000;
      batch.push(w);
    }
    new MetricsEngine(lite.raw, () => 0).commitBatch(batch);
    await new PgMetricsEngine(store.pool, () => 0, store.partitions).commitBatch(batch);
  };
  const rollups = async (at: number) => {
    for (;;) {
      const gen = rollupTask(lite.raw, at);
      let r = gen.next();
      while (!r.done) r = gen.next();
      await postgresRollup(store.pool, at);
      if (r.value.buckets === 0) return;
    }
  };
  const query = (source: HistoryQuery['source'], metric = 'cpu.usage_ratio'): HistoryQuery => ({
    nodeId: 1,
    metric,
    source,
    from: source === 'raw' ? T0 - 6 * H : FIRST,
    to: T0 + 3 * H,
    stepMs: source === '1h' ? H : source === '15m' ? 15 * M : 2 * M,
    agg: 'avg',
  });

  beforeAll(async () => {
    lite = openSqliteStore(':memory:', 0);
    store = await openSharedPostgres(T0);
    sqlite = historyReader(lite.raw);
    await write(FIRST, T0 + H);
    await rollups(T0 + 10_000);
  }, 120_000);
  afterAll(async () => {
    await lite.close();
    await store.close();
  });

  it('reads a raw range in one statement, the same points as SQLite', async () => {
    const c = counting(store.pool);
    const reader = postgresHistoryReader(c.pool);
    for (const metric of ['cpu.usage_ratio', 'disk.read_bps']) {
      const points = await reader.points(query('raw', metric));
      expect(points.length).toBeGreaterThan(100);
      expect(points).toEqual(await sqlite.points(query('raw', metric)));
    }
    expect(c.count()).toBe(2);
  });

  it('reads rollups, cached or not, with the raw tail in one statement once it knows the watermarks', async () => {
    const c = counting(store.pool);
    const reader = postgresHistoryReader(c.pool);
    // The first read learns the watermarks first; every later one plans with those it last saw.
    for (const source of ['15m', '1h'] as const) {
      for (const metric of ['cpu.usage_ratio', 'disk.read_bps']) {
        expect(await reader.points(query(source, metric))).toEqual(
          await sqlite.points(query(source, metric)),
        );
      }
    }
    expect(c.count()).toBe(1 + 4);
    const before = c.count();
    expect(await reader.points(query('1h'))).toEqual(await sqlite.points(query('1h')));
    expect(c.count()).toBe(before + 1);
  });

  it('plans again when the rollup job moved the watermarks since the last read', async () => {
    const c = counting(store.pool);
    const reader = postgresHistoryReader(c.pool);
    expect(await reader.points(query('15m'))).toEqual(await sqlite.points(query('15m')));
    await write(T0 + H, T0 + 2 * H);
    await rollups(T0 + 2 * H + 10_000);
    const before = c.count();
    const points = await reader.points(query('15m'));
    // Planned with the old watermarks, answered with the new ones: two statements, new buckets.
    expect(c.count()).toBe(before + 2);
    expect(points).toEqual(await sqlite.points(query('15m')));
    expect(points.at(-1)!.ts).toBeGreaterThanOrEqual(T0 + H);
  });

  it('loads on its own what the series cache lost while the statement ran', async () => {
    for (const metric of ['cpu.usage_ratio', 'disk.read_bps']) {
      const plain = counting(store.pool);
      const want = await postgresHistoryReader(plain.pool).points(query('1h', metric));
      const c = counting(store.pool);
      const reader = postgresHistoryReader(c.pool, { cache: new ForgetfulCache() });
      // The statement fetched no rollup rows (the cache claimed to hold them all), so the
      // fold loads them after it: one more statement per rollup part, the same points.
      const points = await reader.points(query('1h', metric));
      expect(points.length).toBeGreaterThan(20);
      expect(points).toEqual(want);
      expect(points).toEqual(await sqlite.points(query('1h', metric)));
      expect(c.count()).toBeGreaterThan(plain.count());
    }
  });
});

describe('foldJoinedSeries', () => {
  it('folds `offset,value` text exactly as foldPoints folds the points, in time order', () => {
    const base = 1_795_000_000_000;
    const points: Array<{ at: number; value: number }> = [];
    for (let i = 0; i < 500; i++) {
      points.push({ at: base + i * 3_001 + (i % 7), value: ((i * 7_919) % 20_001) - 10_000 });
    }
    // Stored out of order: a few late reports.
    const stored = [...points];
    [stored[10], stored[300]] = [stored[300]!, stored[10]!];
    const joined = stored.map((p) => `${p.at - base},${p.value}`).join(',');
    for (const scale of [1, 100, 10_000]) {
      const want = new Map<number, Agg>();
      foldPoints(
        want,
        60_000,
        points.map((p) => ({ at: p.at, value: p.value / scale })),
      );
      const got = new Map<number, Agg>();
      foldJoinedSeries(got, 60_000, joined, base, scale);
      expect([...got].sort((a, b) => a[0] - b[0])).toEqual([...want].sort((a, b) => a[0] - b[0]));
      expect([...got.values()].some((a) => a.min < 0)).toBe(true);
    }
  });
});
