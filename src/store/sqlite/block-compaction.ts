import type BetterSqlite3 from 'better-sqlite3';
import { decodeBlock, encodeBlock, mergeBlocks } from '../history-blocks/block-codec.js';
import {
  dayAccounting,
  DEFAULT_SEAL_MS,
  MAX_BLOCK_SPAN_MS,
  SEAL_GRACE_MS,
  validSealMs,
} from './history-blocks.js';
import { watermarks } from './metrics-jobs-state.js';
import { listNodeIds } from './raw-rows.js';

/**
 * Compaction of sealed raw-history blocks (issue 22). A node that reports every 60 s fills a
 * 5-minute window with 5 points, and a quiet node with fewer: each such block pays the block
 * header, the column directory and every column's first value for a handful of points. Once
 * an hour is closed (its last seal window sealed), a node's consecutive small blocks that start
 * in that hour are merged into one block: the points concatenated, bit for bit
 * (`mergeBlocks`). A merged block still spans less than MAX_BLOCK_SPAN_MS, so range reads find
 * it by its start as before, and it stays inside one UTC day, so the day accounting, the size
 * budget and retention (whole blocks) keep working on it.
 *
 * Each node's merges commit in one transaction with the day accounting: a crash leaves either
 * the old blocks or the merged one. Works only on `metrics_blocks`; the open window
 * (`metrics_raw`) is the seal step's.
 */

/** A block with fewer points than this is small (a 5-minute window at 15 s or slower). */
export const SMALL_BLOCK_POINTS = 20;
/** A merged block holds at most this many points (an hour at one report per 3 s). */
export const MAX_MERGED_POINTS = 1200;
export const WATERMARK_COMPACTED = 'block_compaction';
const HOUR_MS = 3_600_000;
/** Upper bound of hours per run, so a first run over old history is spread over several. */
const MAX_HOURS_PER_RUN = 48;
const NODES_PER_STEP = 25;

export interface CompactResult {
  /** Blocks merged away (replaced) and merged blocks written in their place. */
  merged: number;
  written: number;
  /** Stored bytes before minus after. */
  savedBytes: number;
}

type BlockRow = [id: number, tStart: number, tEnd: number, count: number, data: Uint8Array];

/**
 * Runs of consecutive small blocks worth merging, from one node's blocks of one hour in start
 * order. A run breaks at a large block, at an overlap (a late report's block may interleave
 * with an earlier one: merging those would reorder points), and where it would span
 * MAX_BLOCK_SPAN_MS or hold more than MAX_MERGED_POINTS.
 */
export function compactionRuns(blocks: readonly BlockRow[]): BlockRow[][] {
  const runs: BlockRow[][] = [];
  let run: BlockRow[] = [];
  let points = 0;
  const flush = () => {
    if (run.length >= 2) runs.push(run);
    run = [];
    points = 0;
  };
  for (const b of blocks) {
    const [, tStart, tEnd, count] = b;
    if (count >= SMALL_BLOCK_POINTS) {
      flush();
      continue;
    }
    const first = run[0];
    const last = run.at(-1);
    if (
      first &&
      last &&
      (tStart <= last[2] ||
        tEnd - first[1] >= MAX_BLOCK_SPAN_MS ||
        points + count > MAX_MERGED_POINTS)
    ) {
      flush();
    }
    run.push(b);
    points += count;
  }
  flush();
  return runs;
}

/**
 * Compacts the hours closed since the last run (watermark `block_compaction`), oldest first.
 * An hour is closed once the seal boundary at `now` has passed its end. Yields between steps
 * of a few nodes.
 */
export function* compactTask(
  db: BetterSqlite3.Database,
  now: number,
  sealMs: number = DEFAULT_SEAL_MS,
): Generator<void, CompactResult> {
  if (!validSealMs(sealMs)) throw new Error(`invalid seal interval ${sealMs} ms`);
  const result: CompactResult = { merged: 0, written: 0, savedBytes: 0 };
  const sealedUntil = Math.floor((now - SEAL_GRACE_MS) / sealMs) * sealMs;
  const closedUntil = Math.floor(sealedUntil / HOUR_MS) * HOUR_MS;
  const wm = watermarks(db);
  let from = wm.get(WATERMARK_COMPACTED);
  if (from === undefined) {
    const oldest = db.prepare('SELECT min(t_start) FROM metrics_blocks').pluck().get() as
      number | null;
    if (oldest === null) return result;
    from = Math.floor(oldest / HOUR_MS) * HOUR_MS;
  }
  const until = Math.min(closedUntil, from + MAX_HOURS_PER_RUN * HOUR_MS);
  if (from >= until) return result;

  const select = db
    .prepare(
      `SELECT id, t_start, t_end, count, data FROM metrics_blocks
       WHERE node_id = ? AND t_start >= ? AND t_start < ? ORDER BY t_start, id`,
    )
    .raw(true);
  const insert = db.prepare(
    'INSERT INTO metrics_blocks (node_id, t_start, t_end, count, data) VALUES (?, ?, ?, ?, ?)',
  );
  const remove = db.prepare('DELETE FROM metrics_blocks WHERE id = ?');
  const account = dayAccounting(db);
  const nodes = yield* listNodeIds(db, 'metrics_blocks');
  for (let i = 0; i < nodes.length; i += NODES_PER_STEP) {
    db.transaction(() => {
      for (const nodeId of nodes.slice(i, i + NODES_PER_STEP)) {
        for (let hour = from; hour < until; hour += HOUR_MS) {
          const blocks = select.all(nodeId, hour, hour + HOUR_MS) as BlockRow[];
          for (const run of compactionRuns(blocks)) {
            const data = encodeBlock(mergeBlocks(run.map((b) => decodeBlock(b[4]))));
            const oldBytes = run.reduce((n, b) => n + b[4].length, 0);
            if (data.length >= oldBytes) continue;
            const tStart = run[0]![1];
            const points = run.reduce((n, b) => n + b[3], 0);
            insert.run(nodeId, tStart, run.at(-1)![2], points, data);
            for (const b of run) remove.run(b[0]);
            account(tStart, data.length - oldBytes, 0, 1 - run.length);
            result.merged += run.length;
            result.written++;
            result.savedBytes += oldBytes - data.length;
          }
        }
      }
    })();
    yield;
  }
  wm.set(WATERMARK_COMPACTED, until);
  return result;
}
