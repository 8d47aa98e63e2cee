import type BetterSqlite3 from 'better-sqlite3';
import type { RollupRunResult } from '../ports.js';
import {
  BUCKET_15M,
  BUCKET_1H,
  WATERMARK_15M,
  WATERMARK_1H,
  watermarks,
} from './metrics-jobs-state.js';
import { compactTask } from './block-compaction.js';
import { DEFAULT_SEAL_MS, sealTask } from './history-blocks.js';
import { historySource, type OpenLogs } from './history-source.js';
import { rollupId } from './rollup-codec.js';
import { historyNodes } from './rollup-nodes.js';
import {
  ROLLUP_GRACE_MS,
  closedQuartersEnd,
  hourRow,
  hoursToMerge,
  quarterBuckets,
  quarterRow,
} from '../history/rollup-plan.js';

/** Nodes handled per step; the runner lets queued ingest batches in between steps. */
const NODES_PER_STEP = 25;
/** Nodes whose oldest point one step looks up (an index look-up or two each). */
export const OLDEST_NODES_PER_STEP = 250;

export { ROLLUP_GRACE_MS };

/**
 * Seals closed windows of raw rows into blocks (history-blocks.ts), merges the small blocks of
 * closed hours (block-compaction.ts), then materialises closed
 * 15-minute buckets from raw history (blocks and raw rows) newer than the watermark, then 1-hour
 * buckets from their four 15-minute rows. Idempotent: a bucket is recomputed from scratch and
 * upserted, so a crash between steps only repeats work. Yields between small steps.
 */
export function* rollupTask(
  db: BetterSqlite3.Database,
  now: number,
  sealMs: number = DEFAULT_SEAL_MS,
  logs?: OpenLogs,
  /** Fraction of their full size the next steps should have (the runner's pacer, step-pacer.ts). */
  stepScale: () => number = () => 1,
): Generator<void, RollupRunResult> {
  const sealed = yield* sealTask(db, now, sealMs);
  const compacted = yield* compactTask(db, now, sealMs);
  const wm = watermarks(db);
  const source = historySource(db, logs);
  const put15 = db.prepare('INSERT OR REPLACE INTO metrics_15m (id, data) VALUES (?, ?)');
  const put1h = db.prepare('INSERT OR REPLACE INTO metrics_1h (id, data) VALUES (?, ?)');
  const read15 = db
    .prepare('SELECT data FROM metrics_15m WHERE id >= ? AND id < ? ORDER BY id')
    .pluck();

  // Nodes whose history is still only in an open-block log count too.
  const nodes = yield* historyNodes(db, logs, stepScale);
  // Raw rows older than the watermark may be gone (retention); never start before the data.
  // Only a run with a bucket to materialise needs the oldest point (14 runs in 15 have none),
  // and it looks for it in steps: a look-up per node, for every node, held the ingest thread
  // (and the write slot) for hundreds of ms (docs/ingest-performance.md#tail-latency).
  let oldest: number | undefined;
  const done15 = wm.get(WATERMARK_15M);
  if (done15 === undefined || done15 < closedQuartersEnd(now)) {
    yield* inSteps(nodes, OLDEST_NODES_PER_STEP, stepScale, (ids) => {
      for (const id of ids) {
        const first = source.first(id);
        if (first !== undefined) oldest = Math.min(oldest ?? Infinity, first);
      }
    });
  }
  const quarters = quarterBuckets(now, done15, oldest);
  for (const b of quarters) {
    yield* inSteps(nodes, NODES_PER_STEP, stepScale, (ids) =>
      db.transaction(() => {
        for (const nodeId of ids) {
          const row = quarterRow(source.rows(nodeId, b, b + BUCKET_15M));
          if (row) put15.run(rollupId(nodeId, b, BUCKET_15M), row);
        }
      })(),
    );
    wm.set(WATERMARK_15M, b + BUCKET_15M);
  }
  for (const h of hoursToMerge(wm.get(WATERMARK_1H), quarters[0], wm.get(WATERMARK_15M))) {
    yield* inSteps(nodes, NODES_PER_STEP, stepScale, (ids) =>
      db.transaction(() => {
        for (const nodeId of ids) {
          const lo = rollupId(nodeId, h, BUCKET_15M);
          const row = hourRow(read15.all(lo, lo + BUCKET_1H / BUCKET_15M) as Uint8Array[]);
          if (row) put1h.run(rollupId(nodeId, h, BUCKET_1H), row);
        }
      })(),
    );
    wm.set(WATERMARK_1H, h + BUCKET_1H);
  }
  return {
    watermark15m: wm.get(WATERMARK_15M),
    watermark1h: wm.get(WATERMARK_1H),
    buckets: quarters.length,
    sealedBlocks: sealed.blocks,
    sealedPoints: sealed.points,
    compactedBlocks: compacted.merged,
  };
}

/**
 * Runs `fn` over `nodes` a run at a time, yielding after each: `perStep` nodes at full step
 * size, fewer (at least one) while the pacer has cut its steps down (a 15-minute row of 25
 * nodes, ~270 reports each, was 40–75 ms of a loaded core).
 */
function* inSteps(
  nodes: readonly number[],
  perStep: number,
  stepScale: () => number,
  fn: (ids: readonly number[]) => void,
): Generator<void> {
  for (let i = 0; i < nodes.length;) {
    const n = Math.max(1, Math.round(perStep * stepScale()));
    fn(nodes.slice(i, i + n));
    i += n;
    yield;
  }
}
