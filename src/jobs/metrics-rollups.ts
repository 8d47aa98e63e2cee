import type { MetricsMaintenance } from '../store/ports.js';
import type { Job } from './scheduler.js';

/**
 * Materialises 15-minute and 1-hour history rollups from raw rows newer than the last run
 * (never at read time). Runs on the metrics writer between ingest batches.
 */
export function metricsRollupsJob(maintenance: MetricsMaintenance): Job {
  return {
    name: 'metrics-rollups',
    nextRunAt: (now) => now + 60_000,
    runOnce: async (now) => {
      await maintenance.rollup(now);
    },
  };
}
