import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PgMetricsEngine } from '../../../src/store/postgres/metrics-engine.js';
import type { PostgresStore } from '../../../src/store/postgres/open.js';
import { checkpointDelay, MetricsEngine } from '../../../src/store/sqlite/metrics-engine.js';
import { openSqliteStore } from '../../../src/store/sqlite/open.js';
import { decodeDevices } from '../../../src/store/sqlite/metrics-codec.js';
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

  const live = async (nodeId: number) =>
    (
      await q<{ received_at: number; runtime_json: string }>(
        'SELECT received_at, runtime_json FROM node_live WHERE node_id = $1',
        nodeId,
      )
    )[0];

  it('with several instances, writes every current report to node_live; node_current keeps its cadence', async () => {
    const shared = new PgMetricsEngine(store.pool, () => now, store.partitions, undefined, true);
    await shared.commitBatch([metricsWrite(1, T0)]);
    await shared.commitBatch([
      metricsWrite(1, T0 + 3000, { seq: 1 }),
      metricsWrite(1, T0 + 6000, { seq: 2 }),
    ]);
    expect(await current(1)).toMatchObject({ received_at: T0, first_received_at: T0 });
    const row = await live(1);
    expect(row?.received_at).toBe(T0 + 6000);
    expect(JSON.parse(row!.runtime_json)).toEqual({ receivedAt: T0 + 6000, seq: 2 });
    // A report older than the live one (another instance's, late) stays history only.
    expect(await shared.commitBatch([metricsWrite(1, T0 + 4000)])).toEqual(['history']);
    expect((await live(1))?.received_at).toBe(T0 + 6000);
    await shared.commitBatch([metricsWrite(1, T0 + checkpointDelay(1), { seq: 3 })]);
    expect(await current(1)).toMatchObject({ received_at: T0 + checkpointDelay(1) });
    expect((await live(1))?.received_at).toBe(T0 + checkpointDelay(1));
  });

  it('with several instances, node_current is rewritten once per cadence, not once per instance', async () => {
    const a = new PgMetricsEngine(store.pool, () => now, store.partitions, undefined, true);
    const b = new PgMetricsEngine(store.pool, () => now, store.partitions, undefined, true);
    const d = checkpointDelay(1);
    await b.commitBatch([metricsWrite(1, T0)]);
    await a.commitBatch([metricsWrite(1, T0 + 3000)]);
    await a.commitBatch([metricsWrite(1, T0 + d)]);
    expect((await current(1))?.received_at).toBe(T0 + d);
    // b last rewrote it at T0, so its own cadence says due; a did 3 s ago: left as it is.
    expect(await b.commitBatch([metricsWrite(1, T0 + d + 3000)])).toEqual(['current']);
    expect((await current(1))?.received_at).toBe(T0 + d);
    expect((await live(1))?.received_at).toBe(T0 + d + 3000);
  });

  it('with several instances, a device row is refreshed once per minute, not once per instance', async () => {
    const a = new PgMetricsEngine(store.pool, () => now, store.partitions, undefined, true);
    const b = new PgMetricsEngine(store.pool, () => now, store.partitions, undefined, true);
    await a.commitBatch([metricsWrite(1, T0)]);
    await b.commitBatch([metricsWrite(1, T0 + 3000)]);
    await a.commitBatch([metricsWrite(1, T0 + 60_000)]);
    await b.commitBatch([metricsWrite(1, T0 + 63_000)]);
    const seen = await q<{ last_seen_at: number }>(
      'SELECT DISTINCT last_seen_at FROM metric_devices WHERE node_id = 1',
    );
    expect(seen).toEqual([{ last_seen_at: T0 + 60_000 }]);
    // b counts its skipped refresh as done: its next is due a minute after it.
    await b.commitBatch([metricsWrite(1, T0 + 123_000)]);
    expect(await q('SELECT DISTINCT last_seen_at FROM metric_devices WHERE node_id = 1')).toEqual([
      { last_seen_at: T0 + 123_000 },
    ]);
  });

  it('learns the ids of new devices another instance registered a moment earlier', async () => {
    const a = new PgMetricsEngine(store.pool, () => now, store.partitions, undefined, true);
    const b = new PgMetricsEngine(store.pool, () => now, store.partitions, undefined, true);
    const client = await store.pool.connect();
    await b.devices.load(client, [1]); // b knows node 1 with no devices yet
    client.release();
    await a.commitBatch([metricsWrite(1, T0)]);
    expect(await b.commitBatch([metricsWrite(1, T0 + 1000)])).toEqual(['current']);
    const ids = new Set<number>();
    const rows = await q<{ devices: Uint8Array }>('SELECT devices FROM metrics_raw');
    for (const r of rows) decodeDevices(r.devices, (_kind, id) => ids.add(id));
    const dict = await q<{ id: number }>('SELECT id FROM metric_devices WHERE node_id = 1');
    expect([...ids].sort()).toEqual(dict.map((x) => x.id).sort());
    expect(dict).toHaveLength(12);
  });

  it('stores the projection documents exactly: quotes, backslashes, non-ASCII, absent ones', async () => {
    const shared = new PgMetricsEngine(store.pool, () => now, store.partitions, undefined, true);
    const odd = JSON.stringify({ s: 'a"b\\c\n\u0001 é ✓ 😀', n: null, x: '[1,2]' });
    const w = metricsWrite(1, T0);
    w.current = { ...w.current, runtimeJson: odd, smartJson: '{"k":"\\"}', thermalJson: null };
    const w2 = metricsWrite(2, T0);
    await shared.commitBatch([w, w2]);
    for (const table of ['node_current', 'node_live']) {
      const rows = await q<Record<string, string | null>>(
        `SELECT runtime_json, smart_json, thermal_json, pressure_json FROM ${table} ORDER BY node_id`,
      );
      expect(rows).toEqual([
        { runtime_json: odd, smart_json: '{"k":"\\"}', thermal_json: null, pressure_json: null },
        {
          runtime_json: JSON.stringify(w2.current.runtime),
          smart_json: null,
          thermal_json: null,
          pressure_json: null,
        },
      ]);
    }
  });

  it('a single instance writes nothing to node_live', async () => {
    await engine.commitBatch([metricsWrite(1, T0), metricsWrite(1, T0 + 3000)]);
    expect(await live(1)).toBeUndefined();
  });

  it('an instance that first sees a node orders its reports after the live one of another instance', async () => {
    const a = new PgMetricsEngine(store.pool, () => now, store.partitions, undefined, true);
    await a.commitBatch([metricsWrite(1, T0)]);
    await a.commitBatch([metricsWrite(1, T0 + 6000, { seq: 1 })]);
    const b = new PgMetricsEngine(store.pool, () => now, store.partitions, undefined, true);
    expect(await b.commitBatch([metricsWrite(1, T0 + 3000)])).toEqual(['history']);
    // b's cadence runs from node_current's rewrite (T0), not from the live report.
    await b.commitBatch([metricsWrite(1, T0 + checkpointDelay(1), { seq: 2 })]);
    expect(await current(1)).toMatchObject({ received_at: T0 + checkpointDelay(1) });
  });

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

  it('writes the same raw rows and dictionary as the SQLite engine (device ids aside)', async () => {
    const lite = openSqliteStore(':memory:', 0);
    const liteEngine = new MetricsEngine(lite.raw, () => now);
    const batches = [
      [metricsWrite(1, T0), metricsWrite(2, T0 + 10, { seq: 1 })],
      [metricsWrite(1, T0 + 3000, { seq: 2 }), metricsWrite(1, T0 + 3000, { seq: 3 })],
    ];
    for (const b of batches) {
      expect(await engine.commitBatch(b)).toEqual(liteEngine.commitBatch(b));
    }
    type Row = Record<string, unknown> & { node_id: number; devices: Uint8Array };
    // Device ids are each engine's own; compare the blobs with ids replaced by device names.
    const named = (rows: Row[], dict: Array<{ id: number; name: string }>) => {
      const names = new Map(dict.map((d) => [d.id, d.name]));
      return rows.map((r) => {
        const devices: string[] = [];
        decodeDevices(r.devices, (kind, id, values) =>
          devices.push(`${kind}:${names.get(id)}:${values.join(',')}`),
        );
        return { ...r, devices };
      });
    };
    const sql = 'SELECT * FROM metrics_raw ORDER BY node_id, received_at';
    const dictSql =
      'SELECT id, node_id, kind, name, ref, alt, first_seen_at, last_seen_at FROM metric_devices';
    const pgDict = (await store.pool.query(dictSql)).rows as Array<{ id: number; name: string }>;
    const liteDict = lite.raw.prepare(dictSql).all() as Array<{ id: number; name: string }>;
    expect(named((await store.pool.query(sql)).rows as Row[], pgDict)).toEqual(
      named(lite.raw.prepare(sql).all() as Row[], liteDict),
    );
    const noId = (d: Array<{ id: number; name: string }>) =>
      d
        .map(({ id: _id, ...rest }) => rest)
        .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    expect(noId(pgDict)).toEqual(noId(liteDict));
    await lite.close();
  });

  it('two instances writing the same nodes at the same moments lose nothing and never deadlock', async () => {
    await store.pool.query(
      `INSERT INTO nodes (id, name, secret_enc, created_at, updated_at)
       SELECT g, 'n', 'x', 0, 0 FROM generate_series(3, 12) g`,
    );
    const a = new PgMetricsEngine(store.pool, () => now, store.partitions);
    const b = new PgMetricsEngine(store.pool, () => now, store.partitions);
    const nodes = Array.from({ length: 12 }, (_, i) => i + 1);
    const run = async (engine: PgMetricsEngine, order: number[]) => {
      const outcomes: string[] = [];
      for (let k = 0; k < 5; k++) {
        const batch = order.map((n) => metricsWrite(n, T0 + k * 1000, { deadline: T0 + 60_000 }));
        outcomes.push(...(await engine.commitBatch(batch)));
      }
      return outcomes;
    };
    // Opposite node orders: without one lock order the two would deadlock.
    const [outA, outB] = await Promise.all([run(a, nodes), run(b, [...nodes].reverse())]);
    expect([...outA, ...outB].every((o) => o === 'current' || o === 'history')).toBe(true);
    const counts = await q<{ node_id: number; n: number }>(
      'SELECT node_id, count(*)::int AS n FROM metrics_raw GROUP BY node_id ORDER BY node_id',
    );
    expect(counts).toEqual(nodes.map((n) => ({ node_id: n, n: 10 })));
    const devices = await q<{ n: number }>(
      'SELECT count(*)::int AS n FROM metric_devices GROUP BY node_id',
    );
    expect(devices.every((d) => d.n === 12)).toBe(true);
    expect(await current(7)).toMatchObject({ first_received_at: T0 });
  });
  it('runs a batch again when PostgreSQL aborts it as a deadlock victim, storing it once', async () => {
    // The first attempt is aborted at its first raw row, as a deadlock victim is. A sequence
    // counts attempts because nextval survives the rollback.
    await store.pool.query(`
      CREATE SEQUENCE raw_attempts;
      CREATE FUNCTION abort_once() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF nextval('raw_attempts') = 1 THEN
          RAISE EXCEPTION 'deadlock detected' USING ERRCODE = '40P01';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER abort_once BEFORE INSERT ON metrics_raw
        FOR EACH ROW EXECUTE FUNCTION abort_once();`);
    try {
      const out = await engine.commitBatch([
        metricsWrite(1, T0, { deadline: T0 + 60_000 }),
        metricsWrite(2, T0, { deadline: T0 + 60_000 }),
      ]);
      expect(out).toEqual(['current', 'current']);
      expect(await rawTimes(1)).toEqual([T0]);
      expect(await rawTimes(2)).toEqual([T0]);
      expect(await current(2)).toMatchObject({ received_at: T0 });
    } finally {
      await store.pool.query(
        'DROP TRIGGER abort_once ON metrics_raw; DROP FUNCTION abort_once(); DROP SEQUENCE raw_attempts',
      );
    }
  });
});
