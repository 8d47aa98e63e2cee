import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentReport } from '../../support/agent-payloads.js';
import { metricsWrite } from '../../support/metrics-writes.js';
import { openSharedPostgres, POSTGRES_AVAILABLE } from '../engines.js';
import type { PostgresStore } from '../../../src/store/postgres/open.js';
import { listPartitions } from '../../../src/store/postgres/partitions.js';
import { PgMetricsEngine } from '../../../src/store/postgres/metrics-engine.js';
import { postgresRetention, rawDays } from '../../../src/store/postgres/history-retention.js';
import { postgresHistoryStorage } from '../../../src/store/postgres/history-storage.js';
import {
  ROLLUP_15M_RETENTION_MS,
  ROLLUP_1H_RETENTION_MS,
} from '../../../src/store/history/rollup-plan.js';
import { rollupId } from '../../../src/store/sqlite/rollup-codec.js';
import { createPgMetricsSide } from '../../../src/workers/pg-metrics-side.js';

const DAY = 86_400_000;
const TODAY = Date.UTC(2026, 10, 24);
const NOW = TODAY + 12 * 3_600_000;

describe.skipIf(!POSTGRES_AVAILABLE)('history retention on PostgreSQL', () => {
  let store: PostgresStore;
  let engine: PgMetricsEngine;

  beforeEach(async () => {
    store = await openSharedPostgres(NOW);
    engine = new PgMetricsEngine(store.pool, () => 0, store.partitions);
    // Two reports a day for the last 10 days, for two nodes.
    const writes = [];
    for (const node of [1, 2]) {
      for (let d = 10; d >= 0; d--) {
        writes.push(metricsWrite(node, NOW - d * DAY, { deadline: Infinity }));
        writes.push(metricsWrite(node, NOW - d * DAY + 60_000, { deadline: Infinity, seq: 1 }));
      }
    }
    await engine.commitBatch(writes);
  });
  afterEach(async () => store.close());

  const rawTimes = async () =>
    (
      await store.pool.query<{ received_at: number }>(
        'SELECT DISTINCT received_at FROM metrics_raw ORDER BY 1',
      )
    ).rows.map((r) => r.received_at);

  it('drops whole raw days past retention, keeps the day holding the cutoff', async () => {
    const before = (await listPartitions(store.pool, 'metrics_raw')).map((p) => p.day);
    const r = await postgresRetention(store.pool, store.partitions, engine.devices, NOW, 8);
    // Days -10 and -9 end before NOW - 8 days; day -8 holds the cutoff and stays.
    expect(r.raw).toBe(2 * 2 * 2);
    const after = (await listPartitions(store.pool, 'metrics_raw')).map((p) => p.day);
    expect(before.filter((d) => !after.includes(d))).toEqual([TODAY - 10 * DAY, TODAY - 9 * DAY]);
    expect((await rawTimes())[0]).toBe(NOW - 8 * DAY);
    // New reports still find their partitions after the drop.
    expect(
      await engine.commitBatch([metricsWrite(1, NOW + 120_000, { deadline: Infinity })]),
    ).toEqual(['current']);
  });

  it('deletes rollups and devices past their retention', async () => {
    const put = (table: string, node: number, at: number, bucket: number) =>
      store.pool.query(`INSERT INTO ${table} (id, data) VALUES ($1, '\\x00')`, [
        rollupId(node, at, bucket),
      ]);
    for (const node of [1, 2]) {
      await put('metrics_15m', node, NOW - ROLLUP_15M_RETENTION_MS - 900_000, 900_000);
      await put('metrics_15m', node, NOW - ROLLUP_15M_RETENTION_MS + 900_000, 900_000);
      await put('metrics_1h', node, NOW - ROLLUP_1H_RETENTION_MS - 3_600_000, 3_600_000);
      await put('metrics_1h', node, NOW - ROLLUP_1H_RETENTION_MS + 3_600_000, 3_600_000);
    }
    await store.pool.query('UPDATE metric_devices SET last_seen_at = 0 WHERE node_id = 2');
    const r = await postgresRetention(store.pool, store.partitions, engine.devices, NOW, 30);
    expect(r).toMatchObject({ raw: 0, rollup15m: 2, rollup1h: 2, devices: 12 });
    const left = await store.pool.query(
      'SELECT 1 FROM metrics_15m UNION ALL SELECT 1 FROM metrics_1h',
    );
    expect(left.rowCount).toBe(4);
    // The forgotten node registers its devices afresh.
    expect(
      await engine.commitBatch([metricsWrite(2, NOW + 120_000, { deadline: Infinity })]),
    ).toEqual(['current']);
    const devices = await store.pool.query('SELECT 1 FROM metric_devices WHERE node_id = 2');
    expect(devices.rowCount).toBe(12);
  });

  it('shortens raw history by whole days to meet history_max_bytes, never below a day', async () => {
    const storage = postgresHistoryStorage(store.pool);
    const facts = await storage.facts();
    expect(facts.days.map((d) => d.day)).toEqual(
      Array.from({ length: 11 }, (_, i) => TODAY - (10 - i) * DAY),
    );
    expect(facts.rawPoints).toBe(44);
    expect(facts.rawOldestAt).toBe(NOW - 10 * DAY);
    expect([facts.openRows, facts.openBytes]).toEqual([0, 0]);
    expect(facts.budgetCutoff).toBeUndefined();
    const days = await rawDays(store.pool);
    const dayBytes = days.find((d) => d.day === TODAY - 3 * DAY)!.bytes;
    const rawBytes = facts.rawBytes;
    // Room for everything but raw, plus about four days of raw.
    const budget = facts.usedBytes - rawBytes + 4 * dayBytes + dayBytes / 2;
    const r = await postgresRetention(
      store.pool,
      store.partitions,
      engine.devices,
      NOW,
      30,
      budget,
    );
    expect(r.budgetCutoff).toBe(TODAY - 3 * DAY);
    expect((await rawTimes())[0]).toBe(NOW - 3 * DAY);
    const after = await storage.facts();
    expect(after.budgetCutoff).toBe(TODAY - 3 * DAY);
    expect(after.budgetOver).toBe(false);
    // A budget nothing fits: raw keeps one day and the state says "over".
    const tiny = await postgresRetention(store.pool, store.partitions, engine.devices, NOW, 30, 1);
    expect(tiny.budgetCutoff).toBe(NOW - DAY);
    expect((await storage.facts()).budgetOver).toBe(true);
    expect((await rawTimes())[0]).toBe(NOW - DAY);
  });

  it('createPgMetricsSide wires ingest, history, maintenance and storage to one database', async () => {
    const side = createPgMetricsSide(store.pool, {
      now: () => NOW,
      staleAfterSec: 17,
      partitions: store.partitions,
    });
    const body = Buffer.from(JSON.stringify(agentReport({ seq: 9 })));
    const answer = await side.ingestBackend.process({
      nodeId: 3,
      receivedAt: NOW,
      deadline: NOW + 5000,
      body,
      ip: null,
    });
    expect(answer.ok).toBe(true);
    // As if earlier runs had rolled up the ten days before (catching up is the contract suite's).
    await store.pool.query(
      `INSERT INTO metrics_jobs (name, watermark) VALUES ('rollup_15m', $1), ('rollup_1h', $1)`,
      [NOW - 3_600_000],
    );
    const run = await side.ingestBackend.rollup(NOW + 30 * 60_000);
    expect(run.buckets).toBe(5);
    expect(run.watermark15m).toBe(NOW + 15 * 60_000);
    const points = await side.history.points({
      nodeId: 3,
      metric: 'cpu.usage_ratio',
      source: '15m',
      from: NOW - DAY,
      to: NOW + DAY,
      stepMs: 15 * 60_000,
      agg: 'max',
    });
    expect(points.map((p) => p.ts)).toEqual([NOW]);
    const kept = await side.ingestBackend.retention(NOW, 8);
    expect(kept.raw).toBe(2 * 2 * 2);
    expect((await side.storage.facts()).rawPoints).toBe(44 - 8 + 1);
    await side.ingestBackend.close();
  });
});
