import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryRepo, MetricsWrite } from '../../src/store/ports.js';
import { HOST_METRICS } from '../../src/protocol/history-metrics.js';
import { sealTask } from '../../src/store/sqlite/history-blocks.js';
import { historySource } from '../../src/store/sqlite/history-source.js';
import type { MetricsEngine } from '../../src/store/sqlite/metrics-engine.js';
import type { SqliteStore } from '../../src/store/sqlite/open.js';
import { rollupTask } from '../../src/store/sqlite/rollup-task.js';
import { historySnapshot } from '../support/history-snapshot.js';
import { metricsWrite, openHistoryStore } from '../support/metrics-writes.js';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const CPU = HOST_METRICS.indexOf('cpu.usage_ratio');

let store: SqliteStore;
let engine: MetricsEngine;
let history: HistoryRepo;

beforeEach(() => {
  ({ store, engine, history } = openHistoryStore());
});
afterEach(async () => store.close());

/** Reports of two nodes every 3 s (with jitter) for `minutes`, values varying with seq. */
function ingest(from: number, minutes: number): void {
  const writes: MetricsWrite[] = [];
  for (let i = 0; i < (minutes * MIN) / 3000; i++) {
    for (const node of [1, 2]) {
      const w = metricsWrite(node, from + i * 3000 + ((i * 37) % 11), {
        seq: i,
        deadline: Infinity,
      });
      if (i % 13 === 0) w.host[HOST_METRICS.indexOf('cpu.temp_c')] = null;
      writes.push(w);
    }
  }
  engine.commitBatch(writes);
}

function drain<T>(gen: Generator<void, T>): T {
  for (;;) {
    const r = gen.next();
    if (r.done) return r.value;
  }
}

const count = (table: string) =>
  (store.raw.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('sealing raw history into blocks', () => {
  it('moves closed windows into blocks and every read answers the same points', async () => {
    ingest(T0, 40);
    const before = await historySnapshot(history, 1, T0 - MIN, T0 + 41 * MIN);
    const result = drain(sealTask(store.raw, T0 + 32 * MIN, 5 * MIN));
    // Windows 10:00-10:30 are closed (10:30 ended less than the grace ago? no: 2 min ago).
    expect(result.points).toBe(2 * 600);
    expect(result.blocks).toBe(2 * 6);
    expect(count('metrics_raw')).toBe(2 * 200);
    expect(await historySnapshot(history, 1, T0 - MIN, T0 + 41 * MIN)).toEqual(before);
    // Sealing again moves nothing; the rest is sealed later and reads stay the same.
    expect(drain(sealTask(store.raw, T0 + 32 * MIN, 5 * MIN)).points).toBe(0);
    drain(sealTask(store.raw, T0 + 60 * MIN, 5 * MIN));
    expect(count('metrics_raw')).toBe(0);
    expect(await historySnapshot(history, 1, T0 - MIN, T0 + 41 * MIN)).toEqual(before);
  });

  it('does not seal a window before its grace has passed', () => {
    ingest(T0, 5);
    expect(drain(sealTask(store.raw, T0 + 5 * MIN + 9_999, 5 * MIN)).points).toBe(0);
    expect(drain(sealTask(store.raw, T0 + 5 * MIN + 10_000, 5 * MIN)).points).toBe(200);
  });

  it('keeps a report that arrives for an already sealed window', async () => {
    ingest(T0, 10);
    drain(sealTask(store.raw, T0 + 20 * MIN, 5 * MIN));
    const late = metricsWrite(1, T0 + 1500, { deadline: Infinity });
    late.host[CPU] = 0.999;
    engine.commitBatch([late]);
    const q = {
      nodeId: 1,
      metric: 'cpu.usage_ratio',
      source: 'raw' as const,
      from: T0,
      to: T0 + 3000,
      stepMs: 1,
      agg: 'last' as const,
    };
    expect((await history.points(q)).map((p) => p.ts)).toEqual([T0, T0 + 1500]);
    drain(sealTask(store.raw, T0 + 20 * MIN, 5 * MIN));
    expect(count('metrics_raw')).toBe(0);
    expect((await history.points(q)).map((p) => [p.ts, p.value])).toEqual([
      [T0, expect.any(Number)],
      [T0 + 1500, 0.999],
    ]);
  });

  it('rolls up the same buckets from blocks as from raw rows', async () => {
    ingest(T0, 60);
    const q = {
      nodeId: 1,
      metric: 'disk.read_bps',
      device: 'nvme0n1',
      source: '15m' as const,
      from: T0,
      to: T0 + 60 * MIN,
      stepMs: 15 * MIN,
      agg: 'avg' as const,
    };
    const fromRaw = await history.points(q);
    // rollupTask seals first (default 5-minute windows), then rolls up from the blocks.
    const r = drain(rollupTask(store.raw, T0 + 61 * MIN));
    expect(r.sealedPoints).toBe(2 * 1200);
    expect(count('metrics_raw')).toBe(0);
    expect(await history.points(q)).toEqual(fromRaw);
    const rows = store.raw.prepare('SELECT count(*) AS n FROM metrics_15m').get() as { n: number };
    expect(rows.n).toBe(2 * 4);
  });

  it('counts and lists receive times across blocks and raw rows', () => {
    ingest(T0, 10);
    drain(sealTask(store.raw, T0 + 6 * MIN, 5 * MIN));
    const src = historySource(store.raw);
    expect(src.count(1, T0, T0 + 10 * MIN)).toBe(200);
    expect(src.count(1, T0 + MIN, T0 + 9 * MIN)).toBe(160);
    const times = src.times(1, T0 + 4 * MIN, T0 + 6 * MIN);
    expect(times).toHaveLength(40);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(src.first(1)).toBe(T0);
    expect(src.first(99)).toBeUndefined();
  });
});

describe('stored size', () => {
  it('stays under 60 bytes per realistic report', () => {
    ingest(T0, 60);
    drain(sealTask(store.raw, T0 + 61 * MIN, 5 * MIN));
    const { bytes, points } = store.raw
      .prepare('SELECT sum(length(data)) AS bytes, sum(count) AS points FROM metrics_blocks')
      .get() as { bytes: number; points: number };
    expect(points).toBe(2 * 1200);
    expect(bytes / points).toBeLessThan(60);
  });
});
