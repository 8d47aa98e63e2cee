import type { MetricsMaintenance } from '../store/ports.js';
import type { Job } from './scheduler.js';

const MINUTE_MS = 60_000;

/**
 * Where in each minute the rollup job runs: at a fixed second rather than a minute after start,
 * so (1) the seal it starts begins soon after each 5-minute boundary plus the seal's grace
 * (SEAL_GRACE_MS, 10 s): the rotation copies the records appended since the boundary, fewer
 * the sooner it runs; and (2) it never lands on the traffic flush, which runs on the same
 * ingest thread `FLUSH_DELAY_MS` (traffic-collect.ts: 5 s) past each minute and takes several seconds paced
 * (docs/ingest-performance.md, "Rollup at a fixed second").
 */
export const ROLLUP_AT_MS = 20_000;

/** The next run at `atMs` past a minute, strictly after `now`. */
export function nextRollupAt(now: number, atMs = ROLLUP_AT_MS): number {
  return Math.floor((now - atMs) / MINUTE_MS + 1) * MINUTE_MS + atMs;
}

/**
 * Seals closed windows of raw history into compressed blocks (every `sealMs`), then materialises 15-minute and 1-hour history rollups from raw rows newer than the last run
 * (never at read time). Runs on the metrics writer between ingest batches, once a minute at
 * `atMs` past it.
 */
export function metricsRollupsJob(
  maintenance: MetricsMaintenance,
  sealMs?: number,
  atMs = ROLLUP_AT_MS,
): Job {
  return {
    name: 'metrics-rollups',
    nextRunAt: (now) => nextRollupAt(now, atMs),
    runOnce: async (now) => {
      await maintenance.rollup(now, sealMs);
    },
  };
}
