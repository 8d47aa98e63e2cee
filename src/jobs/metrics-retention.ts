import type { MetricsMaintenance } from '../store/ports.js';
import type { Job } from './scheduler.js';

/**
 * Deletes history past retention: raw after `rawRetentionDays` (default 8), 15-minute rollups
 * after 16 days, 1-hour rollups after 32 days, in small statements between ingest batches.
 * With a size budget (`maxBytes`), raw history is kept for fewer days when it would not fit.
 */
export function metricsRetentionJob(
  maintenance: MetricsMaintenance,
  rawRetentionDays: number,
  maxBytes?: number,
): Job {
  return {
    name: 'metrics-retention',
    nextRunAt: (now) => now + 5 * 60_000,
    runOnce: async (now) => {
      await maintenance.retention(now, rawRetentionDays, maxBytes);
    },
  };
}
