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
import { DEFAULT_SEAL_MS, foldStoredRow, historyNodeIds, sealTask } from './history-blocks.js';
import { historySource } from './history-source.js';
import { RollupRecord, decodeRollup, encodeRollup, rollupId } from './rollup-codec.js';

/**
 * A 15-minute bucket is materialised once it ended this long ago: a report received just before
 * the end may commit up to 5 s later (its persistence budget), plus a batch.
 */
export const ROLLUP_GRACE_MS = 10_000;
/** Nodes handled per step; the runner lets queued ingest batches in between steps. */
const NODES_PER_STEP = 25;
/** Upper bound of buckets per run, so a long catch-up is spread over several runs. */
const MAX_BUCKETS_PER_RUN = 96;

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
): Generator<void, RollupRunResult> {
  const sealed = yield* sealTask(db, now, sealMs);
  const compacted = yield* compactTask(db, now, sealMs);
  const wm = watermarks(db);
  const source = historySource(db);
  const nodeIds = historyNodeIds(db);
  const put15 = db.prepare('INSERT OR REPLACE INTO metrics_15m (id, data) VALUES (?, ?)');
  const put1h = db.prepare('INSERT OR REPLACE INTO metrics_1h (id, data) VALUES (?, ?)');
  const read15 = db
    .prepare('SELECT data FROM metrics_15m WHERE id >= ? AND id < ? ORDER BY id')
    .pluck();

  const nodes = [...nodeIds()];
  yield;
  const closedUntil = Math.floor((now - ROLLUP_GRACE_MS) / BUCKET_15M) * BUCKET_15M;
  let start = wm.get(WATERMARK_15M);
  if (nodes.length > 0) {
    // Raw rows older than the watermark may be gone (retention); never start before the data.
    let oldest = Infinity;
    for (const id of nodes) oldest = Math.min(oldest, source.first(id) ?? Infinity);
    const floor = Math.floor(oldest / BUCKET_15M) * BUCKET_15M;
    start = start === undefined ? floor : Math.max(start, floor);
  }
  let buckets = 0;
  for (
    let b = start ?? closedUntil;
    b < closedUntil && buckets < MAX_BUCKETS_PER_RUN;
    b += BUCKET_15M
  ) {
    for (let i = 0; i < nodes.length; i += NODES_PER_STEP) {
      db.transaction(() => {
        for (const nodeId of nodes.slice(i, i + NODES_PER_STEP)) {
          const rec = new RollupRecord();
          let any = false;
          for (const row of source.rows(nodeId, b, b + BUCKET_15M)) {
            foldStoredRow(rec, row);
            any = true;
          }
          if (any) put15.run(rollupId(nodeId, b, BUCKET_15M), encodeRollup(rec));
        }
      })();
      yield;
    }
    wm.set(WATERMARK_15M, b + BUCKET_15M);
    buckets++;
  }
  const done15 = wm.get(WATERMARK_15M);
  if (done15 !== undefined) {
    const hourStart = wm.get(WATERMARK_1H);
    const firstHour = Math.floor((start ?? done15) / BUCKET_1H) * BUCKET_1H;
    for (let h = hourStart ?? firstHour; h + BUCKET_1H <= done15; h += BUCKET_1H) {
      for (let i = 0; i < nodes.length; i += NODES_PER_STEP) {
        db.transaction(() => {
          for (const nodeId of nodes.slice(i, i + NODES_PER_STEP)) {
            const lo = rollupId(nodeId, h, BUCKET_15M);
            const parts = read15.all(lo, lo + BUCKET_1H / BUCKET_15M) as Uint8Array[];
            if (parts.length === 0) continue;
            const rec = new RollupRecord();
            for (const p of parts) rec.merge(decodeRollup(p));
            put1h.run(rollupId(nodeId, h, BUCKET_1H), encodeRollup(rec));
          }
        })();
        yield;
      }
      wm.set(WATERMARK_1H, h + BUCKET_1H);
    }
  }
  return {
    watermark15m: wm.get(WATERMARK_15M),
    watermark1h: wm.get(WATERMARK_1H),
    buckets,
    sealedBlocks: sealed.blocks,
    sealedPoints: sealed.points,
    compactedBlocks: compacted.merged,
  };
}
