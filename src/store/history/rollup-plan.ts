import type { StoredRow } from '../sqlite/history-blocks.js';
import { foldStoredRow } from '../sqlite/history-blocks.js';
import { BUCKET_15M, BUCKET_1H } from '../sqlite/metrics-jobs-state.js';
import { RollupRecord, decodeRollup, encodeRollup } from '../sqlite/rollup-codec.js';

/**
 * The rollup rules both engines follow (SQLite: sqlite/rollup-task.ts, PostgreSQL:
 * postgres/history-rollup.ts), so their 15-minute and 1-hour rows are byte for byte the same:
 * which buckets a run materialises, and how a bucket is computed.
 */

/**
 * A 15-minute bucket is materialised once it ended this long ago: a report received just before
 * the end may commit up to 5 s later (its persistence budget), plus a batch.
 */
export const ROLLUP_GRACE_MS = 10_000;
/** How long each rollup table keeps its buckets. */
export const ROLLUP_15M_RETENTION_MS = 16 * 86_400_000;
export const ROLLUP_1H_RETENTION_MS = 32 * 86_400_000;
/** A device unseen for as long as the longest-kept rollup references nothing any more. */
export const DEVICE_RETENTION_MS = ROLLUP_1H_RETENTION_MS;

/** Upper bound of buckets per run, so a long catch-up is spread over several runs. */
export const MAX_BUCKETS_PER_RUN = 96;

/**
 * The 15-minute buckets a run computes, oldest first: from the watermark (or, before the first
 * run, the bucket of the oldest stored report) to the last closed bucket, never before the
 * oldest stored report (retention may have removed what lay between), at most
 * MAX_BUCKETS_PER_RUN.
 */
/** The end of the newest 15-minute bucket that is closed (grace included) at `now`. */
export function closedQuartersEnd(now: number): number {
  return Math.floor((now - ROLLUP_GRACE_MS) / BUCKET_15M) * BUCKET_15M;
}

export function quarterBuckets(
  now: number,
  watermark: number | undefined,
  oldest: number | undefined,
): number[] {
  const closedUntil = closedQuartersEnd(now);
  let start = watermark;
  if (oldest !== undefined) {
    const floor = Math.floor(oldest / BUCKET_15M) * BUCKET_15M;
    start = start === undefined ? floor : Math.max(start, floor);
  }
  const out: number[] = [];
  for (let b = start ?? closedUntil; b < closedUntil && out.length < MAX_BUCKETS_PER_RUN;) {
    out.push(b);
    b += BUCKET_15M;
  }
  return out;
}

/**
 * The hours whose four quarters are all materialised (below `done15`) and that the 1-hour
 * watermark has not passed; before the first hour is done, from the hour of the run's first
 * bucket.
 */
export function hoursToMerge(
  watermark1h: number | undefined,
  firstQuarter: number | undefined,
  done15: number | undefined,
): number[] {
  if (done15 === undefined) return [];
  const out: number[] = [];
  const first = watermark1h ?? Math.floor((firstQuarter ?? done15) / BUCKET_1H) * BUCKET_1H;
  for (let h = first; h + BUCKET_1H <= done15; h += BUCKET_1H) out.push(h);
  return out;
}

/** A node's 15-minute row from its stored reports of the bucket (ascending); none: no row. */
export function quarterRow(rows: Iterable<StoredRow>): Buffer | undefined {
  const rec = new RollupRecord();
  let any = false;
  for (const row of rows) {
    foldStoredRow(rec, row);
    any = true;
  }
  return any ? encodeRollup(rec) : undefined;
}

/** A node's 1-hour row from its 15-minute rows of the hour (ascending); none: no row. */
export function hourRow(quarters: readonly Uint8Array[]): Buffer | undefined {
  if (quarters.length === 0) return undefined;
  const rec = new RollupRecord();
  for (const p of quarters) rec.merge(decodeRollup(p));
  return encodeRollup(rec);
}
