import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PostgresStore } from '../../../src/store/postgres/open.js';
import { listPartitions } from '../../../src/store/postgres/partitions.js';
import { PARTITIONS_LOCK_SQL } from '../../../src/store/postgres/partition-maintenance.js';
import { freshSchema } from '../../support/postgres.js';
import pg from 'pg';
import { historyPartitionsJob } from '../../../src/jobs/history-partitions.js';
import type { HistoryPartitions } from '../../../src/store/ports.js';
import { openSharedPostgres, POSTGRES_AVAILABLE } from '../engines.js';

const DAY = 86_400_000;
const TODAY = Date.UTC(2026, 10, 24);
const NOW = TODAY + 12 * 3_600_000;

describe('history partitions job', () => {
  it('runs hourly with the configured raw retention', async () => {
    const calls: Array<[number, number]> = [];
    const port: HistoryPartitions = {
      maintain: async (now, days) => {
        calls.push([now, days]);
        return { created: 0, dropped: [], skipped: false };
      },
    };
    const job = historyPartitionsJob(port, 8);
    expect(job.nextRunAt(NOW)).toBe(NOW + 3_600_000);
    await job.runOnce(NOW);
    expect(calls).toEqual([[NOW, 8]]);
  });
});

describe.skipIf(!POSTGRES_AVAILABLE)('history partitions on PostgreSQL', () => {
  let store: PostgresStore;
  beforeEach(async () => {
    store = await openSharedPostgres(NOW);
  });
  afterEach(async () => store.close());

  it('keeps days ahead ready and drops raw days past retention, keeping the rest', async () => {
    await store.partitions.ensure([NOW - 10 * DAY, NOW - 8 * DAY, NOW - 7 * DAY]);
    await store.pool.query(
      'INSERT INTO metrics_raw (node_id, received_at) VALUES (1, $1), (1, $2), (1, $3), (1, $4)',
      [NOW - 10 * DAY, NOW - 8 * DAY, NOW - 7 * DAY, NOW],
    );
    const later = NOW + DAY;
    const result = await store.historyPartitions.maintain(later, 8);
    expect(result.skipped).toBe(false);
    // Tomorrow + 3 days: one new day per table.
    expect(result.created).toBe(4);
    // Cut-off: later - 8 days = NOW - 7 days; the day holding it stays.
    expect(result.dropped).toEqual(['metrics_raw_p20261114', 'metrics_raw_p20261116']);
    const left = await store.pool.query<{ received_at: number }>(
      'SELECT received_at FROM metrics_raw ORDER BY received_at',
    );
    expect(left.rows.map((r) => r.received_at)).toEqual([NOW - 7 * DAY, NOW]);
    expect((await listPartitions(store.pool, 'metrics_raw')).at(-1)?.day).toBe(TODAY + 4 * DAY);
    // Other history tables keep their days (their retention is their own job's).
    expect((await listPartitions(store.pool, 'traffic_counter'))[0]?.day).toBe(TODAY - 10 * DAY);
    // Writes to a dropped day create it again rather than fail.
    await store.partitions.ensure([NOW - 10 * DAY]);
    await store.pool.query('INSERT INTO metrics_raw (node_id, received_at) VALUES (2, $1)', [
      NOW - 10 * DAY,
    ]);
  });

  it('skips its turn while another instance holds the work', async () => {
    const other = await store.pool.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(${PARTITIONS_LOCK_SQL})`);
      expect(await store.historyPartitions.maintain(NOW, 8)).toEqual({
        created: 0,
        dropped: [],
        skipped: true,
      });
      await other.query('COMMIT');
    } finally {
      other.release();
    }
    expect((await store.historyPartitions.maintain(NOW, 8)).skipped).toBe(false);
  });

  it('is not held up by an install in another schema of the same database', async () => {
    const elsewhere = await freshSchema();
    const other = new pg.Client({ connectionString: elsewhere.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(${PARTITIONS_LOCK_SQL})`);
      expect((await store.historyPartitions.maintain(NOW, 8)).skipped).toBe(false);
      await other.query('COMMIT');
    } finally {
      await other.end();
      await elsewhere.drop();
    }
  });
});
