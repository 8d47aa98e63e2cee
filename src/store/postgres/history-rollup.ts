import type pg from 'pg';
import type { RollupRunResult } from '../ports.js';
import { hourRow, hoursToMerge, quarterBuckets, quarterRow } from '../history/rollup-plan.js';
import { storedDevices, type StoredRow } from '../sqlite/history-blocks.js';
import { HOST_COLUMNS } from '../sqlite/metrics-codec.js';
import {
  BUCKET_15M,
  BUCKET_1H,
  WATERMARK_15M,
  WATERMARK_1H,
} from '../sqlite/metrics-jobs-state.js';
import { ROLLUP_NODE_SHIFT, rollupId } from '../sqlite/rollup-codec.js';
import { rollupWatermarks } from './history-reader.js';

/** Nodes per statement: a bucket's rows of this many nodes are read (and held) at once. */
const NODES_PER_STEP = 200;

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/** Every node with history: live and deleted nodes, and any other id raw rows may carry. */
export async function historyNodeIds(db: Queryable): Promise<number[]> {
  const res = await db.query<{ id: number }>(
    `SELECT id FROM nodes UNION SELECT node_id FROM node_current
     UNION SELECT DISTINCT node_id FROM metric_devices ORDER BY 1`,
  );
  return res.rows.map((r) => r.id);
}

/** The oldest stored report of these nodes: one index seek per node and day partition. */
export async function oldestReport(
  db: Queryable,
  nodeIds: readonly number[],
): Promise<number | undefined> {
  const res = await db.query<{ oldest: number | null }>(
    `SELECT min(f.received_at) AS oldest FROM unnest($1::bigint[]) AS n (id),
       LATERAL (SELECT received_at FROM metrics_raw WHERE node_id = n.id
                ORDER BY received_at LIMIT 1) AS f`,
    [nodeIds],
  );
  return res.rows[0]?.oldest ?? undefined;
}

export async function setWatermark(db: Queryable, name: string, value: number): Promise<void> {
  await db.query(
    `INSERT INTO metrics_jobs (name, watermark) VALUES ($1, $2)
     ON CONFLICT (name) DO UPDATE SET watermark = excluded.watermark`,
    [name, value],
  );
}

const ROW_COLUMNS = ['node_id', 'received_at', ...HOST_COLUMNS, 'devices'].join(', ');

async function upsert(db: Queryable, table: string, rows: Array<[number, Buffer]>) {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO ${table} (id, data) SELECT * FROM unnest($1::bigint[], $2::bytea[])
     ON CONFLICT (id) DO UPDATE SET data = excluded.data`,
    [rows.map((r) => r[0]), rows.map((r) => r[1])],
  );
}

/** One 15-minute bucket of a group of nodes, from their raw rows. */
async function rollQuarter(db: Queryable, nodes: readonly number[], b: number): Promise<void> {
  const res = await db.query<unknown[]>({
    text: `SELECT ${ROW_COLUMNS} FROM metrics_raw WHERE node_id = ANY($1::bigint[])
             AND received_at >= $2 AND received_at < $3 ORDER BY node_id, received_at`,
    values: [nodes, b, b + BUCKET_15M],
    rowMode: 'array',
  });
  const byNode = new Map<number, StoredRow[]>();
  for (const r of res.rows) {
    const nodeId = r[0] as number;
    let list = byNode.get(nodeId);
    if (!list) byNode.set(nodeId, (list = []));
    list.push({
      at: r[1] as number,
      host: r.slice(2, HOST_COLUMNS.length + 2) as Array<number | null>,
      devices: storedDevices((r[HOST_COLUMNS.length + 2] as Buffer | null) ?? null),
    });
  }
  const out: Array<[number, Buffer]> = [];
  for (const [nodeId, rows] of byNode) {
    const row = quarterRow(rows);
    if (row) out.push([rollupId(nodeId, b, BUCKET_15M), row]);
  }
  await upsert(db, 'metrics_15m', out);
}

/** One hour of a group of nodes, from their four 15-minute rows. */
async function rollHour(db: Queryable, nodes: readonly number[], h: number): Promise<void> {
  const perHour = BUCKET_1H / BUCKET_15M;
  const res = await db.query<[number, Buffer]>({
    text: `SELECT m.id, m.data FROM unnest($1::bigint[]) AS n (lo)
             JOIN metrics_15m m ON m.id >= n.lo AND m.id < n.lo + ${perHour} ORDER BY m.id`,
    values: [nodes.map((id) => rollupId(id, h, BUCKET_15M))],
    rowMode: 'array',
  });
  const byNode = new Map<number, Buffer[]>();
  for (const [id, data] of res.rows) {
    const nodeId = Math.floor(id / ROLLUP_NODE_SHIFT);
    let list = byNode.get(nodeId);
    if (!list) byNode.set(nodeId, (list = []));
    list.push(data);
  }
  const out: Array<[number, Buffer]> = [];
  for (const [nodeId, parts] of byNode) {
    const row = hourRow(parts);
    if (row) out.push([rollupId(nodeId, h, BUCKET_1H), row]);
  }
  await upsert(db, 'metrics_1h', out);
}

/**
 * The rollup job on PostgreSQL, with SQLite's rules (store/history/rollup-plan.ts): closed
 * 15-minute buckets after the watermark from raw rows, then whole hours from their quarters.
 * Idempotent like SQLite's: a bucket is recomputed and upserted, and the watermark moves only
 * after a bucket is stored for every node. There is nothing to seal: raw history stays rows.
 * Run it under the job lock when several instances share the database.
 */
export async function postgresRollup(pool: pg.Pool, now: number): Promise<RollupRunResult> {
  const nodes = await historyNodeIds(pool);
  const wm = await rollupWatermarks(pool);
  const quarters = quarterBuckets(now, wm['15m'], await oldestReport(pool, nodes));
  for (const b of quarters) {
    for (let i = 0; i < nodes.length; i += NODES_PER_STEP) {
      await rollQuarter(pool, nodes.slice(i, i + NODES_PER_STEP), b);
    }
    await setWatermark(pool, WATERMARK_15M, b + BUCKET_15M);
  }
  const done15 = quarters.length > 0 ? quarters[quarters.length - 1]! + BUCKET_15M : wm['15m'];
  let done1h = wm['1h'];
  for (const h of hoursToMerge(wm['1h'], quarters[0], done15)) {
    for (let i = 0; i < nodes.length; i += NODES_PER_STEP) {
      await rollHour(pool, nodes.slice(i, i + NODES_PER_STEP), h);
    }
    await setWatermark(pool, WATERMARK_1H, h + BUCKET_1H);
    done1h = h + BUCKET_1H;
  }
  return {
    watermark15m: done15,
    watermark1h: done1h,
    buckets: quarters.length,
  };
}
