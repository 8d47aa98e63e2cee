import type { MetricsMaintenance } from '../store/ports.js';
import type { Job } from './scheduler.js';

/**
 * Seals closed windows of raw history into compressed blocks (every `sealMs`), then materialises 15-minute and 1-hour history rollups from raw rows newer than the last run
 * (never at read time). Runs on the metrics writer between ingest batches.
 */
export function metricsRollupsJob(maintenance: MetricsMaintenance, sealMs?: number): Job {
  return {
    name: 'metrics-rollups',
    nextRunAt: (now) => now + 60_000,
    runOnce: async (now) => {
      await maintenance.rollup(now, sealMs);
    },
  };
}
