import type pg from 'pg';
import type { RetentionRunResult } from '../ports.js';
import { BUDGET_CUTOFF, BUDGET_OVER, budgetCutoff, DAY_MS } from '../history/budget-rule.js';
import {
  DEVICE_RETENTION_MS,
  ROLLUP_15M_RETENTION_MS,
  ROLLUP_1H_RETENTION_MS,
} from '../history/rollup-plan.js';
import { BUCKET_15M, BUCKET_1H } from '../sqlite/metrics-jobs-state.js';
import { ROLLUP_NODE_SHIFT } from '../sqlite/rollup-codec.js';
import type { PgDeviceRegistry } from './device-registry.js';
import type { PartitionGuard } from './partition-guard.js';
import { dropPartitionsBefore, listPartitions } from './partitions.js';
import { setWatermark } from './history-rollup.js';

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/** Bytes of every table Dash keeps in its schema (indexes and TOAST included). */
export async function schemaBytes(db: Queryable): Promise<number> {
  const res = await db.query<{ bytes: string | number | null }>(
    `SELECT sum(pg_total_relation_size(c.oid)) AS bytes FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'm')`,
  );
  return Number(res.rows[0]?.bytes ?? 0);
}

/**
 * Raw history per day partition, oldest first: its bytes (pg_total_relation_size) and rows.
 * Rows are the planner's count (pg_class.reltuples, kept by autovacuum's ANALYZE) so nothing
 * scans history; a partition never analyzed yet (a young day) is counted.
 */
export async function rawDays(
  db: Queryable,
): Promise<Array<{ name: string; day: number; bytes: number; points: number }>> {
  const out: Array<{ name: string; day: number; bytes: number; points: number }> = [];
  for (const p of await listPartitions(db, 'metrics_raw')) {
    const res = await db.query<{ bytes: string | number; tuples: number }>(
      `SELECT pg_total_relation_size(c.oid) AS bytes, c.reltuples AS tuples FROM pg_class c
       WHERE c.oid = to_regclass($1)`,
      [p.name],
    );
    const row = res.rows[0];
    if (!row) continue;
    let points = Math.round(row.tuples);
    if (points < 0) {
      const n = await db.query<{ n: string | number }>(`SELECT count(*) AS n FROM ${p.name}`);
      points = Number(n.rows[0]?.n ?? 0);
    }
    out.push({ name: p.name, day: p.day, bytes: Number(row.bytes), points });
  }
  return out;
}

/** The raw cutoff the size budget needs (later than the configured one), recorded as on SQLite. */
async function budgetRawCutoff(
  db: Queryable,
  now: number,
  configuredCutoff: number,
  maxBytes: number | undefined,
): Promise<number | undefined> {
  const clear = () =>
    db.query('DELETE FROM metrics_jobs WHERE name = ANY($1::text[])', [
      [BUDGET_CUTOFF, BUDGET_OVER],
    ]);
  if (maxBytes === undefined) {
    await clear();
    return undefined;
  }
  const days = (await rawDays(db)).filter((d) => d.points > 0);
  const { cutoff, over } = budgetCutoff({
    now,
    configuredCutoff,
    maxBytes,
    usedBytes: await schemaBytes(db),
    days,
  });
  if (cutoff === undefined) {
    await clear();
    if (over) await setWatermark(db, BUDGET_OVER, 1);
    return undefined;
  }
  await setWatermark(db, BUDGET_CUTOFF, cutoff);
  await setWatermark(db, BUDGET_OVER, over ? 1 : 0);
  return cutoff;
}

/**
 * The retention job on PostgreSQL: raw history goes by whole day partitions (a day is dropped
 * once it lies wholly before the cutoff, so raw history is kept up to one day longer than on
 * SQLite, where rows go one by one), the size budget moves that cutoff later by whole days
 * with the same rule as SQLite; rollups and devices past their retention are deleted as on
 * SQLite. Run it under the job lock when several instances share the database.
 */
export async function postgresRetention(
  pool: pg.Pool,
  guard: PartitionGuard,
  devices: PgDeviceRegistry | undefined,
  now: number,
  rawRetentionDays: number,
  maxBytes?: number,
): Promise<RetentionRunResult> {
  const result: RetentionRunResult = { raw: 0, rollup15m: 0, rollup1h: 0, devices: 0 };
  let rawCutoff = now - rawRetentionDays * DAY_MS;
  const budget = await budgetRawCutoff(pool, now, rawCutoff, maxBytes);
  if (budget !== undefined) {
    rawCutoff = budget;
    result.budgetCutoff = budget;
  }
  const doomed = (await rawDays(pool)).filter((d) => d.day + DAY_MS <= rawCutoff);
  for (const d of doomed) result.raw += d.points;
  if ((await dropPartitionsBefore(pool, 'metrics_raw', rawCutoff)).length > 0) guard.reset();

  const rollups = [
    ['metrics_15m', BUCKET_15M, now - ROLLUP_15M_RETENTION_MS, 'rollup15m'],
    ['metrics_1h', BUCKET_1H, now - ROLLUP_1H_RETENTION_MS, 'rollup1h'],
  ] as const;
  for (const [table, bucketMs, cutoff, key] of rollups) {
    const res = await pool.query(`DELETE FROM ${table} WHERE id % $1 < $2`, [
      ROLLUP_NODE_SHIFT,
      Math.floor(cutoff / bucketMs),
    ]);
    result[key] = res.rowCount ?? 0;
  }
  const gone = await pool.query<{ node_id: number }>(
    'DELETE FROM metric_devices WHERE last_seen_at < $1 RETURNING node_id',
    [now - DEVICE_RETENTION_MS],
  );
  result.devices = gone.rowCount ?? 0;
  for (const id of new Set(gone.rows.map((r) => r.node_id))) devices?.forget(id);
  return result;
}
