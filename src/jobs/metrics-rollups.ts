import type { MetricsMaintenance } from '../store/ports.js';
import type { Job } from './job.js';

/**
 * Materialises 15-minute and 1-hour history rollups from raw rows newer than the last run
 * (never at read time). Runs on the metrics writer between ingest batches.
 */
export function metricsRollupsJob(maintenance: MetricsMaintenance): Job {
  return {
    name: 'metrics-rollups',
    intervalMs: 60_000,
    runOnce: (now) => maintenance.rollup(now),
  };
}
