import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/open.js';
import { MetricsEngine } from '../../src/store/sqlite/metrics-engine.js';
import {
  RETENTION_CHUNK,
  ROLLUP_15M_RETENTION_MS,
  ROLLUP_1H_RETENTION_MS,
  retentionTask,
} from '../../src/store/sqlite/retention-task.js';
import { rollupId } from '../../src/store/sqlite/rollup-codec.js';
import { metricsWrite } from '../support/metrics-writes.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
let store: SqliteStore;
let engine: MetricsEngine;

beforeEach(() => {
  store = openSqliteStore(':memory:', 0);
  engine = new MetricsEngine(store.raw, () => 0);
});
afterEach(async () => store.close());

const count = (table: string, where = '1') =>
  (store.raw.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).get() as { n: number }).n;

/** Runs the task, counting the steps at which it let other work in. */
function run(now: number, rawDays: number) {
  const gen = retentionTask(store.raw, engine.devices, now, rawDays);
  let steps = 0;
  for (;;) {
    const r = gen.next();
    if (r.done) return { ...r.value, steps };
    steps++;
  }
}

describe('metrics retention', () => {
  it('deletes raw rows older than the configured days, keeping newer ones', () => {
    const writes = [];
    for (const node of [1, 2]) {
      for (let d = 10; d >= 0; d--)
        writes.push(metricsWrite(node, NOW - d * DAY, { deadline: Infinity }));
    }
    engine.commitBatch(writes);
    const r = run(NOW, 8);
    // Rows 10 and 9 days old go; a row exactly 8 days old is at the cutoff and stays.
    expect(r.raw).toBe(2 * 2);
    expect(count('metrics_raw')).toBe(2 * 9);
    expect(count('metrics_raw', `received_at < ${NOW - 8 * DAY}`)).toBe(0);
  });

  it('deletes in statements of at most RETENTION_CHUNK rows, yielding between them', () => {
    const total = RETENTION_CHUNK * 2 + 7;
    const writes = Array.from({ length: total }, (_, i) =>
      metricsWrite(1, NOW - 20 * DAY + i * 1000, { deadline: Infinity }),
    );
    engine.commitBatch(writes);
    const r = run(NOW, 8);
    expect(r.raw).toBe(total);
    expect(count('metrics_raw')).toBe(0);
    expect(r.steps).toBeGreaterThanOrEqual(3);
  });

  it('keeps 15-minute rollups 16 days and 1-hour rollups 32 days', () => {
    const put = (table: string, node: number, at: number, bucket: number) =>
      store.raw
        .prepare(`INSERT INTO ${table} (id, data) VALUES (?, x'00')`)
        .run(rollupId(node, at, bucket));
    for (const node of [1, 7]) {
      put('metrics_15m', node, NOW - ROLLUP_15M_RETENTION_MS - 900_000, 900_000);
      put('metrics_15m', node, NOW - ROLLUP_15M_RETENTION_MS + 900_000, 900_000);
      put('metrics_1h', node, NOW - ROLLUP_1H_RETENTION_MS - 3_600_000, 3_600_000);
      put('metrics_1h', node, NOW - ROLLUP_1H_RETENTION_MS + 3_600_000, 3_600_000);
    }
    const r = run(NOW, 8);
    expect(r).toMatchObject({ rollup15m: 2, rollup1h: 2 });
    expect(count('metrics_15m')).toBe(2);
    expect(count('metrics_1h')).toBe(2);
  });

  it('forgets devices unseen for longer than the 1-hour rollups are kept', () => {
    engine.commitBatch([metricsWrite(1, NOW - 40 * DAY, { deadline: Infinity })]);
    engine.commitBatch([metricsWrite(2, NOW - DAY, { deadline: Infinity })]);
    const before = count('metric_devices', 'node_id = 2');
    const r = run(NOW, 8);
    expect(r.devices).toBe(12);
    expect(count('metric_devices', 'node_id = 1')).toBe(0);
    expect(count('metric_devices', 'node_id = 2')).toBe(before);
    // The engine's dictionary was told: a new report of node 1 registers its devices again.
    engine.commitBatch([metricsWrite(1, NOW, { deadline: Infinity })]);
    expect(count('metric_devices', 'node_id = 1')).toBe(12);
  });

  it('does nothing when everything is recent', () => {
    engine.commitBatch([metricsWrite(1, NOW - 1000, { deadline: Infinity })]);
    expect(run(NOW, 8)).toMatchObject({ raw: 0, rollup15m: 0, rollup1h: 0, devices: 0 });
  });
});
