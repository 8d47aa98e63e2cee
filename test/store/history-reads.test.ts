import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../src/store/sqlite/open.js';
import { MetricsEngine } from '../../src/store/sqlite/metrics-engine.js';
import { historyReader } from '../../src/store/sqlite/history-reader.js';
import { rollupTask } from '../../src/store/sqlite/rollup-task.js';
import type { HistoryQuery, HistoryRepo, MetricsWrite } from '../../src/store/ports.js';
import { HOST_METRICS } from '../../src/protocol/history-metrics.js';
import { metricsWrite, openHistoryStore } from '../support/metrics-writes.js';

const H = 3_600_000;
const M15 = 900_000;
const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const CPU = HOST_METRICS.indexOf('cpu.usage_ratio');

let store: SqliteStore;
let engine: MetricsEngine;
let history: HistoryRepo;

beforeEach(() => {
  ({ store, engine, history } = openHistoryStore());
  // Three hours of reports every 60 s, CPU and nvme0n1 read rate varying.
  const writes: MetricsWrite[] = [];
  for (let i = 0; i < 180; i++) writes.push(write(T0 + i * 60_000, (i % 7) / 10, i * 100));
  engine.commitBatch(writes);
});
afterEach(async () => store.close());

function write(at: number, cpu: number, readBps: number): MetricsWrite {
  const w = metricsWrite(1, at, { deadline: Infinity });
  w.host[CPU] = cpu;
  const io = w.devices.find((d) => d.kind === 'io' && d.name === 'nvme0n1');
  if (io) io.values[0] = readBps;
  return w;
}

function rollup(now: number): void {
  const gen = rollupTask(store.raw, now);
  while (!gen.next().done);
}

const base: HistoryQuery = {
  nodeId: 1,
  metric: 'cpu.usage_ratio',
  source: '15m',
  from: T0,
  to: T0 + 3 * H,
  stepMs: M15,
  agg: 'avg',
};

const SERIES: Array<Partial<HistoryQuery>> = [
  {},
  { agg: 'last' },
  { metric: 'disk.read_bps', device: 'nvme0n1', agg: 'max' },
  { metric: 'disk.temp_c', agg: 'min' },
];

describe('1-hour ranges: the unfinished hour', () => {
  const hourly = (over: Partial<HistoryQuery> = {}) =>
    history.points({ ...base, source: '1h', stepMs: H, ...over });

  beforeEach(() => rollup(T0 + 2 * H + 45 * 60_000 + 10_000));

  it('comes from the 15-minute rollups after the last 1-hour bucket, then raw rows', async () => {
    const wm = store.raw
      .prepare("SELECT name, watermark FROM metrics_jobs WHERE name LIKE 'rollup%' ORDER BY name")
      .all();
    expect(wm).toEqual([
      { name: 'rollup_15m', watermark: T0 + 2 * H + 45 * 60_000 },
      { name: 'rollup_1h', watermark: T0 + 2 * H },
    ]);
    const before = await hourly();
    // Raw rows under the 15-minute watermark are no longer read: removing them changes nothing.
    store.raw
      .prepare('DELETE FROM metrics_raw WHERE received_at >= ? AND received_at < ?')
      .run(T0 + 2 * H, T0 + 2 * H + 45 * 60_000);
    expect(await historyReader(store.raw).points({ ...base, source: '1h', stepMs: H })).toEqual(
      before,
    );
    // Raw rows after it still are.
    engine.commitBatch([write(T0 + 2 * H + 59 * 60_000 + 30_000, 0.99, 1)]);
    const [, , newest] = await hourly({ agg: 'last' });
    expect(newest).toEqual({ ts: T0 + 2 * H, value: 0.99 });
  });

  it.each(SERIES)('equals the raw aggregation of the hour (%o)', async (over) => {
    const rolled = await hourly(over);
    const raw = await history.points({ ...base, source: 'raw', stepMs: H, ...over });
    expect(rolled.map((p) => p.ts)).toEqual([T0, T0 + H, T0 + 2 * H]);
    expect(rolled.map((p) => p.ts)).toEqual(raw.map((p) => p.ts));
    rolled.forEach((p, i) => expect(p.value).toBeCloseTo(raw[i]!.value, 9));
  });
});

describe('repeated reads of rollup ranges', () => {
  /** A reader with nothing cached: what every read must equal. */
  const fresh = (q: HistoryQuery) => historyReader(store.raw).points(q);

  it.each(SERIES)('equal a fresh read as rollups advance (%o)', async (over) => {
    rollup(T0 + H + 10_000);
    const q = { ...base, ...over };
    expect(await history.points(q)).toEqual(await fresh(q));
    rollup(T0 + 2 * H + 15 * 60_000 + 10_000);
    expect(await history.points(q)).toEqual(await fresh(q));
    const hourly = { ...q, source: '1h' as const, stepMs: H };
    expect(await history.points(hourly)).toEqual(await fresh(hourly));
    rollup(T0 + 3 * H + 10_000);
    expect(await history.points(q)).toEqual(await fresh(q));
    expect(await history.points(hourly)).toEqual(await fresh(hourly));
  });

  it('equal a fresh read for a wider window after a narrower one, and a narrower after', async () => {
    rollup(T0 + 3 * H + 10_000);
    const narrow = { ...base, from: T0 + H, stepMs: 2 * M15 };
    const wide = { ...base, stepMs: 2 * M15 };
    expect(await history.points(narrow)).toEqual(await fresh(narrow));
    expect(await history.points(wide)).toEqual(await fresh(wide));
    expect(await history.points(narrow)).toEqual(await fresh(narrow));
    expect((await history.points(narrow)).length).toBeLessThan((await history.points(wide)).length);
  });

  it('serve materialised buckets read before from memory, new ones from the store', async () => {
    rollup(T0 + 2 * H + 10_000);
    const before = await history.points(base);
    expect(before).toHaveLength(12);
    // Rollup rows under the watermark never change; only a cache could still see these.
    store.raw.prepare('DELETE FROM metrics_15m').run();
    store.raw.prepare('DELETE FROM metrics_raw WHERE received_at < ?').run(T0 + 2 * H);
    expect(await fresh(base)).toHaveLength(4);
    expect((await history.points(base)).slice(0, 8)).toEqual(before.slice(0, 8));
    rollup(T0 + 3 * H + 10_000);
    expect(await history.points(base)).toHaveLength(12);
  });
});
