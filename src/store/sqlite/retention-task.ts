import type BetterSqlite3 from 'better-sqlite3';
import type { RetentionRunResult } from '../ports.js';
import type { DeviceRegistry } from './device-registry.js';
import { BUCKET_15M, BUCKET_1H } from './metrics-jobs-state.js';
import { budgetRawCutoff, deleteBlocksBefore } from './history-budget.js';
import { nodeIdsStatement } from './raw-rows.js';
import { ROLLUP_NODE_SHIFT } from './rollup-codec.js';
import {
  DEVICE_RETENTION_MS,
  ROLLUP_15M_RETENTION_MS,
  ROLLUP_1H_RETENTION_MS,
} from '../history/rollup-plan.js';

/** Rows per DELETE statement: small enough that a statement never holds the writer for long. */
export const RETENTION_CHUNK = 500;
export { ROLLUP_15M_RETENTION_MS, ROLLUP_1H_RETENTION_MS };

/**
 * Deletes history past its retention (raw: configurable, 15-minute: 16 days, 1-hour: 32 days)
 * in statements of at most RETENTION_CHUNK rows, yielding after each so ingest batches run in
 * between. Rollup tables are walked per node by rowid range.
 */
export function* retentionTask(
  db: BetterSqlite3.Database,
  devices: DeviceRegistry,
  now: number,
  rawRetentionDays: number,
  opts: { maxBytes?: number | undefined } = {},
): Generator<void, RetentionRunResult> {
  const result: RetentionRunResult = { raw: 0, rollup15m: 0, rollup1h: 0, devices: 0, blocks: 0 };
  let rawCutoff = now - rawRetentionDays * 86_400_000;
  // The size budget shortens raw history first (history-budget.ts).
  const budget = budgetRawCutoff(db, now, rawCutoff, opts.maxBytes);
  if (budget !== undefined) {
    rawCutoff = budget;
    result.budgetCutoff = budget;
  }
  const deleteBlocks = deleteBlocksBefore(db, RETENTION_CHUNK);
  const deleteRaw = db.prepare(
    `DELETE FROM metrics_raw WHERE node_id = @node AND received_at < @cutoff
       AND received_at <= coalesce(
         (SELECT received_at FROM metrics_raw WHERE node_id = @node AND received_at < @cutoff
          ORDER BY received_at LIMIT 1 OFFSET ${RETENTION_CHUNK - 1}), @cutoff)`,
  );
  for (const nodeId of nodeIdsStatement(db)()) {
    for (;;) {
      const n = deleteRaw.run({ node: nodeId, cutoff: rawCutoff }).changes;
      result.raw += n;
      yield;
      if (n < RETENTION_CHUNK) break;
    }
  }
  for (const nodeId of nodeIdsStatement(db, 'metrics_blocks')()) {
    for (;;) {
      const n = db.transaction(() => deleteBlocks(nodeId, rawCutoff))();
      result.blocks = (result.blocks ?? 0) + n.blocks;
      result.raw += n.points;
      yield;
      if (n.blocks < RETENTION_CHUNK) break;
    }
  }
  const rollups = [
    ['metrics_15m', BUCKET_15M, now - ROLLUP_15M_RETENTION_MS, 'rollup15m'],
    ['metrics_1h', BUCKET_1H, now - ROLLUP_1H_RETENTION_MS, 'rollup1h'],
  ] as const;
  for (const [table, bucketMs, cutoff, key] of rollups) {
    const nextNode = db
      .prepare(`SELECT id FROM ${table} WHERE id >= ? ORDER BY id LIMIT 1`)
      .pluck();
    const del = db.prepare(
      `DELETE FROM ${table} WHERE id IN
         (SELECT id FROM ${table} WHERE id >= ? AND id < ? ORDER BY id LIMIT ${RETENTION_CHUNK})`,
    );
    const cutoffIndex = Math.floor(cutoff / bucketMs);
    for (let from = 0; ;) {
      const id = nextNode.get(from) as number | undefined;
      if (id === undefined) break;
      const nodeBase = Math.floor(id / ROLLUP_NODE_SHIFT) * ROLLUP_NODE_SHIFT;
      for (;;) {
        const n = del.run(nodeBase, nodeBase + cutoffIndex).changes;
        result[key] += n;
        yield;
        if (n < RETENTION_CHUNK) break;
      }
      from = nodeBase + ROLLUP_NODE_SHIFT;
    }
  }
  const staleNodes = db
    .prepare(
      `SELECT DISTINCT node_id FROM metric_devices WHERE last_seen_at < ? LIMIT ${RETENTION_CHUNK}`,
    )
    .pluck();
  const deleteDevices = db.prepare(
    'DELETE FROM metric_devices WHERE node_id = ? AND last_seen_at < ?',
  );
  const deviceCutoff = now - DEVICE_RETENTION_MS;
  for (;;) {
    const nodes = staleNodes.all(deviceCutoff) as number[];
    if (nodes.length === 0) break;
    for (const nodeId of nodes) {
      result.devices += deleteDevices.run(nodeId, deviceCutoff).changes;
      devices.forget(nodeId);
    }
    yield;
  }
  return result;
}
