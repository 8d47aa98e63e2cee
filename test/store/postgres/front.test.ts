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
});
