import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PgMetricsEngine } from '../../../src/store/postgres/metrics-engine.js';
import type { PostgresStore } from '../../../src/store/postgres/open.js';
import { checkpointDelay, MetricsEngine } from '../../../src/store/sqlite/metrics-engine.js';
import { openSqliteStore } from '../../../src/store/sqlite/open.js';
import { metricsWrite } from '../../support/metrics-writes.js';
import { openSharedPostgres, POSTGRES_AVAILABLE } from '../engines.js';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

describe.skipIf(!POSTGRES_AVAILABLE)('PgMetricsEngine.commitBatch', () => {
  let store: PostgresStore;
  let now = T0;
  let engine: PgMetricsEngine;

  beforeEach(async () => {
    store = await openSharedPostgres(T0);
    now = T0;
    engine = new PgMetricsEngine(store.pool, () => now, store.partitions);
    await store.pool.query(
      `INSERT INTO nodes (id, name, secret_enc, created_at, updated_at)
       VALUES (1, 'n', 'x', 0, 0), (2, 'n', 'x', 0, 0)`,
    );
  });
  afterEach(async () => store.close());

  const q = async <T>(sql: string, ...args: unknown[]) =>
    (await store.pool.query(sql, args)).rows as T[];
  const rawTimes = async (nodeId: number) =>
    (
      await q<{ received_at: number }>(
        'SELECT received_at FROM metrics_raw WHERE node_id = $1 ORDER BY received_at',
        nodeId,
      )
    ).map((r) => r.received_at);
  const current = async (nodeId: number) =>
    (
      await q<{ received_at: number; first_received_at: number; runtime_json: string }>(
        'SELECT received_at, first_received_at, runtime_json FROM node_current WHERE node_id = $1',
        nodeId,
      )
    )[0];

  it('stores one raw row per report; the stored projection is rewritten once it is 30+ s old', async () => {
    const out = await engine.commitBatch([
      metricsWrite(1, T0),
      metricsWrite(1, T0 + 3000, { seq: 1 }),
    ]);
    expect(out).toEqual(['current', 'current']);
    expect(await rawTimes(1)).toEqual([T0, T0 + 3000]);
    expect(await current(1)).toMatchObject({ received_at: T0, first_received_at: T0 });
    expect(await engine.commitBatch([metricsWrite(1, T0 + checkpointDelay(1) - 1)])).toEqual([
      'current',
    ]);
    expect((await current(1))?.received_at).toBe(T0);
    await engine.commitBatch([metricsWrite(1, T0 + checkpointDelay(1), { seq: 7 })]);
    const row = await current(1);
    expect(row).toMatchObject({ received_at: T0 + checkpointDelay(1), first_received_at: T0 });
    expect(JSON.parse(row!.runtime_json)).toEqual({ receivedAt: T0 + checkpointDelay(1), seq: 7 });
  });

  it('keeps receive order across a restart and within a batch', async () => {
    await engine.commitBatch([metricsWrite(1, T0 + 3000)]);
    const restarted = new PgMetricsEngine(store.pool, () => now, store.partitions);
    expect(await restarted.commitBatch([metricsWrite(1, T0 + 1000)])).toEqual(['history']);
    expect(
      await restarted.commitBatch([
        metricsWrite(1, T0 + 9000, { seq: 3 }),
        metricsWrite(1, T0 + 6000, { seq: 2 }),
        metricsWrite(2, T0 + 1000),
      ]),
    ).toEqual(['current', 'history', 'current']);
    expect(await rawTimes(1)).toEqual([T0 + 1000, T0 + 3000, T0 + 6000, T0 + 9000]);
  });

  it('stores reports of one node received in the same millisecond, in a batch and across batches', async () => {
    expect(
      await engine.commitBatch([metricsWrite(1, T0), metricsWrite(1, T0, { seq: 1 })]),
    ).toEqual(['current', 'current']);
    await engine.commitBatch([metricsWrite(1, T0, { seq: 2 })]);
    expect(await rawTimes(1)).toEqual([T0, T0 + 1, T0 + 2]);
  });

  it('leaves out entries whose deadline passed, before or during the transaction', async () => {
    let readings = 0;
    const late = new PgMetricsEngine(
      store.pool,
      () => (++readings === 1 ? T0 : T0 + 5001),
      store.partitions,
    );
    const out = await late.commitBatch([
      metricsWrite(1, T0),
      metricsWrite(2, T0 + 4000, { deadline: T0 + 9000 }),
    ]);
    expect(out).toEqual(['expired', 'current']);
    expect(await rawTimes(1)).toEqual([]);
    expect(await current(1)).toBeUndefined();
    expect(await q('SELECT * FROM metric_devices WHERE node_id = 1')).toEqual([]);
    expect(await rawTimes(2)).toEqual([T0 + 4000]);
    await late.commitBatch([metricsWrite(1, T0 + 6000, { deadline: T0 + 20_000 })]);
    expect(await q('SELECT count(*)::int AS n FROM metric_devices WHERE node_id = 1')).toEqual([
      { n: 12 },
    ]);
  });

  it('refuses a report that would take its node past the device limit', async () => {
    const small = new PgMetricsEngine(store.pool, () => now, store.partitions, 5);
    expect(await small.commitBatch([metricsWrite(1, T0)])).toEqual(['device_limit']);
    expect(await rawTimes(1)).toEqual([]);
    expect(await q('SELECT * FROM metric_devices')).toEqual([]);
  });

  it('records the client address when a report becomes current, not for stale ones', async () => {
    await engine.commitBatch([metricsWrite(1, T0 + 3000, { ip: '192.0.2.7' })]);
    await engine.commitBatch([metricsWrite(1, T0, { ip: '198.51.100.9' })]);
    expect(await q('SELECT ip FROM nodes WHERE id = 1')).toEqual([{ ip: '192.0.2.7' }]);
    await engine.commitBatch([metricsWrite(1, T0 + 6000, { ip: '198.51.100.9' })]);
    expect(await q('SELECT ip FROM nodes WHERE id = 1')).toEqual([{ ip: '198.51.100.9' }]);
  });

  it('fails the whole batch on a storage error, storing nothing', async () => {
    await store.pool.query('ALTER TABLE node_current RENAME TO node_current_gone');
    try {
      await expect(
        engine.commitBatch([metricsWrite(1, T0), metricsWrite(2, T0)]),
      ).rejects.toThrow();
      expect(await rawTimes(1)).toEqual([]);
      expect(await q('SELECT * FROM metric_devices')).toEqual([]);
    } finally {
      await store.pool.query('ALTER TABLE node_current_gone RENAME TO node_current');
    }
  });

  it('creates a missing day partition for reports outside the prepared days', async () => {
    const old = T0 - 10 * 86_400_000;
    expect(await engine.commitBatch([metricsWrite(1, old, { deadline: T0 + 5000 })])).toEqual([
      'current',
    ]);
    expect(await rawTimes(1)).toEqual([old]);
  });

  it('writes the same raw rows and dictionary as the SQLite engine', async () => {
    const lite = openSqliteStore(':memory:', 0);
    const liteEngine = new MetricsEngine(lite.raw, () => now);
    const batches = [
      [metricsWrite(1, T0), metricsWrite(2, T0 + 10, { seq: 1 })],
      [metricsWrite(1, T0 + 3000, { seq: 2 }), metricsWrite(1, T0 + 3000, { seq: 3 })],
    ];
    for (const b of batches) {
      expect(await engine.commitBatch(b)).toEqual(liteEngine.commitBatch(b));
    }
    const sql = 'SELECT * FROM metrics_raw ORDER BY node_id, received_at';
    const pgRows = (await store.pool.query(sql)).rows as Array<Record<string, unknown>>;
    const liteRows = lite.raw.prepare(sql).all() as Array<Record<string, unknown>>;
    const norm = (rows: Array<Record<string, unknown>>) =>
      rows.map((r) => ({ ...r, devices: Buffer.from(r.devices as Uint8Array).toString('hex') }));
    expect(norm(pgRows)).toEqual(norm(liteRows));
    const dict =
      'SELECT id, node_id, kind, name, ref, alt, first_seen_at, last_seen_at FROM metric_devices ORDER BY id';
    expect((await store.pool.query(dict)).rows).toEqual(lite.raw.prepare(dict).all());
    await lite.close();
  });
});
