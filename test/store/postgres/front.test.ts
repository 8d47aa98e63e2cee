import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PostgresStore } from '../../../src/store/postgres/open.js';
import { openSharedPostgres, POSTGRES_AVAILABLE } from '../engines.js';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

describe.skipIf(!POSTGRES_AVAILABLE)('front repo on PostgreSQL: node_current and node_live', () => {
  let store: PostgresStore;

  beforeEach(async () => {
    store = await openSharedPostgres(T0);
    await store.pool.query(
      `INSERT INTO nodes (id, name, secret_enc, created_at, updated_at)
       VALUES (1, 'a', 'x', 0, 0), (2, 'b', 'x', 0, 0)`,
    );
    await store.pool.query(
      `INSERT INTO node_current (node_id, received_at, reported_at, first_received_at,
         runtime_json, smart_json, thermal_json, pressure_json)
       VALUES (1, $1, $1, $2, '{"at":"current"}', '{"s":1}', NULL, NULL),
              (2, $1, $1, $2, '{"at":"current"}', NULL, NULL, NULL)`,
      [T0, T0 - 60_000],
    );
  });
  afterEach(async () => store.close());

  const live = (nodeId: number, at: number) =>
    store.pool.query(
      `INSERT INTO node_live (node_id, received_at, reported_at, runtime_json, smart_json,
         thermal_json, pressure_json)
       VALUES ($1, $2, $2, '{"at":"live"}', NULL, '{"t":1}', NULL)`,
      [nodeId, at],
    );

  it('answers the newer of the two rows, with the first receive time of node_current', async () => {
    await live(1, T0 + 3000);
    await live(2, T0 - 3000);
    const rows = await store.front.currentRows();
    expect(rows.sort((a, b) => a.nodeId - b.nodeId)).toEqual([
      {
        nodeId: 1,
        receivedAt: T0 + 3000,
        reportedAt: T0 + 3000,
        firstReceivedAt: T0 - 60_000,
        runtimeJson: '{"at":"live"}',
        smartJson: null,
        thermalJson: '{"t":1}',
        pressureJson: null,
      },
      {
        nodeId: 2,
        receivedAt: T0,
        reportedAt: T0,
        firstReceivedAt: T0 - 60_000,
        runtimeJson: '{"at":"current"}',
        smartJson: null,
        thermalJson: null,
        pressureJson: null,
      },
    ]);
    expect((await store.front.currentRows([1])).map((r) => r.runtimeJson)).toEqual([
      '{"at":"live"}',
    ]);
    expect(await store.front.currentRows([])).toEqual([]);
  });

  it('answers node_current alone when node_live is empty (after a crash)', async () => {
    const [row] = await store.front.currentRows([1]);
    expect(row).toMatchObject({
      receivedAt: T0,
      runtimeJson: '{"at":"current"}',
      smartJson: '{"s":1}',
    });
  });

  it('compresses the projection documents with lz4 where the server has it (migration 0019)', async () => {
    const lz4 = await store.pool
      .query(`CREATE TEMP TABLE lz4_probe (t text COMPRESSION lz4)`)
      .then(() => true)
      .catch(() => false);
    const { rows } = await store.pool.query<{ rel: string; att: string; c: string }>(
      `SELECT attrelid::regclass::text AS rel, attname AS att, attcompression AS c
       FROM pg_attribute WHERE attrelid IN ('node_live'::regclass, 'node_current'::regclass)
         AND attname IN ('runtime_json', 'smart_json', 'thermal_json', 'pressure_json')
       ORDER BY 1, 2`,
    );
    expect(rows).toHaveLength(8);
    for (const r of rows) expect(r.c, `${r.rel}.${r.att}`).toBe(lz4 ? 'l' : '');
    // A projection large enough to be compressed in its row (STORAGE MAIN, 0017).
    const doc = JSON.stringify({ values: Array.from({ length: 2000 }, (_, i) => i % 7) });
    await store.pool.query(
      `INSERT INTO node_live (node_id, received_at, reported_at, runtime_json)
       VALUES (1, $1, $1, $2)`,
      [T0 + 1, doc],
    );
    const stored = await store.pool.query<{ m: string | null }>(
      `SELECT pg_column_compression(runtime_json) AS m FROM node_live WHERE node_id = 1`,
    );
    expect(stored.rows[0]?.m).toBe(lz4 ? 'lz4' : 'pglz');
    expect((await store.front.currentRows([1]))[0]?.runtimeJson).toBe(doc);
  });
});
